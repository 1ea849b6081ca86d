"""A called match moved to another table (issue 54, point 9; decision 0207), over real HTTP:
the TD's MoveMatch is recorded with who, why and the server's clock (EKML §17(3); KSI 1.1 in
a backgammon event); the old table is free and its judge link no longer records the match,
the new table's does; the hall says so. A move to a busy table, of a started match, without a
reason or of a match never called is refused with a coded problem in the reader's language
and stores nothing."""

from __future__ import annotations

import json
import random
import uuid
from pathlib import Path

import msgspec
import pytest
from support.backgammon_play import document, stream_of
from support.competition_play import Comp, Tables, player
from support.harness import Api, wait_for
from tableside.disciplines.korona import simulate
from tableside.plugins.korona.views import status

from competition.test_competition_backgammon import GUIDE as BG_GUIDE

PROBLEM = "application/problem+json"
CODES = Path(__file__).parents[2] / "pwa" / "i18n"
REASON = "table 1's cushion came loose"


def _korona(head: Api, name: str) -> Comp:
    comp = Comp.create(head, {"name": name, "format": "round_robin", "games_per_match": 1})
    comp.enter([(f"e{i}", [player(f"{name[0]} player {i}")]) for i in range(1, 5)])
    comp.do({"type": "MakeDraw", "seed": 3})
    return comp


def _call(comp: Comp, table: int) -> str:
    """The first waiting match called to `table`; its match id."""
    match_id = comp.settled()["waiting"][0]["match_id"]
    comp.do({"type": "CallMatch", "match_id": match_id, "table": table})
    return match_id


def _move(comp: Comp, match_id: str, table: int, reason: str = REASON, lang: str = "en"):
    body = {
        "command_id": str(uuid.uuid4()),
        "expected_version": comp.settled()["version"],
        "command": {"type": "MoveMatch", "match_id": match_id, "table": table, "reason": reason},
    }
    headers = {**comp.api.headers(), "Accept-Language": lang}
    r = comp.api.http.post(f"/api/competitions/{comp.id}/commands", json=body, headers=headers)
    if r.status_code == 201:
        comp.version = r.json()["last_version"]
    return r


def _table(api: Api, table: int) -> dict | None:
    r = api.get(f"/api/tables/{table}")
    return r.json() if r.status_code == 200 else None


def _hall(api: Api) -> dict[int, dict]:
    return {h["table"]: h for h in api.get("/api/hall").json()}


def _refused(r, status: int, code: str) -> dict:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith(PROBLEM)
    body = r.json()
    assert body["code"] == code, body
    return body


def _worded(body: dict, lang: str, code: str, **params: object) -> None:
    """A refusal in the reader's language: its title the catalogue's words (English: the
    server's own title; every language's words exist)."""
    words = json.loads((CODES / f"codes.{lang}.json").read_text())[f"code.{code}"]
    if lang != "en":
        assert body["title"] == words.format(**params), body


@pytest.fixture(scope="module")
def cup(head) -> Comp:
    return _korona(head, "Moving cup")


def test_ekml_17_3_a_called_match_moved_to_a_free_table_is_recorded_with_who_and_why(cup, head):
    match_id = _call(cup, 1)
    stream = str(uuid.uuid5(uuid.UUID(cup.id), match_id))
    wait_for(lambda: (_table(head, 1) or {}).get("match_id") == stream, timeout=15)
    r = _move(cup, match_id, 6)
    assert r.status_code == 201, r.text
    (moved,) = [e for e in r.json()["events"] if e["type"] == "MatchMoved"]
    event = moved.get("event", moved)
    assert event["from_table"] == 1 and event["table"] == 6
    assert event["reason"] == REASON and event["rule"] == "EKML §17(3)"
    assert event["by"] and event["by"] != ""  # the signed-in TD, stamped by the server
    assert event["at"].endswith("Z")  # the server's clock
    calls = {c["match_id"]: c["table"] for c in cup.settled()["calls"]}
    assert calls[match_id] == 6
    # The new table shows the match, the old one is free, in the tables and in the hall.
    wait_for(lambda: (_table(head, 6) or {}).get("match_id") == stream, timeout=15)
    assert _table(head, 1) is None
    hall = wait_for(lambda: (h := _hall(head)) and 1 not in h and h, timeout=15)
    assert hall[6]["match_id"] == match_id and hall[6]["competition"] == "Moving cup"


def test_ekml_17_3_the_new_tables_link_records_the_moved_match_and_the_old_ones_does_not(
    cup, server, head, module_database_url
):
    match_id = next(c["match_id"] for c in cup.settled()["calls"] if c["table"] == 6)
    stream = uuid.uuid5(uuid.UUID(cup.id), match_id)
    tables = Tables(server, head, module_database_url, seed=3)
    try:
        view = wait_for(lambda: tables._view(stream), timeout=15)
        assert view.table == 6
        first = msgspec.to_builtins(simulate.next_command(view.state, random.Random(3)))
        _refused(tables.judge(1).command(stream, view.version, first), 403, "token_other_table")
        r = tables.judge(6).command(stream, view.version, first)
        assert r.status_code == 201, r.text
    finally:
        tables.close()


