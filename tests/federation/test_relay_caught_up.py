"""A remote spectator's `caught_up` means what the federation held before the socket came, as
the hall's does (`live/live.py`: the head read after the socket came, `ReadAfter`): the node that
serves it is held still (SIGSTOP) while the venue's stroke is pushed through another node and
the spectator resumes on it with `after=` the position before the stroke; let go (SIGCONT),
the node learns of the stroke by NOTIFY while it serves the socket. The stroke must come
before `caught_up`, not after it as if the federation had taken it after the socket came."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal

import msgspec
from support.harness import Api, run_async
from support.play import create, fold_response
from support.relay_setup import held, pushed, venue_and_nodes
from support.remote_crowd import PATH
from tableside.disciplines.korona import simulate
from websockets.asyncio.client import connect

TRIES = 6


def _stroke(head: Api, match_id, view, rng: random.Random):
    """One simulated command at the venue; the new view."""
    cmd = simulate.next_command(view.state, rng)
    r = head.command(match_id, view.version, msgspec.to_builtins(cmd))
    assert r.status_code == 201, r.text
    return fold_response(view, match_id, r.json())


async def _until_caught_up(ws) -> list[dict]:
    got = []
    while not got or got[-1]["kind"] != "caught_up":
        got.append(json.loads(await asyncio.wait_for(ws.recv(), 30)))
    return got


def test_a_remote_resume_is_caught_up_with_what_the_federation_held_before_it_came(
    new_database, federation_database, tmp_path
) -> None:
    url = new_database()
    with venue_and_nodes(url, federation_database, tmp_path, 2) as (venue, nodes, vid):
        head = Api(venue.base).login()
        rng = random.Random(51)
        match_id, view = create(head, 1, rng, games=5, play_all=True)
        pushed(nodes[0].base, vid, url)
        serving = nodes[1]

        async def resumed(after: int) -> list[int]:
            async with connect(f"{serving.ws}{PATH}?venue={vid}&after={after}") as ws:
                return [m.get("position") for m in await _until_caught_up(ws)]

        async def scenario() -> list:
            nonlocal view
            late = []
            # a spectator stays on the serving node: its feed of the venue follows throughout
            async with connect(f"{serving.ws}{PATH}?venue={vid}", open_timeout=30) as staying:
                await _until_caught_up(staying)
                for _ in range(TRIES):
                    before = held(nodes[0].base, vid)
                    os.kill(serving.proc.pid, signal.SIGSTOP)
                    try:
                        view = await asyncio.to_thread(_stroke, head, match_id, view, rng)
                        now = await asyncio.to_thread(pushed, nodes[0].base, vid, url)
                        socket = asyncio.ensure_future(resumed(before))
                        await asyncio.sleep(0.2)  # the handshake waits in the node's backlog
                    finally:
                        os.kill(serving.proc.pid, signal.SIGCONT)
                    if now not in (got := await socket):
                        late.append((before, now, got))
                with contextlib.suppress(Exception):
                    await staying.close()
            return late

        assert run_async(scenario()) == []
