"""A no-show in a backgammon competition over HTTP (KSI 2.2.4): the absent player has lost once
his lateness points (1 per 5 minutes) would exceed half the match length — 20 minutes for a
7-point match. The server's clock is moved by libfaketime (support/faked_clock.py).
Before then the report is refused citing KSI 2.2.4; after, the head judge confirms the
forfeit, and the match's own record ends the same way: the engine's lateness points and its
MatchEnded citing KSI 2.2.4, while the competition's forfeit stands as decided."""

from __future__ import annotations

from pathlib import Path

from competition.test_competition_backgammon import GUIDE
from support.backgammon_play import document, stream_of
from support.competition_play import Comp, player
from support.faked_clock import clock, server  # noqa: F401 (fixtures: the faked server clock)
from support.harness import Api, wait_for


def test_a_backgammon_no_show_loses_after_twenty_minutes(server, head: Api, clock: Path):  # noqa: F811
    guide = {**GUIDE, "name": "Late open", "format": "round_robin"}
    comp = Comp.create(head, {**guide, "backgammon": {"lengths": [7]}})
    comp.enter([(f"e{i}", [player(f"Player {i}")]) for i in range(1, 5)])
    comp.do({"type": "MakeDraw", "seed": 2})
    comp.do({"type": "CallNextMatches", "free_tables": [1, 2]})
    call = next(c for c in comp.settled()["calls"] if c["table"] == 1)
    stream = stream_of(comp, call["match_id"])
    assert wait_for(lambda: document(head, stream))["state"]["length"] == 7
    report = {"type": "ReportNoShow", "match_id": call["match_id"], "absent": call["b"]}

    early = comp.post(report)
    assert early.status_code == 422, early.text
    assert early.json()["rule"] == "KSI 2.2.4" and "20 minutes" in early.json()["detail"]
    clock.write_text("+1205\n")  # 20 minutes 5 seconds after the call
    assert comp.post(report).status_code == 201
    comp.do({"type": "ConfirmForfeit", "match_id": call["match_id"]})

    ended = wait_for(lambda: _over(head, stream))
    assert ended["state"]["winner"] == "A" and ended["state"]["penalty"] == [0, 4]
    doc = comp.settled()
    result = doc["results"][call["match_id"]]
    assert result["forfeit"] and result["a_games"] == 1 and result["score"] is None
    rows = {r["entrant"]: r for r in comp.doc("/standings")["rows"]}
    assert rows[call["a"]]["plus"] == 1 and rows[call["b"]]["minus"] == 1
    assert rows[call["a"]]["points"] == 1


def _over(api: Api, stream: str) -> dict | None:
    doc = document(api, stream)
    return doc if doc and doc["state"]["over"] else None
