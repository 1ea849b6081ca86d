"""Does the store still yield every head its signer signed? (#41) Pure: no I/O here.

The signed heads a server (or an auditor beside its key) knows are the stored checkpoints and
the signer's log (`signer_log`). The store is *disputed* when its history no longer yields
one of them (another head at a signed position, or the store ends before it), when its
checkpoints vanished while the log says they existed, or when the log itself is no longer
whole (its chain breaks, or it lacks checkpoints the store holds). A disputed store is not
signed, vouched for or receipted (`web/disputed.py`) until someone accepts it on the
record (`serve --accept-disputed`).

What is *not* disputed (decision 0120): a fresh store (no events, no checkpoints); a store
with events and no checkpoint anywhere (unproven: signed from now on); a restored store or a
promoted standby, whose log is missing or behind while every stored checkpoint still holds:
the signer adopts the stored checkpoints into its log (marked `adopted`) and goes on.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from tableside.eventlog.checkpoints import Checkpoint, trusts
from tableside.eventlog.rotation import KeyLost, KeyRotated
from tableside.eventlog.signer_log import SKEW, LogReading

# The codes every face translates (`record.<code>` in pwa/i18n/*.json).
HEAD_CHANGED = "head_changed"
EVENTS_REMOVED = "events_removed"
CHECKPOINTS_VANISHED = "checkpoints_vanished"
LOG_BROKEN = "log_broken"
LOG_SHORT = "log_short"
CHAIN_BROKEN = "chain_broken"
LOG_FOREIGN = "log_foreign"
CODES = (
    HEAD_CHANGED,
    EVENTS_REMOVED,
    CHECKPOINTS_VANISHED,
    LOG_BROKEN,
    LOG_SHORT,
    CHAIN_BROKEN,
    LOG_FOREIGN,
)


# The store's own stream for facts about the record itself (not a match's, not a competition's).
RECORD_STREAM = uuid.UUID("7ab1e51d-0000-4000-8000-000000000041")


class DisputeAccepted(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="RecordDisputeAccepted"
):
    """A disputed record was accepted as it stands (`serve --accept-disputed`): why it was
    disputed, by which key's server, and from when its signer signs again. What was signed
    before stays evidence: `audit verify` still holds the store to it. Since #50 it names
    the head it accepted (`head_position`, `head_hash`), who ran the server (`operator`),
    how many signed checkpoints the store lacked then (`missing`), and is signed by the key
    (`signature`, `acceptance_bytes`): the only place a dispute is accepted (decision 0160)."""

    code: str
    reason: str
    public_key: str
    at: str
    accepted_by: str = "tableside serve --accept-disputed"
    head_position: int = 0
    head_hash: str = ""
    operator: str = ""
    missing: int = 0
    signature: str = ""


class CheckpointWitnessed(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="CheckpointWitnessed"
):
    """A checkpoint a witness outside this machine held (a device's export, a mirror's file),
    collected by the head judge's console at `at`; `held`: the store still yielded its head."""

    position: int
    head_hash: str
    signed_at: str
    public_key: str
    signature: str
    source: str
    held: bool
    at: str


RECORD_EVENT_TYPES: tuple[type, ...] = (
    DisputeAccepted,
    KeyRotated,
    KeyLost,
    CheckpointWitnessed,
)
_ACCEPTANCE = b"tableside-acceptance/1\n"


def acceptance_bytes(event: DisputeAccepted) -> bytes:
    """The exact bytes an acceptance's signature covers: every field but the signature."""
    fields = msgspec.to_builtins(msgspec.structs.replace(event, signature=""))
    return _ACCEPTANCE + msgspec.json.encode(fields)


def signed_acceptance(key: Ed25519PrivateKey, event: DisputeAccepted) -> DisputeAccepted:
    """`event` signed by the key (its `public_key` is that key's)."""
    return msgspec.structs.replace(event, signature=key.sign(acceptance_bytes(event)).hex())


