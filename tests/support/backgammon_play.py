"""Play a backgammon competition's called matches over HTTP: each match stream the processor
started is played by posting the simulator's legal commands (`simulate.next_command`), or ended
away from the board by lateness (KSI 2.2.4) or expulsion (KSI 1.7.3) where a test asks."""

from __future__ import annotations

import random
import uuid
from concurrent.futures import ThreadPoolExecutor

import msgspec
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import decide, fold, initial_state
from tableside.disciplines.backgammon.simulate import next_command

from support.competition_play import Comp
from support.harness import Api, wait_for


def away_command(how: str, length: int) -> c.Command:
    """How a match ends when it is not played out: B late until his penalty points exceed half
    the length (KSI 2.2.4: 1 per 5 minutes), or A expelled (KSI 1.7.3)."""
    if how == "late":
        return c.RecordLateness(side="B", minutes=5 * (length // 2 + 1))
    return c.Expel(side="A", reason="conduct (KSI 1.7.1)")


def stream_of(comp: Comp, match_id: str) -> str:
    return str(uuid.uuid5(uuid.UUID(comp.id), match_id))


def post(api: Api, stream: str, version: int, command: c.Command) -> dict:
    """One backgammon command at the version last seen; it must be stored."""
    body = {
        "command_id": str(uuid.uuid4()),
        "expected_version": version,
        "command": msgspec.to_builtins(command),
    }
    r = api.http.post(
        f"/api/backgammon/matches/{stream}/commands", json=body, headers=api.headers()
    )
    assert r.status_code == 201, (command, r.text)
    return r.json()


def document(api: Api, stream: str) -> dict | None:
    r = api.get(f"/api/backgammon/matches/{stream}")
    return r.json() if r.status_code == 200 else None


def play(base: str, token: str, stream: str, seed: float, away: str = "") -> dict:
    """Play one called match to its end over HTTP; its state document at the end."""
    api = Api(base, token)
    try:
        doc = wait_for(lambda: document(api, stream), timeout=10)
        version = doc["version"]
        if away:
            post(api, stream, version, away_command(away, doc["state"]["length"]))
            return document(api, stream)
        local, rng = fold(decide(initial_state(), _create(doc["state"]))), random.Random(seed)
        while not local.over:
            command = next_command(local, rng)
            version = post(api, stream, version, command)["last_version"]
            local = fold(decide(local, command), local)
        return document(api, stream)
    finally:
        api.http.close()


def _create(state: dict) -> c.CreateMatch:
    a, b = state["players"]
    return c.CreateMatch(match_id=state["match_id"], player_a=a, player_b=b, length=state["length"])


def play_calls(comp: Comp, head: Api, rng: random.Random, away=None) -> dict[str, dict]:
    """Play every match the competition has on a table now, in parallel: match id → the end."""
    away = away or {}
    jobs = [(call["match_id"], rng.random()) for call in comp.settled()["calls"]]
    base, token = str(head.http.base_url), head.token

    def one(job):
        match_id, seed = job
        return play(base, token, stream_of(comp, match_id), seed, away.get(match_id, ""))

    with ThreadPoolExecutor(8) as pool:
        return dict(zip((j[0] for j in jobs), pool.map(one, jobs), strict=True))
