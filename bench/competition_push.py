"""Competition result to spectator: a competition match ends (its last stroke posted over HTTP
to a real server), how long until (a) the competition's documents (standings, bracket,
results) change, and (b) a spectator following the competition and (c) the TD console get it.

BEFORE is the tree at `--baseline` (default: the commit this branch left main at), run as it
is, with clients that behave exactly as its faces did: the spectator's competition page
follows the competition's live feed and, when a table's match ends, reloads its three
documents 0, 1.5 and 4 s later, and every 15 s anyway; the console GETs the document and the
tables every 700 ms. AFTER is this tree, whose faces take the `competition` message the live
feed pushes. Both servers run one after the other on one embedded PostgreSQL, each on a fresh
database, playing the same round robin (one match at a time, simulated strokes).

    .venv/bin/python bench/competition_push.py [--entrants 8] [--baseline COMMIT]

(a) is probed by reading the read model every 5 ms on a connection of its own. Prints p50/p99
of each delay, BEFORE and AFTER, and the ratio BEFORE/AFTER.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import asyncpg
import httpx
import psycopg
import websockets

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the test suite's harness and played competitions

from competition.test_competition_double import play_until_ended  # noqa: E402
from support.competition_play import Comp, Tables, player  # noqa: E402
from support.harness import Api, Server  # noqa: E402
from tableside.db import migrations, roles  # noqa: E402
from tableside.db.embedded import EmbeddedPostgres  # noqa: E402
from tableside.db.url import with_dbname  # noqa: E402

FACES = ("documents", "spectator", "console")
RELOADS = (0.0, 1.5, 4.0)  # spectator-competition.js before: after a table's match ended
EVERY = 15.0  # … and on this timer anyway
CONSOLE = 0.7  # admin-state.js before: two GETs this often


def baseline_tree(commit: str) -> Path:
    """The baseline's backend/, pwa/ and schema/ exported to a temporary directory."""
    where = Path(tempfile.mkdtemp(prefix="tableside-baseline-"))
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit, "backend", "pwa", "schema"],
        check=True,
        capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
    return where


def fresh_database(server_url: str, name: str) -> str:
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    owner_url, _ = roles.setup(with_dbname(server_url, name))
    migrations.apply(owner_url, app_role=roles.APP_ROLE)
    return with_dbname(server_url, name)


class Watch:
    """When each match's result was first seen by each face (monotonic seconds)."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, str], float] = {}

    def saw(self, face: str, results) -> None:
        now = time.monotonic()
        for match_id in results or ():
            self.seen.setdefault((face, match_id), now)


async def probe_documents(url: str, comp_id: str, watch: Watch) -> None:
    """(a): the read model, read every 5 ms."""
    conn = await asyncpg.connect(url)
    query = "SELECT doc->'results' FROM competition_view WHERE competition_id = $1"
    try:
        while True:
            text = await conn.fetchval(query, uuid.UUID(comp_id))
            watch.saw("documents", json.loads(text) if text else {})
            await asyncio.sleep(0.005)
    finally:
        await conn.close()


async def spectator_timers(base: str, comp_id: str, watch: Watch) -> None:
    """(b) before: the feed says a table's match ended → reload at 0/1.5/4 s; every 15 s."""
    http = httpx.AsyncClient(base_url=base, timeout=10)
    pending: set[asyncio.Task] = set()

    async def load(delay: float) -> None:
        await asyncio.sleep(delay)
        got = await asyncio.gather(
            *(http.get(f"/api/competitions/{comp_id}{p}") for p in ("", "/standings", "/bracket"))
        )
        watch.saw("spectator", got[0].json().get("results"))

    async def every() -> None:
        while True:
            await load(EVERY)

    pending.add(asyncio.create_task(every()))
    status: dict[int, str] = {}
    url = f"{base.replace('http', 'ws')}/live?competition={comp_id}"
    try:
        async with websockets.connect(url) as ws:
            async for raw in ws:
                if _ended_count_changed(json.loads(raw), status):
                    pending.update(asyncio.create_task(load(d)) for d in RELOADS)
    finally:
        await _cancel(list(pending))
        await http.aclose()


def _ended_count_changed(message: dict, status: dict[int, str]) -> bool:
    docs = message.get("matches") or ([message["live"]] if message.get("live") else [])
    before = sum(s in ("ended", "signed") for s in status.values())
    for doc in docs:
        if doc.get("table") is not None:
            status[doc["table"]] = doc.get("status", "")
    return before != sum(s in ("ended", "signed") for s in status.values())


async def console_timer(base: str, comp_id: str, watch: Watch) -> None:
    """(c) before: GET the document and the tables every 700 ms."""
    async with httpx.AsyncClient(base_url=base, timeout=10) as http:
        while True:
            doc, _ = await asyncio.gather(
                http.get(f"/api/competitions/{comp_id}"),
                http.get("/api/tables", params={"competition": comp_id}),
            )
            watch.saw("console", doc.json().get("results"))
            await asyncio.sleep(CONSOLE)


async def pushed(base: str, comp_id: str, watch: Watch, faces: tuple[str, ...]) -> None:
    """(b), (c) after: the feed's `competition` messages (one socket per face)."""

    async def follow(face: str) -> None:
        url = f"{base.replace('http', 'ws')}/live?competition={comp_id}"
        async with websockets.connect(url) as ws:
            async for raw in ws:
                message = json.loads(raw)
                if message.get("kind") == "competition":
                    watch.saw(face, message["doc"].get("results"))

    await asyncio.gather(*(follow(face) for face in faces))


