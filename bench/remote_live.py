"""Remote live (issue 51): a venue's strokes relayed by `--nodes` federation nodes to `--n`
remote spectators, measured on one machine in one run.

One embedded PostgreSQL holds the venue's database and the federation's; the venue server
(`tableside.server.asgi`) pushes through a byte-counting loopback proxy to the first node;
`--nodes` federation processes (`tableside.federation.asgi`) share the federation's database
and fan out by LISTEN/NOTIFY (decision 0195). Spectators are spread over `--procs` client
processes (n/2,500; tests/support/remote_crowd.py: each checks every position once, in order)
and over the nodes. The bare app (bench/live_baseline.py, websockets' broadcast) runs first on
as many processes as there are nodes (one port, SO_REUSEPORT) and holds as many sockets from
the same kind of client processes. No process holds more than its share, and each raises its
open-files soft limit to the hard one (`ulimit -Hn`, 20,000 here): one process holding the
bare app's 20,000 sockets died of EMFILE. The client processes start in waves, each once
those before it are connected (decision 0210). Printed:

    remote live: connected N/N lost 0 nodes K strokes S: stroke -> remote spectator
    p50 N ms p99 N ms (the bare app's broadcast to the same clients); memory X.XXx (A KiB/conn
    over the nodes vs B for the bare app, same run); uplink U B/stroke with N watching (U0
    with none); venue -> kept at the federation p50/p99; R reconnects resumed with after=
    projection for 100,000: per node M MiB at rest + A KiB/conn, C ms CPU per stroke + D us
    per stroke and socket, E ms per admission; a node takes P -> Q nodes (+1 for a loss)

`lost` counts spectators that never connected, were sent a gap or a duplicate, or did not
reach the venue's last position. The projection: a node holds its admission bound (20,000)
or fewer when relaying `--rate` strokes/s to them would keep its one core more than half
busy, from this run's CPU and memory of the nodes. Loopback only, every wait bounded and on
state (the delivery waited for while the spectators make progress); it stops by itself.

    .venv/bin/python bench/remote_live.py --nodes 4 --n 20000

Measured (40 strokes at 2/s, one 2-core machine shared with other engineers' suites, load
average 3-10 during the run; decision 0210):

    --nodes 4 --n 20000: connected 20000/20000 lost 0; stroke -> remote p50 24370 ms
    p99 49137 ms (the bare app's broadcast to the same clients p50 23083 ms p99 30621 ms);
    memory 0.57x (9.1 KiB/conn vs 16.0); uplink 2121 B/stroke with 20000 watching (2916 with
    none); venue -> kept p50 2032 ms p99 4341 ms; 15104 reconnects resumed with after=;
    projection for 100,000: 92 MiB at rest + 9.1 KiB/conn, 5.5 ms CPU per stroke + 20.2 us
    per stroke and socket, 0.37 ms per admission; a node takes 12,118 (core 50%, 200 MiB)
    -> 10 nodes (9 + 1 for a node's loss)
    --nodes 4 --n 20000 again (load 4-9): connected 20000/20000 lost 0; p50 22744 ms
    p99 41009 ms (bare: 8835 / 14788 ms); memory 0.57x (9.1 KiB/conn vs 15.9); uplink 2135
    B/stroke with 20000 watching (2916 with none); 3360 reconnects resumed; 12.7 us per
    stroke and socket -> a node takes 19,321 -> 7 nodes
    --nodes 4 --n 4000 (load ≈10): connected 4000/4000 lost 0; p50 5269 ms p99 14118 ms
    (bare: 515 / 3285 ms); memory 0.42x (6.6 KiB/conn vs 15.6); uplink 2385 B/stroke with
    4000 watching (2916 with none); 0 reconnects; 14.5 us per stroke and socket -> 7 nodes
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path

import httpx
import msgspec
import psutil
import psycopg

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))
from live_audience import (  # noqa: E402
    cpu_seconds,
    free_port,
    quantiles,
    raise_nofile,
    rss_kib,
    tree,
)

WAIT = 300.0  # the longest any phase waits (20,000 on a shared 2-core machine: minutes)
LONGEST = 1800.0  # the spectators' delivery, while they make progress
# `tableside federation serve`'s uvicorn (cli/serve.UVICORN): no per-message deflate (the
# fan-out writes one frame for every socket), httptools let go of on the upgrade
PRODUCTION = (
    "--ws-per-message-deflate",
    "false",
    "--http",
    "tableside.server.upgrades:LetGoOnUpgrade",
)


# -- client processes ---------------------------------------------------------------------


def _crowd_child(nodes: list[str], venue: str, n: int, pipe) -> None:
    from support.remote_crowd import Crowd

    raise_nofile()
    crowd = Crowd(nodes, venue, n, timed=True).start()
    while True:
        if pipe.poll(0.2):
            final = pipe.recv()
            break
        pipe.send(("connected", sum(1 for s in crowd.spectators if s.caught_up)))
    _until_delivered(crowd, final)
    pipe.send(("delivered",))  # the nodes' CPU is read before the sockets close
    pipe.poll(WAIT)
    crowd.stop()
    ok = [
        s.caught_up and not (s.gaps or s.duplicates or s.resets) and s.last == final
        for s in crowd.spectators
    ]
    delays = [d for s in crowd.spectators for d in s.delays]
    sample = random.sample(delays, min(len(delays), 20000))
    caught = sum(1 for s in crowd.spectators if s.caught_up)
    resumed = sum(s.reconnects for s in crowd.spectators)  # each with after=: none lost
    pipe.send(("done", caught, ok.count(False), sample, resumed))


def _until_delivered(crowd, final: int) -> None:
    """Until every spectator of `crowd` has `final`, for as long as they make progress (a
    client process starved by the machine's other work takes minutes at 20,000): given up
    after STILL seconds with no spectator further on, or LONGEST in all."""
    start = moved = time.monotonic()
    seen = -1
    while time.monotonic() - start < LONGEST and time.monotonic() - moved < Clients.STILL:
        if crowd.all(lambda s: s.last >= final):
            return
        now = sum(s.last for s in crowd.spectators)
        if now != seen:
            seen, moved = now, time.monotonic()
        time.sleep(0.5)


def _bare_child(url: str, n: int, pipe) -> None:
    """Sockets on the bare app, each reading and timing what it is sent as a spectator does;
    told the last position, until every socket held has it (while they make progress)."""
    from websockets.asyncio.client import connect

    raise_nofile()
    delays: list[float] = []
    lasts: list[int] = []  # of each socket held, the last position it was sent

    async def one() -> None:
        k = -1
        while k < 0:  # a handshake that failed is tried again (jittered), as ours are
            with contextlib.suppress(Exception):  # a socket that did not hold is not counted
                async with connect(url, open_timeout=60, ping_interval=None) as ws:
                    await ws.recv()
                    k = len(lasts)
                    lasts.append(0)
                    async for text in ws:
                        message = json.loads(text)
                        if message.get("kind") == "event":
                            at = datetime.fromisoformat(message["recorded_at"]).timestamp()
                            delays.append(time.time() - at)
                            lasts[k] = message["position"]
            await asyncio.sleep(random.uniform(0.2, 1.5))

    async def run() -> None:
        tasks = [asyncio.create_task(one()) for _ in range(n)]
        loop = asyncio.get_running_loop()
        while not await loop.run_in_executor(None, pipe.poll, 0.2):
            pipe.send(("connected", len(lasts)))
        final = pipe.recv()
        start = moved = time.monotonic()
        seen = -1
        while time.monotonic() - start < LONGEST and time.monotonic() - moved < Clients.STILL:
            if all(last >= final for last in lasts):
                break
            if sum(lasts) != seen:
                seen, moved = sum(lasts), time.monotonic()
            await asyncio.sleep(0.5)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        pipe.send(("done", len(lasts), random.sample(delays, min(len(delays), 20000))))

    asyncio.run(run())


async def _publish_bare(ports: list[int], strokes: int, rate: float) -> None:
    """`strokes` event-sized messages at `rate` per second into the broadcast of each of the
    bare app's processes."""
    from websockets.asyncio.client import connect

    filler = "x" * 400
    async with contextlib.AsyncExitStack() as stack:
        sockets = [await stack.enter_async_context(connect(f"ws://127.0.0.1:{p}/")) for p in ports]
        start = time.monotonic()
        for k in range(1, strokes + 1):
            await asyncio.sleep(max(0.0, start + k / rate - time.monotonic()))
            at = datetime.now(UTC).isoformat()
            body = {"kind": "event", "position": k, "recorded_at": at, "payload": filler}
            text = json.dumps(body)
            await asyncio.gather(*(ws.send(text) for ws in sockets))


class Clients:
    """Client processes, each with a pipe: how many are connected, then their report. Each
    part's arguments end with its number of sockets."""

    STILL = 120.0  # seconds without one more socket connected: a wave is given up

    def __init__(self, target, parts: list[tuple]) -> None:
        self.target, self.parts = target, parts
        self.pipes, self.procs, self.connected = [], [], []

    def connect(self) -> int:
        """Start the processes in waves, each once those before it have all their sockets
        connected (or gave up: WAIT, or STILL without progress); the sockets connected. At
        once, 20,000 handshakes on a shared 2-core machine queue past the clients' 30 s open
        timeout and churn (measured: 1,413 connected after a minute, the nodes' accept queues
        full); a wave of one process's share (2,500) is admitted whole."""
        ctx = multiprocessing.get_context("spawn")
        wanted = got = 0
        for args in self.parts:
            mine, theirs = ctx.Pipe()
            proc = ctx.Process(target=self.target, args=(*args, theirs), daemon=True)
            proc.start()
            self.pipes.append(mine)
            self.procs.append(proc)
            self.connected.append(0)
            wanted += args[-1]
            got = self._until(wanted)
        return got

    def poll(self) -> int:
        for k, pipe in enumerate(self.pipes):
            while pipe.poll():
                kind, *rest = pipe.recv()
                if kind == "connected":
                    self.connected[k] = rest[0]
        return sum(self.connected)

    def _until(self, n: int) -> int:
        deadline, last, still = time.monotonic() + WAIT, -1, time.monotonic()
        while time.monotonic() < deadline:
            now = self.poll()
            if now >= n:
                return now
            if now != last:
                last, still = now, time.monotonic()
            elif time.monotonic() - still > self.STILL:
                return now  # no progress: report what is there
            time.sleep(0.2)
        return self.poll()

    def deliver(self, final: int) -> None:
        """Until every process saw `final` on all its sockets, or gave up (bounded)."""
        for pipe in self.pipes:
            pipe.send(final)
        for pipe in self.pipes:
            while pipe.poll(LONGEST) and pipe.recv()[0] != "delivered":
                pass

    def finish(self, message: object) -> list[tuple]:
        for pipe in self.pipes:
            pipe.send(message)
        reports = []
        for pipe, proc in zip(self.pipes, self.procs, strict=True):
            while pipe.poll(LONGEST):
                kind, *rest = pipe.recv()
                if kind == "done":
                    reports.append(tuple(rest))
                    break
            proc.join(30)
        return reports


def _split(n: int, procs: int) -> list[int]:
    return [n // procs + (1 if k < n % procs else 0) for k in range(procs)]


# -- the uplink's bytes -------------------------------------------------------------------


class CountingProxy:
    """A loopback TCP proxy to the first node counting the venue's bytes both ways."""

    def __init__(self, target: int) -> None:
        self.target, self.port = target, free_port()
        self.up = self.down = 0
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        asyncio.run_coroutine_threadsafe(self._serve(), self.loop).result(10)

    async def _serve(self) -> None:
        self.server = await asyncio.start_server(self._pair, "127.0.0.1", self.port)

    async def _pair(self, reader, writer) -> None:
        try:
            up_r, up_w = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.close()
            return

        async def pipe(r, w, up: bool) -> None:
            try:
                while data := await r.read(65536):
                    if up:
                        self.up += len(data)
                    else:
                        self.down += len(data)
                    w.write(data)
                    await w.drain()
            except OSError:
                pass
            finally:
                w.close()

        await asyncio.gather(pipe(reader, up_w, True), pipe(up_r, writer, False))


# -- the venue's strokes ------------------------------------------------------------------


def play(base: str, strokes: int, rate: float, table: int) -> int:
    """`strokes` commands at `rate` per second on a simulated match (new ones as they end),
    by a head judge signed in now and the table's judge."""
    from support.harness import Api
    from support.play import fold_response
    from tableside.disciplines.korona import commands as rc
    from tableside.disciplines.korona import simulate

    head = Api(base).login()
    rng = random.Random(table)
    done, view, match_id, judge = 0, None, None, None
    start = time.monotonic()
    while done < strokes:
        if view is None or simulate.next_command(view.state, random.Random(0)) is None:
            r = head.create(table, ("Mari Tõnisson",), ("Jānis Bērziņš",), games=5)
            assert r.status_code == 201, r.text
            match_id = r.json()["match_id"]
            view = fold_response(None, match_id, r.json())
            judge = Api(str(head.http.base_url), head.judge_token(table)["token"])
            table += 1
        cmd = simulate.next_command(view.state, rng)
        if cmd is None:
            view = None
            continue
        time.sleep(max(0.0, start + done / rate - time.monotonic()))
        sender = head if isinstance(cmd, rc.CorrectDecision) else judge  # as record_match
        r = sender.command(match_id, view.version, msgspec.to_builtins(cmd))
        assert r.status_code == 201, r.text
        view = fold_response(view, match_id, r.json())
        done += 1
    return table


# -- the run --------------------------------------------------------------------------------


def _databases(server_url: str, key: Path) -> tuple[str, str]:
    from tableside.db import migrations, roles
    from tableside.db.url import with_dbname
    from tableside.eventlog.checkpoints import load_or_create_key, public_hex
    from tableside.federation.database import migrate

    urls = []
    for name in ("bench_venue", "bench_federation"):
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"'.encode())
        urls.append(with_dbname(server_url, name))
    owner, _ = roles.setup(urls[0])
    migrations.apply(owner, app_role=roles.APP_ROLE)
    roles.register_key(owner, bytes.fromhex(public_hex(load_or_create_key(key))))
    fed_owner, _ = roles.setup(urls[1])
    migrate(fed_owner, roles.APP_ROLE)
    return urls[0], urls[1]


def _venue_head(url: str) -> int:
    with psycopg.connect(url) as conn:
        return conn.execute(
            "SELECT coalesce(max(notification_id), 0) FROM stored_events"
        ).fetchone()[0]


def _held(base: str, venue: str) -> int:
    found = httpx.get(f"{base}/api/federation/venues", timeout=30).json()
    return next((v["position"] for v in found if v["venue_id"] == venue), 0)


def _pushed(base: str, venue: str, venue_url: str) -> int:
    """The venue's head once the federation holds it (a node busy fanning out to thousands
    may answer slowly: asked again until WAIT)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        head = _venue_head(venue_url)
        with contextlib.suppress(httpx.HTTPError):
            if _held(base, venue) == head:
                return head
        time.sleep(0.1)
    raise TimeoutError("the federation did not catch up with the venue")


class HeldWatch:
    """When the federation first held each of the venue's positions (polled every 20 ms):
    the uplink's share of a stroke's way (venue commit → kept), the rest being the relay's."""

    def __init__(self, base: str, venue: str) -> None:
        self.base, self.venue, self.held_at = base, venue, {}
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        last = None
        while not self.stopping.wait(0.02):
            with contextlib.suppress(httpx.HTTPError):
                now = _held(self.base, self.venue)
                if last is not None:
                    for position in range(last + 1, now + 1):
                        self.held_at[position] = time.time()
                last = now if last is None else max(last, now)

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(5)

    def legs(self, venue_url: str) -> list[float]:
        self.stop()
        with psycopg.connect(venue_url) as conn:
            rows = conn.execute(
                "SELECT notification_id, recorded_at FROM stored_events"
                " WHERE notification_id = ANY(%s)",
                (list(self.held_at),),
            ).fetchall()
        return [self.held_at[p] - at.timestamp() for p, at in rows]


def _listening(ports: list[int]) -> None:
    """Until every one of `ports` accepts a connection (bounded: WAIT)."""
    deadline = time.monotonic() + WAIT
    for port in ports:
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"nothing listens on {port}") from None
                time.sleep(0.1)


def bare(
    n: int, procs: int, servers: int, strokes: int, rate: float, log: Path
) -> tuple[float, int, list[float]]:
    """The bare websocket app on `servers` processes (as many as the nodes: one port shared
    by SO_REUSEPORT) holding `n` sockets: KiB per socket, sockets held, and the delays of
    `strokes` broadcasts at `rate` (the same client processes' cost as ours)."""
    port, pubs = free_port(), [free_port() for _ in range(servers)]
    publish = ",".join(map(str, pubs))
    with open(log, "ab") as out:  # its complaints about sockets gone, out of the report
        proc = subprocess.Popen(
            [sys.executable, str(HERE / "live_baseline.py"), str(port), publish, "off"],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        _listening(pubs)  # each process listens on the shared port before its own
        before = rss_kib(proc.pid)
        clients = Clients(_bare_child, [(f"ws://127.0.0.1:{port}/", k) for k in _split(n, procs)])
        held = clients.connect()
        time.sleep(1)
        after = rss_kib(proc.pid)
        asyncio.run(_publish_bare(pubs, strokes, rate))
        reports = clients.finish(strokes)
        return (after - before) / max(held, 1), held, [d for r in reports for d in r[1]]
    finally:
        _stop(proc)


def _stop(proc: subprocess.Popen) -> None:
    """The bare app and its processes stopped: asked, then (60 s on) killed, by their ids."""
    family = tree(proc.pid)
    proc.terminate()
    try:
        proc.wait(60)
    except subprocess.TimeoutExpired:
        for child in family:
            with contextlib.suppress(psutil.Error):
                child.kill()
        proc.wait(10)


class Meter:
    """The nodes' memory (KiB) and CPU (s), summed and per node, read at marks."""

    def __init__(self, nodes: list) -> None:
        self.pids = [n.proc.pid for n in nodes]
        self.marks: dict[str, tuple[list[float], float]] = {}

    def mark(self, name: str) -> None:
        rss = [rss_kib(pid) for pid in self.pids]
        self.marks[name] = (rss, sum(cpu_seconds(pid) for pid in self.pids))

    def rss(self, name: str) -> float:
        return sum(self.marks[name][0])

    def cpu(self, start: str, end: str) -> float:
        return self.marks[end][1] - self.marks[start][1]


BOUND = 20000  # a node's admission (TABLESIDE_FEDERATION_RELAY_SOCKETS' default)
CORE = 0.5  # of a node's one core (one asyncio process) for the fan-out: room for a crowd


def projection(meter: Meter, held: int, strokes: tuple[int, int], rate: float, target: int) -> str:
    """The nodes `target` spectators need, from this run's per-node memory and CPU: a node
    holds its admission bound, or fewer when relaying `rate` strokes/s to them (a stroke's
    own cost, the same with none watching, plus one delivery per socket) would keep its core
    more than CORE busy; one node more for a node's loss. `strokes`: with none watching, and
    with `held` watching."""
    nodes, (alone, watched) = len(meter.pids), strokes
    kib = (meter.rss("connected") - meter.rss("idle")) / max(held, 1)
    base = meter.rss("idle") / nodes
    stroke = meter.cpu("start", "idle") / nodes / max(alone, 1)
    fan_out = meter.cpu("connected", "played") - stroke * nodes * watched
    delivery = max(fan_out, 0.0) / max(watched * held, 1)
    admit = meter.cpu("idle", "connected") / max(held, 1)
    room = (CORE / rate - stroke) / delivery if delivery else BOUND
    per_node = max(1, min(BOUND, int(room)))
    needed = -(-target // per_node) + 1
    mib = (base + per_node * kib) / 1024
    busy = rate * (stroke + per_node * delivery)
    return (
        f"projection for {target:,}: measured per node {base / 1024:.0f} MiB at rest +"
        f" {kib:.1f} KiB/conn, {stroke * 1e3:.1f} ms CPU per stroke + {delivery * 1e6:.1f} us"
        f" per stroke and socket, {admit * 1e3:.2f} ms CPU per admission; a node takes {per_node:,}"
        f" (bound {BOUND:,}; at {rate:g} strokes/s its core {busy:.0%} busy, {mib:.0f} MiB)"
        f" -> {needed} nodes ({needed - 1} + 1 for a node's loss, whose spectators the others"
        f" admit in ~{per_node * admit / (needed - 1):.1f} s of CPU each)"
    )


def say(what: str) -> None:
    """A phase's start, on stderr (a run at 20,000 takes minutes)."""
    print(f"{datetime.now(UTC):%H:%M:%S} {what}", file=sys.stderr, flush=True)


def _dead(nodes: list, work: Path) -> None:
    """On the way out: every node that exited during the run, its code and its log's end."""
    for k, node in enumerate(nodes):
        if node.proc.poll() is not None:
            tail = (work / f"node-{k}.log").read_text(errors="replace")[-2000:]
            say(f"node {k} exited with {node.proc.returncode}:\n{tail}")


def _nodes(stack: ExitStack, fed_url: str, work: Path, count: int, n: int) -> list:
    from support.federation import federation_server

    nodes = []
    for k in range(count):
        node = federation_server(fed_url, work)
        node.env.update(
            {
                "TABLESIDE_FEDERATION_RELAY_SOCKETS": str(n),
                "TABLESIDE_FEDERATION_RELAY_PER_ADDRESS": str(n),
                "PYTHONFAULTHANDLER": "1",  # a node that dies says where, in its log
            }
        )
        node.args = PRODUCTION  # as `tableside federation serve` runs uvicorn
        node.output = str(work / f"node-{k}.log")
        nodes.append(node.start())
        stack.callback(node.stop)
    stack.callback(_dead, nodes, work)
    return nodes


def _venue(stack: ExitStack, venue_url: str, work: Path, key: Path, node, proxy):
    """The venue server pushing through `proxy`, and its venue id once enrolled."""
    from support.federation import enrolment_code, venue_env
    from support.harness import Server

    uplink = work / "uplink"
    env = {
        **venue_env(f"http://127.0.0.1:{proxy.port}", enrolment_code(node.base), uplink),
        "TABLESIDE_KEY_FILE": str(key),
        "TABLESIDE_CHECKPOINT_LOG": "off",
        "TABLESIDE_UPLINK_SECONDS": "0.05",
    }
    venue = Server(venue_url, env=env, output=str(work / "venue.log")).start()
    stack.callback(venue.stop)
    deadline = time.monotonic() + WAIT
    while not (uplink / "credential.json").is_file() and time.monotonic() < deadline:
        time.sleep(0.1)
    return venue, json.loads((uplink / "credential.json").read_bytes())["venue_id"]


def main(args: argparse.Namespace) -> None:
    from tableside.db.embedded import EmbeddedPostgres

    work = Path(tempfile.mkdtemp(prefix="tableside-remote-live-"))
    pg = EmbeddedPostgres(work / "pgdata")
    with ExitStack() as stack:
        stack.callback(shutil.rmtree, work, True)
        stack.callback(pg.stop)
        key = work / "keys" / "checkpoint-ed25519.pem"
        key.parent.mkdir()
        venue_url, fed_url = _databases(pg.start(), key)
        say(f"the bare app on {args.nodes} processes, {args.n} sockets")
        bare_kib, bare_held, bare_delays = bare(
            args.n, args.procs, args.nodes, args.strokes, args.rate, work / "bare.log"
        )
        say(f"{args.nodes} federation nodes, the venue")
        nodes = _nodes(stack, fed_url, work, args.nodes, args.n)
        proxy = CountingProxy(nodes[0].port)
        venue, vid = _venue(stack, venue_url, work, key, nodes[0], proxy)
        # the uplink's bytes and the nodes' CPU per stroke with nobody watching
        meter = Meter(nodes)
        meter.mark("start")
        watch = HeldWatch(nodes[0].base, vid)
        table = play(venue.base, args.strokes // 2, args.rate, 1)
        _pushed(nodes[0].base, vid, venue_url)
        watch.stop()
        up0, strokes0 = proxy.up, args.strokes // 2
        time.sleep(1)  # the memory the pushes took settles
        meter.mark("idle")
        say(f"{args.n} remote spectators")
        ws = [n.ws for n in nodes]
        clients = Clients(_crowd_child, [(ws, vid, k) for k in _split(args.n, args.procs)])
        held = clients.connect()
        time.sleep(1)
        meter.mark("connected")
        ours = (meter.rss("connected") - meter.rss("idle")) / max(held, 1)
        say(f"{held} connected; {args.strokes} strokes")
        up_start = proxy.up
        watch = HeldWatch(nodes[0].base, vid)
        play(venue.base, args.strokes, args.rate, table)
        final = _pushed(nodes[0].base, vid, venue_url)
        up = (proxy.up - up_start) / args.strokes
        kept50, kept99 = quantiles(watch.legs(venue_url))
        say(f"pushed up to {final}; until every spectator has it")
        clients.deliver(final)
        meter.mark("played")
        reports = clients.finish("stop")
    connected = sum(r[0] for r in reports)
    lost = sum(r[1] for r in reports) + (args.n - len(reports) and args.n - connected)
    p50, p99 = quantiles([d for r in reports for d in r[2]])
    b50, b99 = quantiles(bare_delays)
    print(
        f"remote live: connected {connected}/{args.n} lost {lost} nodes {args.nodes}"
        f" strokes {args.strokes}: stroke -> remote spectator p50 {p50:.0f} ms p99 {p99:.0f} ms"
        f" (a bare app's broadcast to the same clients: p50 {b50:.0f} ms p99 {b99:.0f} ms);"
        f" memory {ours / bare_kib:.2f}x ({ours:.1f} KiB/conn over the nodes vs"
        f" {bare_kib:.1f} for a bare websocket app on {args.nodes} processes holding"
        f" {bare_held}, same run); uplink {up:.0f} B/stroke with {connected} watching"
        f" ({up0 / max(strokes0, 1):.0f} with none); of the way, venue ->"
        f" kept at the federation p50 {kept50:.0f} ms p99 {kept99:.0f} ms (polled every 20 ms);"
        f" {sum(r[3] for r in reports)} reconnects resumed with after="
    )
    print(projection(meter, held, (strokes0, args.strokes), args.rate, args.project))


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=4)
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument(
        "--procs", type=int, default=0, help="client processes (n/2500, at least 2)"
    )
    parser.add_argument("--strokes", type=int, default=40)
    parser.add_argument("--rate", type=float, default=2.0, help="strokes per second")
    parser.add_argument("--project", type=int, default=100000, help="spectators to project")
    parsed = parser.parse_args()
    parsed.procs = parsed.procs or max(2, -(-parsed.n // 2500))
    # every process's soft limit on open files at its hard one (the children inherit it);
    # no process may need more sockets than that
    limit = raise_nofile()
    for what, count in (("--procs", parsed.procs), ("--nodes", parsed.nodes)):
        if -(-parsed.n // count) + 1000 > limit:
            parser.error(f"{parsed.n} sockets over {what} {count}: past {limit} files a process")
    return parsed


if __name__ == "__main__":
    main(_arguments())
