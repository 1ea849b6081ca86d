"""A 16-player backgammon event (KSI) over real HTTP, single elimination with consolation, to its
final standings: every call starts a backgammon match stream of the round's length, each match
is played by posting backgammon commands (the simulator's legal moves), one is lost by lateness
(KSI 2.2.4) and one by expulsion (KSI 1.7.3); results flow back through the processor; the TD's
correction of the final (KSI 4.6) moves the title."""

from __future__ import annotations

import random
import uuid
from concurrent.futures import ThreadPoolExecutor

import msgspec
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import decide, fold, initial_state
from tableside.disciplines.backgammon.simulate import next_command

from .competition_play import Comp, player, wait_results
from .harness import Api, wait_for

GUIDE = {
    "name": "Reykjavík Open",
    "sport": "backgammon",
    "ruleset": "KSI",
    "discipline": "open_singles",
    "format": "single_elimination",
    "games_per_match": 1,
    "playoff_games": 1,
    "points": {"win": 1, "draw": 0.5, "loss": 0},
    "tie_breaks": ["games_diff"],
    "backgammon": {"lengths": [1], "final_length": 3},
}
TABLES = list(range(1, 9))
LATE, EXPELLED = "W1-2", "W1-3"  # lost away from the board


def _stream(comp: Comp, match_id: str) -> str:
    return str(uuid.uuid5(uuid.UUID(comp.id), match_id))


def _post(api: Api, stream: str, version: int, command: c.Command) -> dict:
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


def _doc(api: Api, stream: str) -> dict | None:
    r = api.get(f"/api/backgammon/matches/{stream}")
    return r.json() if r.status_code == 200 else None


def play(base: str, token: str, stream: str, match_id: str, seed: float) -> dict:
    """Play one called match to its end over HTTP; the state document at the end."""
    api = Api(base, token)
    try:
        doc = wait_for(lambda: _doc(api, stream), timeout=10)
        st = doc["state"]
        local = fold(decide(initial_state(), _local_create(st)))
        version = doc["version"]
        if match_id == LATE:
            version = _post(api, stream, version, c.RecordLateness(side="B", minutes=5))
            return _doc(api, stream)
        if match_id == EXPELLED:
            _post(api, stream, version, c.Expel(side="A", reason="conduct (KSI 1.7.1)"))
            return _doc(api, stream)
        rng = random.Random(seed)
        while not local.over:
            command = next_command(local, rng)
            version = _post(api, stream, version, command)["last_version"]
            local = fold(decide(local, command), local)
        return _doc(api, stream)
    finally:
        api.http.close()


def _local_create(state: dict) -> c.CreateMatch:
    a, b = state["players"]
    return c.CreateMatch(match_id=state["match_id"], player_a=a, player_b=b, length=state["length"])


def _play_calls(comp: Comp, head: Api, rng: random.Random) -> dict[str, dict]:
    calls = comp.settled()["calls"]
    jobs = [(call["match_id"], rng.random()) for call in calls]
    base, token = head.http.base_url, head.token
    with ThreadPoolExecutor(8) as pool:
        ends = pool.map(lambda j: play(str(base), token, _stream(comp, j[0]), *j), jobs)
        return dict(zip((j[0] for j in jobs), ends, strict=True))


def test_guide_refusals_are_problems_with_the_reason(head: Api) -> None:
    for bad, words in (
        ({"games_per_match": 4}, "games_per_match is 1"),
        ({"ruleset": "EKML"}, "KSI"),
    ):
        body = {"command_id": str(uuid.uuid4()), "guide": {**GUIDE, **bad}}
        r = head.http.post("/api/competitions", json=body, headers=head.headers())
        assert r.status_code == 422 and words in r.text, r.text


def test_sixteen_players_single_elimination_with_consolation_to_final_standings(
    server, head: Api
) -> None:
    comp = Comp.create(head, GUIDE)
    comp.enter([(f"p{i:02d}", [player(f"Leikmaður {i}", "MF"[i % 2])]) for i in range(1, 17)])
    comp.do({"type": "MakeDraw", "seed": 12})
    rng, ends, played = random.Random(12), {}, 0
    while not comp.settled()["placings"]:
        comp.do({"type": "CallNextMatches", "free_tables": TABLES})
        ended = _play_calls(comp, head, rng)
        ends |= ended
        played += len(ended)
        doc = wait_results(comp, played)
    assert played == 8 + 4 + 2 + 1 + 1 + 4 + 2 + 1  # main, third place, consolation of 8
    assert_results(doc, ends)
    assert_final_corrected(comp, head, doc, ends)


def assert_results(doc: dict, ends: dict[str, dict]) -> None:
    """Each result is the match's own: winner and score in points, the round's length."""
    results = doc["results"]
    for match_id, end in ends.items():
        st, r = end["state"], results[match_id]
        assert (r["a_games"], r["b_games"]) == ((1, 0) if st["winner"] == "A" else (0, 1))
        length = 3 if match_id == "W4-1" else 1
        assert st["length"] == length
        if match_id in (LATE, EXPELLED):
            assert r["forfeit"] and r["score"] is None
        else:
            assert r["score"] == st["score"] and max(st["score"]) >= length
    assert results[LATE]["a_games"] == 1 and results[EXPELLED]["b_games"] == 1
    assert sum(len(group) for group in doc["placings"]) == 16


def assert_final_corrected(comp: Comp, head: Api, doc: dict, ends: dict[str, dict]) -> None:
    """The TD corrects the final's result in the match (KSI 4.6); the title moves with it."""
    champion, runner_up = doc["placings"][0][0], doc["placings"][1][0]
    final = ends["W4-1"]["state"]
    loser = "B" if final["winner"] == "A" else "A"
    score = [3, 1] if loser == "A" else [1, 3]
    stream = _stream(comp, "W4-1")
    _post(
        head,
        stream,
        ends["W4-1"]["version"],
        c.CorrectResult(winner=loser, score=score, reason="scoresheets compared"),
    )

    def moved():
        now = comp.settled()
        return now if now["placings"][0] == [runner_up] else None

    after = wait_for(moved, timeout=15)
    assert after["placings"][1] == [champion]
    assert after["results"]["W4-1"]["score"] == score
    comp.do({"type": "FinishCompetition"})
