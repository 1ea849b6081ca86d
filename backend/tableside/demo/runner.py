"""`serve --demo`: a demo cup on four tables playing simulated strokes live, and one more
table that nobody simulates, so a newcomer can judge a match there from its link.

Every stroke goes through MatchService.execute, the same path as a judge's HTTP command,
with a head-judge principal; when a match is signed the table gets the next one.
"""

from __future__ import annotations

import asyncio
import logging
import random
import uuid

import anyio.to_thread

from tableside.app import accounts
from tableside.app.staff_routes import judge_link
from tableside.matches.events import MatchScheduled
from tableside.rules import commands as rc
from tableside.rules import simulate

log = logging.getLogger(__name__)

TABLES = 4
HUMAN_TABLE = TABLES + 1  # left to a person: a simulator there would race their taps
COMPETITION = "demo-cup"
PLAYERS = (
    "Mari Tamm",
    "Jaan Kask",
    "Liis Mets",
    "Toomas Saar",
    "Kati Põld",
    "Peeter Kuusk",
    "Anu Lepp",
    "Rein Org",
    "Ilze Ozola",
    "Jānis Bērziņš",
    "Eva Kivi",
    "Mart Laur",
    "Laura Vaher",
    "Andris Kalniņš",
    "Helen Rebane",
)
DEMO_USER = ("demo", "demo-head-judge")
META = {"recorder": "demo", "role": "head_judge", "device_id": "demo-simulator"}


async def run_demo(ctx, seconds_per_command: tuple[float, float] = (0.6, 2.0)) -> None:
    """Announce the judge links, then keep every table playing until cancelled."""
    await accounts.add_account(ctx.pool, *DEMO_USER[:1], "head_judge", DEMO_USER[1])
    # The last demo's printed links must stop working (issue 11, point 5).
    await accounts.revoke_tokens_issued_by(ctx.pool, DEMO_USER[0])
    base = f"http://{ctx.settings.host}:{ctx.settings.port}"
    lines = [f"demo: head judge login {DEMO_USER[0]} / {DEMO_USER[1]}; spectators: {base}/"]
    for table in (HUMAN_TABLE, *range(1, TABLES + 1)):
        _, token = await accounts.issue_judge_token(
            ctx.pool, table, DEMO_USER[0], ctx.settings.judge_token_hours
        )
        note = "  ← yours: nobody else records here" if table == HUMAN_TABLE else " (simulated)"
        lines.append(f"  table {table} judge: {judge_link(base, table, token)}{note}")
    print("\n".join(lines), flush=True)
    rng = random.Random()
    players = rng.sample(PLAYERS, len(PLAYERS))  # three per table, nobody on two tables
    squads = {
        table: tuple(players[3 * table - 3 : 3 * table]) for table in range(1, HUMAN_TABLE + 1)
    }
    async with asyncio.TaskGroup() as group:
        for table in range(1, TABLES + 1):
            group.create_task(
                _table(ctx, table, squads[table], random.Random(rng.random()), seconds_per_command)
            )
        group.create_task(_human_table(ctx, HUMAN_TABLE, squads[HUMAN_TABLE], rng))


async def _table(
    ctx, table: int, squad: tuple[str, ...], rng: random.Random, pace: tuple[float, float]
) -> None:
    while True:
        try:
            match_id = await anyio.to_thread.run_sync(_new_match, ctx, table, squad, rng)
            while await anyio.to_thread.run_sync(_step, ctx, match_id, rng):
                await asyncio.sleep(rng.uniform(*pace))
        except Exception:  # a demo table must never take the server down
            log.exception("demo table %s: starting over", table)
        await asyncio.sleep(5)


async def _human_table(ctx, table: int, squad: tuple[str, ...], rng: random.Random) -> None:
    """A match waits for a person to judge it; once they sign, the next one is scheduled."""
    while True:
        try:
            match_id = await anyio.to_thread.run_sync(_new_match, ctx, table, squad, rng, 1)
            while not (await anyio.to_thread.run_sync(ctx.matches.view, match_id)).state.signed:
                await asyncio.sleep(2)
        except Exception:
            log.exception("demo table %s: starting over", table)
        await asyncio.sleep(5)


def _new_match(
    ctx, table: int, squad: tuple[str, ...], rng: random.Random, games: int = 3
) -> uuid.UUID:
    a, b = rng.sample(squad, 2)
    match_id = uuid.uuid4()
    create = rc.CreateMatch(match_id=str(match_id), side_a=(a,), side_b=(b,), games=games)
    ctx.matches.create(
        match_id,
        create,
        MatchScheduled(table=table, competition_id=COMPETITION),
        command_id=uuid.uuid4(),
        meta=META,
    )
    return match_id


def _step(ctx, match_id: uuid.UUID, rng: random.Random) -> bool:
    """Post the simulator's next command; False once the match is over and signed."""
    view = ctx.matches.view(match_id)
    command = simulate.next_command(view.state, rng)
    if command is None:
        return False
    ctx.matches.execute(
        match_id,
        command,
        expected_version=view.version,
        command_id=uuid.uuid4(),
        meta=META,
        authorize=lambda _: None,
    )
    return True
