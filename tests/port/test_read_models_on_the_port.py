"""Issue 55, point 3: what the kernel knows of a discipline's read models comes through the
port, in the discipline's own SQL. A discipline that keeps the hall's tables in a table of
its own (here a test-only `coin_hall`, in a real database) declares it as `Tables`: the hall
finds the match holding a table there, the hall's call lock waits for its read model, and
`match.tables_now` reads the match a table plays from it; the live feed snapshots the
channel kinds the house's feeds declare (`Feed.projected`), and nothing else."""

from __future__ import annotations

import json
import uuid

import asyncpg
import pytest
from support.harness import app_settings, run_async
from tableside.competition import hall
from tableside.competition.flows import Flows
from tableside.db.pool import open_pool
from tableside.match.discipline import Tables
from tableside.match.tables_now import TablesNow
from tableside.plugins.house import house_disciplines
from tableside.server import live_channels

COIN_TABLES = Tables(
    read_model="coin_hall",
    holding="SELECT table_no, NULL, doc->'a', doc->'b', 'playing', NULL FROM coin_hall",
    current="""
SELECT c.match_id, c.scheduled, p.position
FROM projection_tracking p LEFT JOIN coin_hall c ON c.table_no = $1
WHERE p.name = 'coin_hall'
""",
)
MATCH = uuid.uuid4()


async def _coin_hall(url: str):
    """A pool on a database whose test-only discipline holds table 7 in its own table."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(
            "CREATE TABLE coin_hall (table_no int PRIMARY KEY, match_id uuid, scheduled bigint, "
            "doc jsonb); INSERT INTO projection_tracking (name) VALUES ('coin_hall')"
        )
        doc = json.dumps({"a": ["Ann Õunapuu"], "b": ["Bob Šmits"]})
        await conn.execute("INSERT INTO coin_hall VALUES (7, $1, 3, $2::jsonb)", MATCH, doc)
    finally:
        await conn.close()
    return await open_pool(app_settings(url), max_size=2)  # the app's pool, bounded waits


def _no_competition(comp_id):
    raise AssertionError(f"no competition is open, yet {comp_id} was asked for")


def test_the_hall_reads_a_table_a_discipline_keeps_in_its_own_read_model(database_url):
    async def run():
        pool = await _coin_hall(database_url)
        flows = Flows((), (COIN_TABLES,))
        try:
            held = await hall.holders(pool, _no_competition, flows)
            async with hall.calling(pool, flows) as conn:  # waits for coin_hall: caught up
                under_lock = await hall.holders(conn, _no_competition, flows)
            nothing = await hall.holders(pool, _no_competition, Flows(()))
        finally:
            await pool.close()
        return held, under_lock, nothing

    held, under_lock, nothing = run_async(run())
    assert [(h.table, h.players, h.state) for h in held] == [
        (7, "Ann Õunapuu – Bob Šmits", "playing")
    ]
    assert under_lock == held
    assert nothing == []  # no discipline declares coin_hall: the hall does not read it


def test_the_match_a_table_plays_is_read_from_the_disciplines_tables(database_url):
    async def run():
        pool = await _coin_hall(database_url)
        try:
            declared = TablesNow((COIN_TABLES.current,))
            declared.follow(0, [])  # the hub started following at 0; coin_hall is at 0
            return (
                await declared.current(pool, 7),
                await declared.current(pool, 8),
                await TablesNow().current(pool, 7),
            )
        finally:
            await pool.close()

    assert run_async(run()) == ((MATCH, 3), None, None)


def test_the_house_declares_its_channels_snapshots_and_its_tables():
    """The kernel's snapshot queries are the house's feeds' own: korona's read models hold
    the match, table, competition and hall channels; korona alone keeps the hall's tables
    (backgammon's on_tables answers through its competition flow)."""
    disciplines = house_disciplines()
    projected = live_channels(TablesNow(), disciplines).projected
    assert set(projected) == {"match", "table", "competition", "hall"}
    assert {model for model, _ in projected.values()} == {"live", "tables"}
    assert [t.read_model for t in disciplines.tables()] == ["tables"]


@pytest.mark.parametrize("kind", ["match", "table", "competition", "hall"])
def test_each_projected_snapshot_query_runs_on_the_schema(database_url, kind):
    """Each declared query reads what the schema has (no rows yet: an empty snapshot)."""
    model, query = live_channels(TablesNow(), house_disciplines()).projected[kind]
    key = {"match": uuid.uuid4(), "table": 3, "competition": "c1", "hall": "all"}[kind]

    async def run():
        conn = await asyncpg.connect(database_url)
        try:
            tracked = await conn.fetchval(
                "SELECT position FROM projection_tracking WHERE name = $1", model
            )
            return tracked, await conn.fetch(query, key)
        finally:
            await conn.close()

    assert run_async(run()) == (0, [])
