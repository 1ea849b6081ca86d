"""A no-show over HTTP (issue 13, point 6; EKML §9(3)): an entrant called to a table and not
there 2 minutes later loses the match by forfeit. The server runs on its own wall clock,
moved on by libfaketime (only that process: PostgreSQL and this test keep the real time), so
the 2 minutes pass in a moment. Before they are up the report is refused citing the rule;
after, the head judge confirms the forfeit, the standings show the plus and the minus
(EKML §32(3)1), and the match's stream is closed so its table is free in the hall again."""

from __future__ import annotations

from pathlib import Path

from support.competition_play import Comp, player
from support.faked_clock import clock, server  # noqa: F401 (fixtures: the server's moved clock)
from support.harness import Api, wait_for


def test_a_no_show_loses_by_forfeit_after_two_minutes(server, head: Api, clock: Path):  # noqa: F811
    comp = Comp.create(head, {"name": "Late cup", "format": "round_robin", "games_per_match": 1})
    comp.enter([(f"e{i}", [player(f"Player {i}")]) for i in range(1, 5)])
    comp.do({"type": "MakeDraw", "seed": 2})
    comp.do({"type": "CallNextMatches", "free_tables": [1, 2]})
    call = next(c for c in comp.settled()["calls"] if c["table"] == 1)
    wait_for(lambda: 1 in {h["table"] for h in head.get("/api/hall").json()})
    report = {"type": "ReportNoShow", "match_id": call["match_id"], "absent": call["b"]}

    early = comp.post(report)
    assert early.status_code == 422, early.text
    assert early.json()["rule"] == "EKML §9(3)" and "2 minutes" in early.json()["detail"]

    clock.write_text("+125\n")  # the server's clock: 2 minutes 5 seconds after the call
    assert comp.post(report).status_code == 201
    comp.do({"type": "ConfirmForfeit", "match_id": call["match_id"]})

    doc = comp.settled()
    result = doc["results"][call["match_id"]]
    assert result["forfeit"] and result["a_games"] > result["b_games"]
    rows = {r["entrant"]: r for r in comp.doc("/standings")["rows"]}
    assert rows[call["a"]]["plus"] == 1 and rows[call["b"]]["minus"] == 1
    # The match on table 1 was never played: its stream is closed and the table is free.
    wait_for(lambda: 1 not in {h["table"] for h in head.get("/api/hall").json()})
    table = head.get("/api/tables/1").json()
    assert table["status"] == "abandoned" and table["abandoned"] == "forfeit_recorded"
