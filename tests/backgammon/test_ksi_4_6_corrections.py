"""KSI 4.6 over a real server (issue 53): "a wrong recorded result is corrected before the next
round starts, provided the error was reported within that time". An 8-player single
elimination of 1-point matches, each played by posting the simulator's legal commands: a
first-round result corrected before the second round is called moves its winner on in the
bracket; once the second round is called a correction is refused citing KSI 4.6 in the reader's
language and nothing is stored (the match, the bracket and the standings keep one result); once
the results are published a correction of the final is refused the same way."""

from __future__ import annotations

import json
import random
import uuid
from pathlib import Path

import pytest
from support.backgammon_play import play_calls, stream_of
from support.competition_play import EVENT_GUIDE, Comp, player, wait_results
from support.harness import Api, wait_for
from tableside.disciplines.backgammon import commands as c

from backgammon.test_bg_table_device import _record

GUIDE = {**EVENT_GUIDE, "name": "Haustmót KSI", "backgammon": {"lengths": [1]}}
TABLES = list(range(41, 45))
CODES = Path(__file__).resolve().parents[2] / "pwa" / "i18n" / "codes.is.json"


def _correct(head: Api, stream: str, version: int, winner: str) -> dict:
    score = [1, 0] if winner == "A" else [0, 1]
    command = c.CorrectResult(winner=winner, score=score, reason="skorblöðin borin saman")
    body = {"command_id": str(uuid.uuid4()), "expected_version": version,
            "command": {"type": "CorrectResult", "winner": command.winner,
                        "score": list(command.score), "reason": command.reason}}  # fmt: skip
    path = f"/api/backgammon/matches/{stream}/commands?lang=is"
    r = head.http.post(path, json=body, headers=head.headers())
    return {"status": r.status_code, **r.json()}


def _loser(end: dict) -> str:
    return "B" if end["state"]["winner"] == "A" else "A"


def _winner_id(doc: dict, match_id: str) -> str:
    r = doc["results"][match_id]
    return r["a"] if r["a_games"] > r["b_games"] else r["b"]


def _refused(said: dict, code: str) -> None:
    words = json.loads(CODES.read_text())
    assert said["status"] == 422, said
    assert said["rule"] == "KSI 4.6" and said["code"] == code, said
    assert said["detail"] == words[f"code.{code}"], said  # in Icelandic, citing KSI


@pytest.fixture(scope="module")
def first_round(head: Api) -> tuple[Comp, dict]:
    comp = Comp.create(head, GUIDE)
    comp.enter([(f"k{i}", [player(f"Keppandi {i}")]) for i in range(1, 9)])
    comp.do({"type": "MakeDraw", "seed": 5})
    comp.do({"type": "CallNextMatches", "free_tables": TABLES})
    ends = play_calls(comp, head, random.Random(5))
    wait_results(comp, 4)
    return comp, ends


def test_ksi_4_6_before_the_next_round_a_correction_moves_the_winner_on(first_round, head):
    comp, ends = first_round
    end = ends["W1-1"]
    before = comp.settled()
    corrected = _correct(head, stream_of(comp, "W1-1"), end["version"], _loser(end))
    assert corrected["status"] == 201, corrected
    assert corrected["events"][0]["event"]["rule"] == "KSI 4.6"
    was = _winner_id(before, "W1-1")
    moved = wait_for(lambda: (d := comp.settled()) and _winner_id(d, "W1-1") != was and d, 15)
    new_winner = _winner_id(moved, "W1-1")
    comp.do({"type": "CallNextMatches", "free_tables": TABLES})
    called = [(x["a"], x["b"]) for x in comp.settled()["calls"] if x["match_id"][:2] == "W2"]
    assert any(new_winner in sides for sides in called), called  # he plays on, not the other
    assert not any(was in sides for sides in called), called


def test_ksi_4_6_after_the_next_round_is_called_a_correction_is_refused(first_round, head):
    comp, ends = first_round
    wait_for(lambda: any(x["match_id"].startswith("W2") for x in comp.settled()["calls"]), 15)
    end, stream = ends["W1-2"], stream_of(comp, "W1-2")
    before = comp.settled()
    _refused(_correct(head, stream, end["version"], _loser(end)), "bg_next_round_started")
    assert _record(head, stream)[-1]["version"] == end["version"]  # nothing stored
    assert comp.settled()["results"]["W1-2"] == before["results"]["W1-2"]


def test_ksi_4_6_after_publication_a_correction_is_refused(first_round, head):
    comp, _ = first_round
    rng, played = random.Random(6), len(comp.settled()["results"])
    ends = play_calls(comp, head, rng)  # the second round, called before
    played = len(wait_results(comp, played + len(ends))["results"])
    while not comp.settled()["placings"]:
        comp.do({"type": "CallNextMatches", "free_tables": TABLES})
        ended = play_calls(comp, head, rng)
        ends |= ended
        played = len(wait_results(comp, played + len(ended))["results"])
    comp.do({"type": "FinishCompetition"})
    published = comp.settled()
    final = max((m for m in published["results"] if m.startswith("W")), key=lambda m: m[1])
    end, stream = ends[final], stream_of(comp, final)
    _refused(_correct(head, stream, end["version"], _loser(end)), "bg_results_published")
    assert _record(head, stream)[-1]["version"] == end["version"]  # nothing stored
    after = comp.settled()
    assert after["results"] == published["results"] and after["placings"] == published["placings"]


def test_the_results_and_standings_carry_no_korona_field(first_round, head):
    """Issue 53: a backgammon result has no pucks and no drawn games (KSI 4.5: played to its
    points), so its results API and standings carry none — no a_pucks_diff, drawn_games,
    pucks_diff or drawn — and the standings' columns are backgammon's (won-lost)."""
    comp, _ = first_round
    doc = comp.settled()
    korona = {"a_pucks_diff", "drawn_games", "pucks_diff", "drawn"}
    assert all(korona.isdisjoint(r) for r in doc["results"].values()), doc["results"]
    rows = head.get(f"/api/competitions/{comp.id}/standings").json()
    rows = rows["rows"] if isinstance(rows, dict) else rows
    assert rows and all(korona.isdisjoint(r) for r in rows), rows
    assert all({"won", "lost", "points"} <= set(r) for r in rows), rows
