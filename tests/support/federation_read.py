"""A federation's database for the read side's tests, and a venue's record kept in it.

`read_side_database` makes a fresh database with the federation's migrations
(schema/federation/). Until the core's own migrations (001–099, decision 0165) are in this
tree, their kept-events shape is taken from `federation_core_shape/` (a verbatim copy of the
core branch's files); once they are, the tree's own are used and the copy is never read.

`keep_venue` does what the federation's push does before it keeps anything: the venue's
whole-store export, verified against the venue's key (`whole_store.read_whole`), then every
event inserted into `venue_events` as the venue stored it (already kept positions skipped)."""

from __future__ import annotations

import hashlib
import uuid
from pathlib import Path

import asyncpg
import psycopg
from tableside.db import migrations
from tableside.db.url import with_dbname
from tableside.eventlog.checkpoints import load_or_create_key, public_hex
from tableside.eventlog.whole_store import export_store, read_whole
from tableside.settings import bundled

from support.harness import run_async


def read_side_database(pg_server_url: str) -> str:
    """A fresh federation database, migrated; its URL (the superuser's)."""
    name = f"federation_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')  # type: ignore[arg-type]
    url = with_dbname(pg_server_url, name)
    migrations.apply(url, bundled("schema") / "federation")
    return url


def keep_venue(
    federation_url: str, venue_url: str, key_path: Path, venue_id: uuid.UUID, name: str = ""
) -> int:
    """The venue's record verified and kept; how many events were new."""
    key = load_or_create_key(key_path)
    public = bytes.fromhex(public_hex(key))
    _, records = read_whole(b"".join(export_store(venue_url, key)), public)
    name = name or f"Saal {venue_id.hex[:6]}"
    return run_async(_keep(federation_url, venue_id, name, public, records))


async def _keep(url: str, venue_id: uuid.UUID, name: str, public: bytes, records: list) -> int:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(
            "INSERT INTO venues (venue_id, name, public_key, credential_hash) VALUES ($1, $2, $3,"
            " $4) ON CONFLICT DO NOTHING",
            venue_id,
            name,
            public,
            hashlib.sha256(venue_id.bytes).digest(),
        )
        held = await conn.fetchval(
            "SELECT coalesce(max(position), 0) FROM venue_events WHERE venue_id = $1", venue_id
        )
        new = [r for r in records if r.position > held]
        await conn.executemany(
            "INSERT INTO venue_events (venue_id, position, stream_id, version, type_name, payload,"
            " recorded_at, command_id, meta, prev_hash, hash, global_hash) VALUES ($1, $2, $3, $4,"
            " $5, $6, $7, $8, $9, $10, $11, $12)",
            [
                (
                    venue_id,
                    r.position,
                    r.stream_id,
                    r.version,
                    r.type_name,
                    r.payload,
                    r.recorded_at,
                    r.command_id,
                    r.meta,
                    r.prev_hash,
                    r.hash,
                    r.global_hash,
                )
                for r in new
            ],
        )
        return len(new)
    finally:
        await conn.close()


def project(federation_url: str, venue_id: uuid.UUID) -> None:
    """The archive caught up with the venue's kept events and its lists recomputed, as the
    federation does after a push (`archive.project.refresh`)."""
    from tableside.federation.archive.kept import registry
    from tableside.federation.archive.project import refresh

    async def run() -> None:
        conn = await asyncpg.connect(federation_url)
        try:
            await refresh(conn, registry(), venue_id)
        finally:
            await conn.close()

    run_async(run())


def public_server(federation_url: str):
    """The read side's own app (federation/public/app.py) over the federation's database."""
    from support.harness import Server

    factory = "tableside.federation.public.app:from_env"
    return Server(federation_url, env={"DATABASE_URL": federation_url}, factory=factory).start()


def finished_round_robin(head, name: str, members: list[dict], **guide):
    """A round robin at the venue (women's singles unless `guide` says otherwise), every match
    won 1:0 by the first-listed side, finished; the competition (`competition_play.Comp`)."""
    from support.competition_play import Comp

    base = {"name": name, "format": "round_robin", "games_per_match": 1}
    comp = Comp.create(head, {**base, "discipline": "womens_singles", **guide})
    comp.enter([(f"e{i}", [m]) for i, m in enumerate(members)])
    comp.do({"type": "MakeDraw", "seed": 3})
    won = {"a_games": 1, "b_games": 0}
    while waiting := comp.settled()["waiting"]:
        for m in waiting:
            comp.do({"type": "RecordResult", "match_id": m["match_id"], "result": won})
    comp.do({"type": "FinishCompetition"})
    return comp