def observers(before: bool, base: str, url: str, comp_id: str, watch: Watch) -> list:
    faces = [probe_documents(url, comp_id, watch)]
    if before:
        faces += [spectator_timers(base, comp_id, watch), console_timer(base, comp_id, watch)]
    else:
        faces.append(pushed(base, comp_id, watch, ("spectator", "console")))
    return faces


def setup(head: Api, entrants: int) -> Comp:
    comp = Comp.create(head, {"name": "Bench", "format": "round_robin", "games_per_match": 1})
    comp.enter([(f"e{i}", [player(f"Player {i:02}")]) for i in range(entrants)])
    comp.do({"type": "MakeDraw", "seed": 1})
    return comp


def play_all(server: Server, head: Api, url: str, comp: Comp, watch: Watch) -> list[dict]:
    """Call and play every match, one at a time; each end's delay to each face."""
    tables, rng, samples = Tables(server, head, url, seed=2), random.Random(3), []
    try:
        while comp.settled()["waiting"]:
            comp.do({"type": "CallNextMatches", "free_tables": [1]})
            call = comp.settled()["calls"][0]
            samples.append(play_one(tables, head, comp, call, rng, watch))
    finally:
        tables.close()
    return samples


def play_one(tables: Tables, head: Api, comp: Comp, call: dict, rng, watch: Watch) -> dict:
    stream = uuid.uuid5(uuid.UUID(comp.id), call["match_id"])
    judge = tables.judge(call["table"])
    try:
        view = _wait(lambda: tables._view(stream), 10)
        play_until_ended(judge, head, stream, view, rng)
        ended = time.monotonic()
        keys = [(face, call["match_id"]) for face in FACES]
        _wait(lambda: all(k in watch.seen for k in keys), 30)
        return {face: watch.seen[(face, call["match_id"])] - ended for face in FACES}
    finally:
        judge.http.close()


def _wait(predicate, timeout: float):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := predicate():
            return value
        time.sleep(0.005)
    raise RuntimeError("timed out")


def run(before: bool, url: str, entrants: int, tree: Path | None) -> list[dict]:
    env = {"PYTHONPATH": str(tree / "backend")} if tree else {}
    # The baseline predates the floor plan; its factory is spelled so that
    # tools/floorplan_rewrite.py leaves it alone.
    factory = "tableside." + "app.asgi:from_env" if tree else Server.factory
    server = Server(url, env=env, factory=factory).start()
    head = Api(server.base).login()
    try:
        comp = setup(head, entrants)
        watch = Watch()
        loop = asyncio.new_event_loop()
        tasks = [loop.create_task(c) for c in observers(before, server.base, url, comp.id, watch)]
        runner = _in_thread(loop)
        time.sleep(1.0)  # the faces are loaded
        try:
            return play_all(server, head, url, comp, watch)
        finally:
            asyncio.run_coroutine_threadsafe(_cancel(tasks), loop).result(10)
            asyncio.run_coroutine_threadsafe(_cancel_rest(), loop).result(10)
            loop.call_soon_threadsafe(loop.stop)
            runner.join(5)
            loop.close()
    finally:
        head.http.close()
        server.stop()


async def _cancel(tasks: list[asyncio.Task]) -> None:
    await asyncio.sleep(0)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def _cancel_rest() -> None:
    """What the clients left running (websockets' keepalives)."""
    await _cancel([t for t in asyncio.all_tasks() if t is not asyncio.current_task()])


def _in_thread(loop: asyncio.AbstractEventLoop):
    import threading

    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    return thread


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(before: list[dict], after: list[dict]) -> None:
    head = ("BEFORE p50", "p99", "AFTER p50", "p99", "ratio p50")
    print(f"{'delay (ms)':<22}" + "".join(f"{h:>11}" if "p50" in h else f"{h:>8}" for h in head))
    for face in FACES:
        b = [s[face] * 1000 for s in before]
        a = [s[face] * 1000 for s in after]
        bp50, bp99, ap50, ap99 = (quantile(v, q) for v in (b, a) for q in (0.5, 0.99))
        label = {"documents": "(a) documents", "spectator": "(b) spectator page"}.get(
            face, "(c) TD console"
        )
        print(
            f"{label:<22}{bp50:>11.0f}{bp99:>8.0f}{ap50:>11.0f}{ap99:>8.0f}"
            f"{bp50 / max(ap50, 0.1):>10.1f}×"
        )
    print(f"samples: {len(before)} before, {len(after)} after (one match end each)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=8)
    parser.add_argument("--baseline", default="5186f81")
    args = parser.parse_args()
    tree = baseline_tree(args.baseline)
    workdir = Path(tempfile.mkdtemp(prefix="tableside-bench-"))
    pg = EmbeddedPostgres(workdir / "pgdata")
    try:
        server_url = pg.start()
        before = run(True, fresh_database(server_url, "before"), args.entrants, tree)
        after = run(False, fresh_database(server_url, "after"), args.entrants, None)
        report(before, after)
    finally:
        pg.stop()
        shutil.rmtree(workdir, ignore_errors=True)
        shutil.rmtree(tree, ignore_errors=True)


if __name__ == "__main__":
    main()
