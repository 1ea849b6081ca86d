"""The results files as served (issue 54, point 10): the CSV said its charset twice
(`text/csv; charset=utf-8; charset=utf-8`)."""

from __future__ import annotations

from support.competition_play import Comp, player
from support.harness import Api


def test_results_csv_is_served_with_its_content_type_said_once(head: Api, server) -> None:
    comp = Comp.create(head, {"name": "Kord", "format": "round_robin"})
    comp.enter([("e1", [player("Mari Tamm")]), ("e2", [player("Liis Mets")])])
    r = Api(server.base).get(f"/api/competitions/{comp.id}/results.csv")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "text/csv; charset=utf-8"