def acceptance_holds(event: DisputeAccepted, trusted: bytes | None, now: datetime) -> bool:
    """Is the acceptance signed by a trusted key, and dated no later than now? (An unsigned
    one, written before #50 or by hand, accepts nothing.)"""
    try:
        key = bytes.fromhex(event.public_key)
        at = datetime.fromisoformat(event.at)
        Ed25519PublicKey.from_public_bytes(key).verify(
            bytes.fromhex(event.signature), acceptance_bytes(event)
        )
    except (InvalidSignature, ValueError):
        return False
    return trusts(trusted, key) and at <= now + SKEW


def holding(
    events: Iterable[DisputeAccepted], trusted: bytes | None, now: datetime
) -> list[DisputeAccepted]:
    """The acceptances that hold (signed by a trusted key, not dated in the future)."""
    return [event for event in events if acceptance_holds(event, trusted, now)]


def accepted_since(accepted: list[DisputeAccepted]) -> datetime | None:
    """When a dispute was last accepted (of acceptances that hold), or None."""
    return max((datetime.fromisoformat(event.at) for event in accepted), default=None)


@dataclass(frozen=True)
class Dispute:
    """Why the store is disputed: a code for the faces, a sentence for people and logs."""

    code: str
    reason: str


def foreign_log(path: Path, named: str | None, store: str | None) -> Dispute | None:
    """A log whose first line names another store than this one (#50): no witness of it. An
    empty store (no identity yet) has signed nothing: any store a log names is another."""
    if named is None or named == store:
        return None
    this = f"this store {store[:16]}…" if store else "this store, which is empty"
    return Dispute(
        LOG_FOREIGN,
        f"the signer's log {path} belongs to store {named[:16]}…, not to {this}: give this"
        " store its own key folder (TABLESIDE_KEY_FILE); two stores never share a key or its"
        " log",
    )


def log_problem(
    path: Path,
    reading: LogReading,
    logged: list[Checkpoint],
    stored: list[Checkpoint],
    *,
    expected: bool = True,
) -> Dispute | None:
    """The log as evidence: its chain holds and it holds every stored checkpoint. A log that
    does not exist is a problem only where it is `expected` (the signer's key is here)."""
    if not reading.exists and not expected:
        return None
    if reading.problem is not None:
        return Dispute(LOG_BROKEN, f"the signer's log {path}: {reading.problem}")
    have = {cp.signature for cp in logged}
    lacking = [cp for cp in stored if cp.signature not in have]
    if not lacking:
        return None
    state = "is missing" if not reading.exists else "is empty" if not logged else "lacks them"
    return Dispute(
        LOG_SHORT,
        f"the signer's log {path} {state}: {len(lacking)} of the store's {len(stored)} signed"
        f" heads are not in it (the first at position {lacking[0].position}): it was"
        " truncated, replaced or deleted",
    )


def vanished(
    stored: list[Checkpoint], logged: list[Checkpoint], *, in_flight: bool = False
) -> Dispute | None:
    """Checkpoints the log says were stored and the store no longer holds. With `in_flight`
    (the server), the log's last line past every stored checkpoint is not counted: it is
    logged before it is stored, and a stop between the two leaves it so (the server stores
    it again when the store still yields its head)."""
    have = {cp.signature for cp in stored}
    gone = [cp for cp in logged if cp.signature not in have]
    newest = max((cp.position for cp in stored), default=0)
    if in_flight and gone and gone[-1] is logged[-1] and logged[-1].position >= newest:
        gone.pop()
    if not gone:
        return None
    return Dispute(
        CHECKPOINTS_VANISHED,
        f"the store holds {len(stored)} checkpoints, but the signer's log holds"
        f" {len(stored) + len(gone)}: {len(gone)} stored checkpoints were deleted"
        f" (the first at position {gone[0].position})",
    )


