"""`serve --demo`: a demo cup on four tables, each playing simulated strokes live.

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
COMPETITION = "demo-cup"
PLAYERS = ("Mari Tamm", "Jaan Kask", "Liis Mets", "Toomas Saar", "Kati Põld", "Peeter Kuusk",
           "Anu Lepp", "Rein Org", "Ilze Ozola", "Jānis Bērziņš", "Eva Kivi", "Mart Laur")
DEMO_USER = ("demo", "demo-head-judge")
META = {"recorder": "demo", "role": "head_judge", "device_id": "demo-simulator"}


async def run_demo(ctx, seconds_per_command: tuple[float, float] = (0.6, 2.0)) -> None:
    """Announce the judge links, then keep every table playing until cancelled."""
    await accounts.add_account(ctx.pool, *DEMO_USER[:1], "head_judge", DEMO_USER[1])
    base = f"http://{ctx.settings.host}:{ctx.settings.port}"
    lines = [f"demo: head judge login {DEMO_USER[0]} / {DEMO_USER[1]}; spectators: {base}/"]
    for table in range(1, TABLES + 1):
        _, token = await accounts.issue_judge_token(ctx.pool, table, DEMO_USER[0])
        lines.append(f"  table {table} judge: {judge_link(base, table, token)}")
    print("\n".join(lines), flush=True)
    rng = random.Random()
    players = rng.sample(PLAYERS, len(PLAYERS))  # three per table, nobody on two tables
    async with asyncio.TaskGroup() as group:
        for table in range(1, TABLES + 1):
            squad = tuple(players[3 * table - 3:3 * table])
            group.create_task(_table(ctx, table, squad, random.Random(rng.random()),
                                     seconds_per_command))


async def _table(ctx, table: int, squad: tuple[str, ...], rng: random.Random,
                 pace: tuple[float, float]) -> None:
    while True:
        try:
            match_id = await anyio.to_thread.run_sync(_new_match, ctx, table, squad, rng)
            while await anyio.to_thread.run_sync(_step, ctx, match_id, rng):
                await asyncio.sleep(rng.uniform(*pace))
        except Exception:  # a demo table must never take the server down
            log.exception("demo table %s: starting over", table)
        await asyncio.sleep(5)


def _new_match(ctx, table: int, squad: tuple[str, ...], rng: random.Random) -> uuid.UUID:
    a, b = rng.sample(squad, 2)
    match_id = uuid.uuid4()
    create = rc.CreateMatch(match_id=str(match_id), side_a=(a,), side_b=(b,), games=3)
    ctx.matches.create(match_id, create, MatchScheduled(table=table, competition_id=COMPETITION),
                       command_id=uuid.uuid4(), meta=META)
    return match_id


def _step(ctx, match_id: uuid.UUID, rng: random.Random) -> bool:
    """Post the simulator's next command; False once the match is over and signed."""
    view = ctx.matches.view(match_id)
    command = simulate.next_command(view.state, rng)
    if command is None:
        return False
    ctx.matches.execute(match_id, command, expected_version=view.version,
                        command_id=uuid.uuid4(), meta=META, authorize=lambda _: None)
    return True
