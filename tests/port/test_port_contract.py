"""The discipline port's contract (issue 55): korona, backgammon and the test-only coin toss
answer a command the same way through the one family of match routes
(`match/http/port_routes.py`) and the one command path (`match/port_service.py`), over real
HTTP and websockets on one server (the house's disciplines and the coin toss): a command
accepted is stored once; a retry with its command_id gets the same answer and stores
nothing; a stale version is 409 with `current_version`; a principal the match is not theirs
to record is refused 403 with a code; a rule broken is a 4xx citing the rule's paragraph;
the live feed answers `match:<id>` with a snapshot and the stored event."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest
import websockets
from support.harness import Api, Server, run_async

HERE = Path(__file__).parent


@dataclass(frozen=True)
class Case:
    """One discipline as the contract drives it."""

    name: str
    address: str  # its match routes
    create: dict  # a creation body, on table `table` where the discipline has tables
    accepted: dict  # a command the fresh match accepts
    broken: dict  # a command the fresh match refuses by its rules, and the paragraph cited
    rule: str
    outsider: str  # what refuses a table judge token of another table: its code


TABLE, OTHER = 41, 999  # each match on a table of its own (the hall holds a busy one)
_TABLES = itertools.count(TABLE)
CASES = [
    Case(
        "korona",
        "/api/matches",
        {"table": TABLE, "side_a": ["Ann"], "side_b": ["Bob"]},
        {"type": "AssignOpeningShot", "method": "lot", "lot_winner": "A"},
        {"type": "SignProtocol", "judge": "J"},
        "EKML §16(12)",
        "token_other_table",
    ),
    Case(
        "backgammon",
        "/api/backgammon/matches",
        {"table": TABLE, "player_a": "Ása", "player_b": "Bjarni", "length": 3},
        {"type": "StartGame"},
        {"type": "ConfirmResult"},
        "KSI 4.6",
        "device_other_table",
    ),
    Case(
        "coin_toss",
        "/api/disciplines/coin_toss/matches",
        {"command": {"type": "Start", "a": "Ann", "b": "Bob", "first_to": 2}},
        {"type": "Toss", "call": "heads", "fell": "heads"},
        {"type": "Start", "a": "Ann", "b": "Bob"},
        "COIN 1",
        "needs_role",  # no table judge records a coin toss
    ),
]


@pytest.fixture(scope="module")
def house(module_database_url: str):
    """One server recording the house's disciplines and the coin toss (tests/match)."""
    coin = str(HERE.parent / "match")
    path = os.pathsep.join(p for p in (coin, os.environ.get("PYTHONPATH", "")) if p)
    srv = Server(module_database_url, factory="coin_toss:app", env={"PYTHONPATH": path}).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def head(house) -> Api:
    return Api(house.base).login()


def _create(head: Api, case: Case) -> tuple[str, int]:
    body = {"command_id": str(uuid.uuid4()), **case.create}
    if "table" in body:
        body["table"] = next(_TABLES)
    r = head.http.post(case.address, json=body, headers=head.headers())
    assert r.status_code == 201, r.text
    return r.json()["match_id"], r.json()["last_version"]


def _post(api: Api, case: Case, match_id: str, version: int, command: dict, command_id=None):
    body = {
        "command_id": str(command_id or uuid.uuid4()),
        "expected_version": version,
        "command": command,
    }
    return api.http.post(f"{case.address}/{match_id}/commands", json=body, headers=api.headers())


def _version(head: Api, case: Case, match_id: str) -> int:
    r = head.get(f"/api/disciplines/{case.name}/matches/{match_id}")
    assert r.status_code == 200, r.text
    return r.json()["version"]


@pytest.fixture(params=CASES, ids=lambda c: c.name)
def case(request) -> Case:
    return request.param


def test_a_command_is_stored_once_and_a_retry_gets_its_answer(head, case):
    match_id, version = _create(head, case)
    command_id = uuid.uuid4()
    first = _post(head, case, match_id, version, case.accepted, command_id)
    assert first.status_code == 201, first.text
    stored = first.json()
    assert stored["first_version"] == version + 1 and stored["match_id"] == match_id
    assert _version(head, case, match_id) == stored["last_version"]
    again = _post(head, case, match_id, version, case.accepted, command_id)
    assert again.status_code == 201 and again.json() == stored  # answered as stored
    assert _version(head, case, match_id) == stored["last_version"]  # nothing more stored


def test_a_stale_version_is_409_with_the_current_one(head, case):
    match_id, version = _create(head, case)
    assert _post(head, case, match_id, version, case.accepted).status_code == 201
    now = _version(head, case, match_id)
    r = _post(head, case, match_id, version, case.accepted)
    assert r.status_code == 409, r.text
    assert r.json()["current_version"] == now and r.json()["code"]


def test_another_tables_judge_is_refused_with_a_code(head, case):
    match_id, version = _create(head, case)
    outsider = Api(str(head.http.base_url), head.judge_token(OTHER)["token"])
    r = _post(outsider, case, match_id, version, case.accepted)
    assert r.status_code == 403, r.text
    assert r.json()["code"] == case.outsider
    assert _version(head, case, match_id) == version  # nothing stored


def test_a_rule_broken_is_refused_citing_its_paragraph(head, case):
    match_id, version = _create(head, case)
    r = _post(head, case, match_id, version, case.broken)
    assert 400 <= r.status_code < 500, r.text
    assert r.json()["rule"] == case.rule
    assert _version(head, case, match_id) == version


def test_the_live_feed_answers_a_snapshot_and_the_stored_event(house, head, case):
    match_id, version = _create(head, case)

    async def follow() -> tuple[dict, dict]:
        async with websockets.connect(f"{house.ws}/live?match={match_id}") as ws:
            first = json.loads(await asyncio.wait_for(ws.recv(), 30))
            while json.loads(await asyncio.wait_for(ws.recv(), 30))["kind"] != "caught_up":
                pass
            r = await asyncio.to_thread(_post, head, case, match_id, version, case.accepted)
            assert r.status_code == 201, r.text
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if (
                    msg.get("version") == version + 1
                    or msg.get("position") in r.json()["positions"]
                ):
                    return first, msg

    snapshot, delta = run_async(follow())
    assert snapshot["kind"] == "snapshot"
    assert match_id in json.dumps(snapshot)
    assert delta["kind"] not in ("snapshot", "caught_up")
