"""The store's standing at start (#41): the whole chain recomputed and held to every head the
signer signed (stored checkpoints, its log, its keys' history), one signer at a time
(psycopg, sync: run it in a thread). Before each later signature `checkpoint_db` checks
what changed since.

A dispute is accepted only by a `RecordDisputeAccepted` event of the record's own stream,
signed by the store's key (#50): `look` reads them from the store and signs again from the
newest that holds; the log's `accepted` line only mirrors it (decision 0160).

Stored checkpoints the log lacks, whose heads all still hold (a restored store, a promoted
standby, a new machine, another node sharing the store), are adopted: each is written to
the log marked `adopted` (decision 0120). A checkpoint the log holds past every stored one,
whose head the store still yields, was logged and then not stored (a stop between the two):
it is stored.
"""

from __future__ import annotations

import getpass
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import msgspec
import psycopg

from tableside.eventlog import checkpoint_db, signer_log, standing
from tableside.eventlog.audit_source import records_from_database
from tableside.eventlog.checkpoints import Checkpoint, Signer, load_or_create_key, public_hex
from tableside.eventlog.key_identity import store_identity, trusted_in
from tableside.eventlog.verify import ChainReport, verify


@dataclass(frozen=True)
class Look:
    """What the start-up look found: the dispute (or None), the events verified, how many
    stored checkpoints a missing log adopted, and the dispute accepted now, if one was."""

    dispute: standing.Dispute | None
    events: int
    adopted: int = 0
    accepted: standing.Dispute | None = None
    report: ChainReport | None = None
    history: standing.KeyHistory | None = None


Accept = Callable[[standing.DisputeAccepted], None]

_ACCEPTANCES = (
    "SELECT state FROM stored_events WHERE originator_id = %s"
    " AND topic = 'RecordDisputeAccepted' ORDER BY originator_version"
)


def acceptances(conn, signer: Signer) -> list[standing.DisputeAccepted]:
    """The record's acceptances that hold: signed by the store's key (or one it replaced),
    not dated in the future (psycopg)."""
    rows = conn.execute(_ACCEPTANCES, (standing.RECORD_STREAM,)).fetchall()
    events = [msgspec.json.decode(bytes(r[0]), type=standing.DisputeAccepted) for r in rows]
    return standing.holding(events, signer.trusted, datetime.now(UTC))


def _accepted_into(signer: Signer, conn) -> list[standing.DisputeAccepted]:
    """The acceptances that hold, and from them when the signer signs again (`since`) and
    how many checkpoints were missing then."""
    accepted = acceptances(conn, signer)
    signer.since = standing.accepted_since(accepted)
    signer.accepted_missing = max((event.missing for event in accepted), default=0)
    return accepted


def signer_for(url: str, key_path: Path, log: Path | None) -> Signer | None:
    """The signer a tool beside the server signs with (`audit checkpoint`, `audit export`):
    the store's key file (None where there is none: a key made here would sign what the
    server's key then refuses), the keys it replaced, the store's identity, and the
    acceptances on the record, as the server's own signer has them."""
    if not key_path.expanduser().is_file():
        return None
    key = load_or_create_key(key_path)
    retired = trusted_in(url, bytes.fromhex(public_hex(key))).retired
    signer = Signer(key, log, retired=retired, store=store_identity(url))
    with psycopg.connect(url) as conn:
        _accepted_into(signer, conn)
    return signer


def look(url: str, signer: Signer, accept: Accept | None = None) -> Look:
    """Judge the store against every head `signer` signed; adopt or store as above. With
    `accept` (`serve --accept-disputed`), a dispute found is recorded by it as a signed
    event, mirrored in the log, and the signer signs again from now on. One signer at a
    time: a second worker starting meanwhile finds the dispute accepted."""
    with psycopg.connect(url) as conn, conn.transaction():
        conn.execute(checkpoint_db.ONE_SIGNER)
        accepted = _accepted_into(signer, conn)
        seen = _look(conn, url, signer)
        if seen.dispute is not None and _accepted_before(accepted, seen.dispute):
            return Look(None, seen.events, seen.adopted)
        if seen.dispute is None or accept is None:
            return seen
        return _accept(seen, signer, accept)


def _accepted_before(accepted: list[standing.DisputeAccepted], dispute: standing.Dispute) -> bool:
    """This very dispute was accepted before (a broken chain stays broken once accepted)."""
    return any(event.reason == dispute.reason for event in accepted)


def _accept(seen: Look, signer: Signer, accept: Accept) -> Look:
    if seen.dispute is None:
        return seen  # nothing to accept (`look` asks only with a dispute)
    now = datetime.now(UTC)
    report, history = seen.report, seen.history
    event = standing.signed_acceptance(
        signer.key,
        standing.DisputeAccepted(
            code=seen.dispute.code,
            reason=seen.dispute.reason,
            public_key=public_hex(signer.key),
            at=now.isoformat(),
            head_position=report.last_position if report else 0,
            head_hash=report.head.hex() if report else "",
            operator=operator_name(),
            missing=history.missing if history else 0,
        ),
    )
    accept(event)
    signer.write({signer_log.ACCEPTED: event.at, **msgspec.to_builtins(event)})
    signer.since, signer.accepted_missing = now, event.missing
    return Look(None, seen.events, seen.adopted, accepted=seen.dispute)


def operator_name() -> str:
    """Who ran the accepting server (or `keys rotate --lost`): the account's name here."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def _look(conn, url: str, signer: Signer) -> Look:
    everything = checkpoint_db.all_checkpoints(conn)
    stored, logged, log = checkpoint_db.signer_marks(signer, everything)
    rows = conn.execute(checkpoint_db.HISTORY).fetchall()
    history = checkpoint_db.history_of(rows, len(everything), signer)
    watch = {cp.position for cp in [*stored, *logged, *history.newest]}
    report = verify(records_from_database(url), watch=watch)
    if report.broken is not None:
        broken = standing.Dispute(standing.CHAIN_BROKEN, report.broken.describe())
        return Look(broken, report.events, report=report, history=history)
    first = conn.execute(checkpoint_db.FIRST).fetchone()
    dispute = checkpoint_db.foreign(signer, log, first) or standing.judge(
        stored, logged, log, report.heads, report.last_position, history
    )
    if dispute is not None or log is None:
        return Look(dispute, report.events, report=report, history=history)
    _store_in_flight(conn, stored, logged)
    adopted = checkpoint_db.adopt(signer, stored, logged)
    return Look(None, report.events, adopted=adopted, report=report, history=history)


def _store_in_flight(conn, stored: list[Checkpoint], logged: list[Checkpoint]) -> None:
    have = {cp.signature for cp in stored}
    newest = max((cp.position for cp in stored), default=0)
    if logged and logged[-1].signature not in have and logged[-1].position >= newest:
        checkpoint_db.insert(conn, logged[-1])