def unreached(
    signed: Iterable[Checkpoint], heads: dict[int, bytes], end: int, *, name: str
) -> Dispute | None:
    """The first signed head the store no longer yields: `heads` holds the store's global
    hash at each signed position (recomputed or as stored), `end` its last position."""
    for checkpoint in signed:
        if checkpoint.position > end:
            return Dispute(
                EVENTS_REMOVED,
                f"{name}: the store ends at position {end}, but the head at position"
                f" {checkpoint.position} was signed at {checkpoint.time.isoformat()}:"
                " events were removed",
            )
        found = heads.get(checkpoint.position)
        if found is None or found.hex() != checkpoint.head_hash:
            return Dispute(
                HEAD_CHANGED,
                f"{name}: the store's head at position {checkpoint.position} is"
                f" {found.hex() if found else 'missing'}, but {checkpoint.head_hash} was signed"
                f" there at {checkpoint.time.isoformat()}",
            )
    return None


def newest_covering(marks: Iterable[Checkpoint], position: int) -> Checkpoint | None:
    """The newest checkpoint at or past `position` (the one that proves the most), or None.
    Its signature is checked where it is used (a seal is verified against the trusted key)."""
    return max((cp for cp in marks if cp.position >= position), key=_order, default=None)


def _order(checkpoint: Checkpoint) -> tuple[int, object]:
    return checkpoint.position, checkpoint.time


def since(marks: list[Checkpoint], accepted: datetime | None) -> list[Checkpoint]:
    """The checkpoints signed after a dispute was accepted (all, when none was)."""
    return marks if accepted is None else [cp for cp in marks if cp.time > accepted]


@dataclass(frozen=True)
class KeyHistory:
    """What the store's registered keys signed, as the owner's `tableside_append_checkpoint`
    counts it (schema/013, #50): how many checkpoints (`signed`) and each key's newest signed
    head (`newest`, signed after the last accepted dispute), beside how many checkpoints the
    store holds (`held`) and how many it lacked when a dispute was last accepted
    (`accepted_missing`). Deleting the stored checkpoints and the log leaves this behind."""

    signed: int = 0
    held: int = 0
    newest: tuple[Checkpoint, ...] = ()
    accepted_missing: int = 0

    @property
    def missing(self) -> int:
        """Signed checkpoints the store no longer holds."""
        return max(0, self.signed - self.held)


def history_problem(history: KeyHistory, heads: dict[int, bytes], end: int) -> Dispute | None:
    """The store against its keys' history: no stored checkpoint deleted since the last
    accepted dispute, and every key's newest signed head still yielded."""
    if history.missing > history.accepted_missing:
        return Dispute(
            CHECKPOINTS_VANISHED,
            f"the store holds {history.held} checkpoints, but its registered keys signed"
            f" {history.signed}: {history.missing} stored checkpoints were deleted (the keys'"
            " history, checkpoint_keys)",
        )
    return unreached(history.newest, heads, end, name="the keys' history")


def judge(
    stored: list[Checkpoint],
    logged: list[Checkpoint],
    log: tuple[Path, LogReading] | None,
    heads: dict[int, bytes],
    end: int,
    history: KeyHistory | None = None,
) -> Dispute | None:
    """The first reason the signer must not sign, or None: the log's chain holds (where there
    is one), every signed head (stored, logged) is still yielded, no stored checkpoint the log
    names vanished. `heads` and `end` as for `unreached`. Stored checkpoints the log lacks
    are no dispute once their heads hold: the signer adopts them (`lacking`; another node
    sharing the store signed them, or the log was lost: decision 0120)."""
    found = (
        Dispute(LOG_BROKEN, f"the signer's log {log[0]}: {log[1].problem}")
        if log is not None and log[1].problem is not None
        else None
    )
    return (
        found
        or unreached(stored, heads, end, name="a stored checkpoint")
        or unreached(logged, heads, end, name="the signer's log")
        or (vanished(stored, logged, in_flight=True) if log is not None else None)
        or (history_problem(history, heads, end) if history is not None else None)
    )


def lacking(stored: list[Checkpoint], logged: list[Checkpoint]) -> list[Checkpoint]:
    """The stored checkpoints the log does not hold, oldest first."""
    have = {cp.signature for cp in logged}
    return [cp for cp in stored if cp.signature not in have]
