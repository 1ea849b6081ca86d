"""A 16-player backgammon event (KSI) over real HTTP, single elimination with consolation and a
last chance (three flights), to its final standings: every call starts a backgammon match
stream of the round's length, each match is played by posting backgammon commands (the
simulator's legal moves), one is lost by lateness (KSI 2.2.4) and one by expulsion (KSI 1.7.3);
results flow back through the processor; the TD's correction of the final (KSI 4.6) moves the
title; the standings PDF speaks of points; the processor handling everything again stores
nothing twice."""

from __future__ import annotations

import logging
import random
import uuid

import pytest
from support.backgammon_play import play_calls, post, stream_of
from support.competition_play import REGISTRY, Comp, player, wait_results
from support.harness import Api, wait_for
from tableside.competition.processor import ResultsProcessor
from tableside.competition.service import CompetitionService
from tableside.disciplines.backgammon import commands as c
from tableside.eventlog import EventStore
from tableside.match.port_service import PortMatches
from tableside.server.disciplines import competition_flows, house_disciplines

from competition.test_standings_pdf import _text

pytestmark = pytest.mark.long  # started first under `make test` (tests/conftest.py)

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
    "last_chance": True,
}
TABLES = list(range(1, 9))
LATE, EXPELLED = "W1-2", "W1-3"  # lost away from the board
AWAY = {LATE: "late", EXPELLED: "expelled"}


def test_guide_refusals_are_problems_with_the_reason(head: Api) -> None:
    for bad, words in (
        ({"games_per_match": 4}, "games_per_match is 1"),
        ({"ruleset": "EKML"}, "KSI"),
    ):
        body = {"command_id": str(uuid.uuid4()), "guide": {**GUIDE, **bad}}
        r = head.http.post("/api/competitions", json=body, headers=head.headers())
        assert r.status_code == 422 and words in r.text, r.text


def test_sixteen_players_single_elimination_with_consolation_and_last_chance_to_final_standings(
    server, head: Api, tmp_path, module_database_url, caplog
) -> None:
    comp = Comp.create(head, GUIDE)
    comp.enter([(f"p{i:02d}", [player(f"Leikmaður {i}", "MF"[i % 2])]) for i in range(1, 17)])
    comp.do({"type": "MakeDraw", "seed": 12})
    rng, ends, played = random.Random(12), {}, 0
    while not comp.settled()["placings"]:
        comp.do({"type": "CallNextMatches", "free_tables": TABLES})
        ended = play_calls(comp, head, rng, AWAY)
        ends |= ended
        played += len(ended)
        doc = wait_results(comp, played)
    assert played == 8 + 4 + 2 + 1 + 1 + 4 + 2 + 1 + 2 + 1  # main, 3rd, consolation, last chance
    assert {m[:2] for m in ends} >= {"LC"}
    assert_results(doc, ends)
    assert_final_corrected(comp, head, doc, ends)
    assert_standings_pdf(comp, head, tmp_path)
    assert_federation_report(comp, head, ends, tmp_path)
    caplog.clear()  # what the test itself logged so far (e.g. its HTTP requests) is not asked
    with caplog.at_level(logging.WARNING, logger="tableside.competition.processor"):
        assert_replay_stores_nothing(comp, module_database_url)
    refused = [r for r in caplog.records if r.name == "tableside.competition.processor"]
    assert not refused, caplog.text  # a replay is answered, never refused


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
    stream = stream_of(comp, "W4-1")
    post(
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


def assert_standings_pdf(comp: Comp, head: Api, tmp_path) -> None:
    """The published standings PDF speaks of points won and lost, never of pucks."""
    assert comp.settled()["finished"]
    r = head.get(f"/api/competitions/{comp.id}/standings.pdf", lang="en")
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    text = _text(r.content, tmp_path)
    assert "Points won :" in text and "Pucks" not in text  # the heading wraps in its cell
    assert "Published" in text and "Leikmaður" in text


def assert_federation_report(comp: Comp, head: Api, ends: dict[str, dict], tmp_path) -> None:
    """The TD's report to KSI (1.7.5, 5.6): the expulsion with the player and the reasons, in
    Icelandic and English; staff only; no report for a korona competition."""
    expelled = ends[EXPELLED]["state"]["players"][0]  # side A was expelled
    url = f"/api/competitions/{comp.id}/federation-report.pdf"
    for lang, words in (
        ("is", ("Brottvísanir", "vísað úr mótinu", "Kotrusambands Íslands", "Viðureign")),
        ("en", ("Expulsions", "expelled")),
    ):
        r = head.get(url, lang=lang)
        assert r.status_code == 200 and r.headers["content-type"] == "application/pdf", r.text
        text = " ".join(_text(r.content, tmp_path).split())
        assert all(w in text for w in words) and expelled in text, text
        assert "conduct (KSI 1.7.1)" in text and "KSI 1.7.3" in text and "Reykjavík Open" in text
        assert "KSÍ" not in text  # the seed text's words: Kotrusamband Íslands, viðureign
    assert Api(str(head.http.base_url)).get(url).status_code == 401
    korona = Comp.create(head, {"name": "Not KSI", "format": "round_robin"})
    missing = head.get(f"/api/competitions/{korona.id}/federation-report.pdf")
    assert missing.status_code == 404 and "backgammon" in missing.text, missing.text


def assert_replay_stores_nothing(comp: Comp, url: str) -> None:
    """The processor handles every call and every match end again (as after a crash): each
    write's command id is derived from its cause, so no stream grows by a single event."""
    store = EventStore.connect(REGISTRY, url, 2)
    try:
        flows = competition_flows(PortMatches(store, house_disciplines()))
        processor = ResultsProcessor(None, REGISTRY, store, CompetitionService(store), flows)
        comp_id = uuid.UUID(comp.id)
        causes = [(comp_id, s) for s in store.read(comp_id)]
        streams = {uuid.UUID(stream_of(comp, m)) for m in comp.settled()["results"]}
        causes += [(m, s) for m in streams for s in store.read(m)]
        before = {m: len(store.read(m)) for m in (comp_id, *streams)}
        for stream, stored in causes:
            processor.handle(stream, stored.version, stored.event)
        assert {m: len(store.read(m)) for m in before} == before
    finally:
        store.close()
