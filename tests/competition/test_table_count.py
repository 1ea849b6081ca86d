"""The hall's number of tables is the competition's, on the server (issue 54, point 9): a
second TD laptop reads what the first set (the console kept it per browser)."""

from __future__ import annotations

from support.competition_play import Comp, player
from support.harness import Api


def test_the_table_count_is_kept_on_the_server_and_bounded(head: Api, server) -> None:
    comp = Comp.create(head, {"name": "Lauad", "format": "round_robin"})
    comp.enter([("e1", [player("Mari Tamm")]), ("e2", [player("Liis Mets")])])
    assert comp.settled()["tables"] is None  # never set: the console shows its 8
    comp.do({"type": "SetTableCount", "count": 12})
    assert Api(server.base).get(f"/api/competitions/{comp.id}").json()["tables"] == 12
    for count in (0, 201):
        r = comp.post({"type": "SetTableCount", "count": count})
        assert r.status_code == 422 and r.json()["field"] == "command.count", r.text