def test_ekml_17_3_a_move_to_a_busy_table_is_refused_in_each_language(cup, head):
    mover = _call(cup, 2)
    busy = next(c["match_id"] for c in cup.settled()["calls"] if c["table"] == 6)
    before = cup.settled()["version"]
    for lang in ("et", "lv", "en", "is"):
        body = _refused(_move(cup, mover, 6, lang=lang), 409, "table_in_use")
        _worded(body, lang, "table_in_use", tables=6)
        assert body["held_by"]["match_id"] == busy
    assert cup.settled()["version"] == before


def test_ekml_17_3_a_move_without_a_reason_to_its_own_table_or_never_called_is_refused(cup, head):
    on_two = next(c["match_id"] for c in cup.settled()["calls"] if c["table"] == 2)
    before = cup.settled()["version"]
    blank = _refused(_move(cup, on_two, 7, reason="  "), 422, "invalid_field")  # the body's
    assert blank["field"] == "command.reason", blank
    _refused(_move(cup, on_two, 2), 422, "same_table")
    waiting = cup.settled()["waiting"][0]["match_id"]
    _refused(_move(cup, waiting, 7), 422, "never_called")
    assert cup.settled()["version"] == before


def test_ekml_17_3_a_started_match_is_not_moved(cup, server, head, module_database_url):
    on_two = next(c["match_id"] for c in cup.settled()["calls"] if c["table"] == 2)
    stream = uuid.uuid5(uuid.UUID(cup.id), on_two)
    tables = Tables(server, head, module_database_url, seed=4)
    try:
        _start(tables, head, stream)
    finally:
        tables.close()
    before = cup.settled()["version"]
    for lang in ("et", "lv", "en", "is"):
        body = _refused(_move(cup, on_two, 7, lang=lang), 409, "match_started")
        _worded(body, lang, "match_started", table=2)
    assert cup.settled()["version"] == before
    assert (_table(head, 2) or {}).get("match_id") == str(stream)


def _start(tables: Tables, head: Api, stream: uuid.UUID) -> None:
    """Table 2's judge records until the match is being played (its seats taken)."""
    judge, rng = tables.judge(2), random.Random(4)
    for _ in range(50):
        view = wait_for(lambda: tables._view(stream), timeout=15)
        if status(view) == "playing":
            wait_for(lambda: (_table(head, 2) or {}).get("status") == "playing", timeout=15)
            return
        command = simulate.next_command(view.state, rng)
        r = judge.command(stream, view.version, msgspec.to_builtins(command))
        assert r.status_code == 201, r.text
        wait_for(lambda v=view.version: tables._view(stream).version > v, timeout=15)
    raise AssertionError("the match never started")


GUIDE_BG = {**BG_GUIDE, "name": "Moving Open", "last_chance": False}


def test_ksi_1_1_a_called_backgammon_match_moved_by_the_td(server, head):
    comp = Comp.create(head, GUIDE_BG)
    comp.enter([(f"b{i}", [player(f"Bg player {i}")]) for i in range(1, 9)])
    comp.do({"type": "MakeDraw", "seed": 5})
    match_id = _call(comp, 11)
    stream = stream_of(comp, match_id)
    wait_for(lambda: document(head, stream), timeout=15)
    r = _move(comp, match_id, 12, reason="the board's hinge broke")
    assert r.status_code == 201, r.text
    (moved,) = [e for e in r.json()["events"] if e["type"] == "MatchMoved"]
    assert moved["event"]["rule"] == "KSI 1.1" and moved["event"]["table"] == 12
    doc = wait_for(lambda: (d := document(head, stream)) and d["state"]["table"] == 12 and d, 15)
    version = doc["version"]
    start = {"command_id": str(uuid.uuid4()), "expected_version": version}
    start["command"] = {"type": "StartGame"}
    url = f"/api/backgammon/matches/{stream}/commands"
    old = Api(server.base, head.judge_token(11)["token"])
    r = old.http.post(url, json=start, headers=old.headers())
    _refused(r, 403, "device_other_table")
    new = Api(server.base, head.judge_token(12)["token"])
    r = new.http.post(url, json=start, headers=new.headers())
    assert r.status_code == 201, r.text
    found = wait_for(lambda: (r := new.get("/api/backgammon/tables/12")).status_code == 200 and r)
    assert found.json()["match_id"] == stream
    assert head.get("/api/backgammon/tables/11").status_code == 404
