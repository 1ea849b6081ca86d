"""The jury's finder, `GET /api/audit/matches` (issue 14 point 6): two just-played matches on
one table are both found, newest first, by table, by player (case and Baltic letters folded),
by free text, by time and status, a page at a time; bad parameters are a 400 naming them."""

from __future__ import annotations

import random
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from support.harness import Api, wait_for
from support.play import fold_response, play


def _new(head: Api, table: int, side_a: list[str], side_b: list[str]):
    r = head.create(table, side_a, side_b, games=1)
    assert r.status_code == 201, r.text
    return r.json()["match_id"], fold_response(None, r.json()["match_id"], r.json())


@pytest.fixture(scope="module")
def two_on_table_five(server, head):
    """Two matches played one after the other on table 5, and one on table 6."""
    rng, judge = random.Random(51), Api(server.base, head.judge_token(5)["token"])
    tag = uuid.uuid4().hex[:6]
    first, view = _new(head, 5, [f"Õie Sarmīte {tag}"], [f"Jaan {tag}"])
    play(head, judge, first, view, rng)
    second, view = _new(head, 5, [f"Mari {tag}"], [f"Jüri {tag}"])
    with pytest.raises(AssertionError, match="did not end"):  # six commands: still playing
        play(head, judge, second, view, rng, limit=6)
    other, _ = _new(head, 6, [f"Mari {tag}"], [f"Ants {tag}"])
    wait_for(lambda: head.get(f"/api/matches/{other}").status_code == 200, timeout=10)
    return {"first": first, "second": second, "other": other, "tag": tag}


def _find(api: Api, **params) -> dict:
    r = api.get("/api/audit/matches", **params)
    assert r.status_code == 200, r.text
    return r.json()


def test_both_matches_of_a_table_newest_first_with_players_score_and_times(head, two_on_table_five):
    m = two_on_table_five
    items = _find(head, table=5)["items"]
    ids = [i["match_id"] for i in items]
    assert ids.index(m["second"]) < ids.index(m["first"])
    row = items[ids.index(m["first"])]
    assert row["table"] == 5 and row["side_a"] == [f"Õie Sarmīte {m['tag']}"]
    assert len(row["won"]) == 2 and row["status"] in {"playing", "ended", "signed"}
    assert row["started_at"] <= row["updated_at"]


def test_a_player_is_found_without_case_or_baltic_letters(head, two_on_table_five):
    m = two_on_table_five
    for text, found in (
        (f"oie sarmite {m['tag']}", "first"),
        ("ÕIE SARMĪTE", "first"),
        (f"jUri {m['tag']}", "second"),
    ):
        ids = [i["match_id"] for i in _find(head, player=text)["items"]]
        assert m[found] in ids, (text, ids)
    both = [i["match_id"] for i in _find(head, player=f"mari {m['tag']}")["items"]]
    assert both == [m["other"], m["second"]]
    assert [i["match_id"] for i in _find(head, q=m["tag"], table=6)["items"]] == [m["other"]]


def test_time_status_and_pages(head, two_on_table_five):
    m = two_on_table_five
    later = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    assert _find(head, table=5, **{"from": later})["items"] == []
    earlier = (datetime.now(UTC) - timedelta(hours=1)).isoformat()
    assert len(_find(head, q=m["tag"], **{"from": earlier, "to": later})["items"]) == 3
    first_page = _find(head, q=m["tag"], limit=2)
    assert len(first_page["items"]) == 2 and first_page["next"] is not None
    rest = _find(head, q=m["tag"], limit=2, before=first_page["next"])
    assert [i["match_id"] for i in rest["items"]] == [m["first"]] and rest["next"] is None
    assert all(
        i["status"] == "scheduled" for i in _find(head, q=m["tag"], status="scheduled")["items"]
    )


def test_the_finder_is_for_staff_and_refuses_bad_parameters(server, head):
    assert Api(server.base).get("/api/audit/matches").status_code == 401
    for params in (
        {"table": "x"},
        {"table": 0},
        {"from": "yesterday"},
        {"status": "lost"},
        {"limit": 1000},
        {"player": "x" * 81},
    ):
        r = head.get("/api/audit/matches", **params)
        assert r.status_code == 400, (params, r.status_code, r.text)
        assert r.headers["content-type"].startswith("application/problem+json")
        assert next(iter(params)) in r.text


def test_a_forfeit_on_a_started_match_is_listed_once(server, head):
    """Issue 54, point 10: a match called to its table and then forfeited (its stream closed
    as `forfeit_recorded`) was listed twice: as the forfeit and as "0 : 0 abandoned"."""
    from support.competition_play import Comp, player

    tag = uuid.uuid4().hex[:6]
    comp = Comp.create(head, {"name": f"Loobumine {tag}", "format": "round_robin"})
    comp.enter([(f"e{i}", [player(f"Forfeit{i} {tag}")]) for i in (1, 2)])
    comp.do({"type": "MakeDraw", "seed": 1})
    comp.do({"type": "CallNextMatches", "free_tables": [78]})
    (call,) = comp.settled()["calls"]
    wait_for(
        lambda: (
            head.get("/api/hall").json()
            and any(
                h["table"] == 78 and h.get("state") in ("waiting", "playing")
                for h in head.get("/api/hall").json()
            )
        ),
        timeout=15,
    )
    comp.do({"type": "WithdrawEntrant", "entrant_id": "e2"})
    assert comp.settled()["results"][call["match_id"]]["forfeit"]

    def closed() -> list | None:
        rows = _find(head, q=tag)["items"]
        korona = [r for r in rows if r["discipline"] == "korona"]
        return None if any(r["status"] != "abandoned" for r in korona) and korona else rows

    rows = wait_for(closed, timeout=15)
    assert [r["discipline"] for r in rows] == ["forfeit"], rows
