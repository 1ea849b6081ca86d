"""The store's standing at start (#41): the whole chain recomputed and held to every head the
signer signed (stored checkpoints, its log), one signer at a time (psycopg, sync: run it in
a thread). Before each later signature `checkpoint_db` checks what changed since.

Stored checkpoints the log lacks, whose heads all still hold (a restored store, a promoted
standby, a new machine, another node sharing the store), are adopted: each is written to
the log marked `adopted` (decision 0120). A checkpoint the log holds past every stored one,
whose head the store still yields, was logged and then not stored (a stop between the two):
it is stored.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

import psycopg

from tableside.eventlog import checkpoint_db, signer_log, standing
from tableside.eventlog.audit_source import records_from_database
from tableside.eventlog.checkpoints import Checkpoint, Signer
from tableside.eventlog.verify import verify


@dataclass(frozen=True)
class Look:
    """What the start-up look found: the dispute (or None), the events verified, how many
    stored checkpoints a missing log adopted, and the dispute accepted now, if one was."""

    dispute: standing.Dispute | None
    events: int
    adopted: int = 0
    accepted: standing.Dispute | None = None


Accept = Callable[[standing.Dispute, datetime], None]


def look(url: str, signer: Signer, accept: Accept | None = None) -> Look:
    """Judge the store against every head `signer` signed; adopt or store as above. With
    `accept` (`serve --accept-disputed`), a dispute found is recorded by it, written to the
    log as accepted, and the signer signs again from now on. One signer at a time: a second
    worker starting meanwhile finds the dispute accepted."""
    with psycopg.connect(url) as conn, conn.transaction():
        conn.execute(checkpoint_db.ONE_SIGNER)
        seen = _look(conn, url, signer)
        if seen.dispute is not None and _accepted_before(signer, seen.dispute):
            return Look(None, seen.events, seen.adopted)
        if seen.dispute is None or accept is None:
            return seen
        return _accept(seen, signer, accept)


def _accepted_before(signer: Signer, dispute: standing.Dispute) -> bool:
    """This very dispute was accepted before (a broken chain stays broken once accepted)."""
    return signer.log is not None and signer_log.read(signer.log).accepted_reason == dispute.reason


def _accept(seen: Look, signer: Signer, accept: Accept) -> Look:
    now = datetime.now(UTC)
    accept(seen.dispute, now)
    if signer.log is not None:
        fields = {"code": seen.dispute.code, "reason": seen.dispute.reason}
        signer_log.append(signer.log, {signer_log.ACCEPTED: now.isoformat(), **fields})
    signer.since = now
    return Look(None, seen.events, seen.adopted, accepted=seen.dispute)


def _look(conn, url: str, signer: Signer) -> Look:
    stored, logged, log = checkpoint_db.signer_marks(signer, checkpoint_db.all_checkpoints(conn))
    watch = {cp.position for cp in [*stored, *logged]}
    report = verify(records_from_database(url), watch=watch)
    if report.broken is not None:
        dispute = standing.Dispute(standing.CHAIN_BROKEN, report.broken.describe())
        return Look(dispute, report.events)
    dispute = standing.judge(stored, logged, log, report.heads, report.last_position)
    if dispute is not None or log is None:
        return Look(dispute, report.events)
    _store_in_flight(conn, stored, logged)
    return Look(None, report.events, adopted=checkpoint_db.adopt(signer, stored, logged))


def _store_in_flight(conn, stored: list[Checkpoint], logged: list[Checkpoint]) -> None:
    have = {cp.signature for cp in stored}
    newest = max((cp.position for cp in stored), default=0)
    if logged and logged[-1].signature not in have and logged[-1].position >= newest:
        checkpoint_db.insert(conn, logged[-1])
