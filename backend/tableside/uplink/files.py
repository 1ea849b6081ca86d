"""The uplink's folder (`Settings.uplink_folder`, beside the store, never in a URL): the
credential the federation gave at enrolment (0600), the acknowledgements it signed (JSON
Lines: a witness `tableside audit verify --witness` reads), and the status the uplink saw
last (read by every worker's `/health` and console)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

import msgspec

from tableside.eventlog import federation_ack
from tableside.eventlog.federation_ack import Ack

CREDENTIAL = "credential.json"
ACKS = "federation-acks.jsonl"
STATUS = "status.json"
KEPT_ACKS = 200  # the newest acknowledgements kept in the witness file


class Credential(msgspec.Struct, frozen=True):
    """What enrolment gave: where, which venue, the push credential, the federation's key."""

    federation: str
    venue_id: str
    name: str
    credential: str
    federation_key: str


class Status(msgspec.Struct, frozen=True, omit_defaults=True):
    """What the uplink saw last: `state` enrolled | offline | witnessed | forked | refused,
    when, the federation's newest acknowledgement, and for a fork or a refusal its code."""

    state: str
    at: str
    federation: str = ""
    position: int = 0
    head: int = 0
    ack: Ack | None = None
    code: str = ""
    detail: str = ""
    alarm_position: int = 0
    retry_in: float = 0.0


def _write(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Whole or not at all: a reader never sees half a file."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    os.replace(tmp, path)


def read_credential(folder: Path) -> Credential | None:
    """The enrolment's credential, or None before enrolment."""
    path = folder / CREDENTIAL
    if not path.is_file():
        return None
    return msgspec.json.decode(path.read_bytes(), type=Credential)


def write_credential(folder: Path, credential: Credential) -> None:
    """Kept 0600: whoever reads it may push as this venue."""
    _write(folder / CREDENTIAL, msgspec.json.encode(credential), 0o600)


def write_status(folder: Path, status: Status) -> None:
    """What the uplink saw, for the workers' `/health` and console."""
    _write(folder / STATUS, msgspec.json.encode(status))


def read_status(folder: Path) -> Status | None:
    """What the uplink saw last, or None (no uplink has run here)."""
    with contextlib.suppress(OSError, msgspec.DecodeError):
        return msgspec.json.decode((folder / STATUS).read_bytes(), type=Status)
    return None


def keep_ack(folder: Path, ack: Ack) -> None:
    """Add the acknowledgement to the witness file (the newest KEPT_ACKS of them)."""
    path = folder / ACKS
    lines = path.read_bytes().splitlines() if path.is_file() else []
    line = federation_ack.encode(ack).rstrip(b"\n")
    if lines and lines[-1] == line:
        return
    kept = [*lines, line][-KEPT_ACKS:]
    _write(path, b"".join(x + b"\n" for x in kept))


def as_dict(status: Status | None) -> dict[str, Any] | None:
    """The status as `/health` and the console read it."""
    return msgspec.to_builtins(status) if status is not None else None
