"""Issue 11, point 8: strict input. Unknown fields (also inside `command`), strings where
numbers belong, blank names, control and bidi-override characters: a 422 naming the field,
nothing stored; names are stored NFC-normalised and stripped (ASVS 5.0: V2.2.1 positive
input validation, V1.1.1 canonical form decoded once, V1.5.2 strict deserialisation)."""

from __future__ import annotations

import random
import unicodedata
import uuid

import msgspec.inspect as mi
import pytest
from support.play import create
from tableside.competition.http import dto as competition_dto
from tableside.plugins.korona.http import dto
from tableside.staff import auth_dto

OPEN = {"type": "AssignOpeningShot", "method": "lot", "lot_winner": "A"}
REQUESTS = (
    dto.CreateMatchRequest,
    dto.CommandRequest,
    auth_dto.LoginRequest,
    auth_dto.AccountRequest,
    competition_dto.CreateCompetitionRequest,
    competition_dto.CompetitionCommandRequest,
)


def _refused(r, field: str) -> dict:
    assert r.status_code == 422, (r.status_code, r.text[:300])
    assert r.headers["content-type"].startswith("application/problem+json")
    body = r.json()
    assert body["field"] == field, body
    return body


def _structs(t, seen: dict) -> dict:
    if isinstance(t, mi.StructType) and t.cls not in seen:
        seen[t.cls] = t.forbid_unknown_fields
        for f in t.fields:
            _structs(f.type, seen)
    for inner in (
        getattr(t, "types", ()),
        getattr(t, "item_types", ()),
        [x for x in (getattr(t, "item_type", None), getattr(t, "type", None)) if x is not None],
        [x for x in (getattr(t, "key_type", None), getattr(t, "value_type", None)) if x],
    ):
        for x in inner:
            _structs(x, seen)
    return seen


def test_v1_5_2_every_struct_a_request_can_hold_forbids_unknown_fields():
    seen: dict = {}
    for request in REQUESTS:
        _structs(mi.type_info(request), seen)
    assert len(seen) > 40
    assert [c.__qualname__ for c, forbids in seen.items() if not forbids] == []


def test_v2_2_1_unknown_field_inside_command_is_422_naming_it(server, head):
    match_id, view = create(head, 21, random.Random(21))
    body = _refused(head.command(match_id, view.version, {**OPEN, "bogus": 1}), "command.bogus")
    assert "bogus" in body["detail"]
    again = head.get(f"/api/matches/{match_id}/events").json()
    assert len(again) == view.version  # nothing stored


def test_v2_2_1_string_expected_version_is_not_coerced(server, head):
    match_id, view = create(head, 22, random.Random(22))
    r = head.http.post(
        f"/api/matches/{match_id}/commands",
        json={
            "command_id": str(uuid.uuid4()),
            "expected_version": str(view.version),
            "command": OPEN,
        },
        headers=head.headers(),
    )
    _refused(r, "expected_version")


def test_v2_2_1_string_table_number_is_not_coerced(server, head):
    r = head.http.post(
        "/api/matches",
        json={"command_id": str(uuid.uuid4()), "table": "7", "side_a": ["A"], "side_b": ["B"]},
        headers=head.headers(),
    )
    _refused(r, "table")


@pytest.mark.parametrize(
    "name",
    [
        "   ",
        "\t",
        "Bell\x07",
        "Line\nbreak",
        "Tab\tname",
        "Del\x7f",
        "C1\x85inside",
        "evil\u202egnp.exe",
        "iso\u2066late\u2069",
        "mark\u200f",
        "para\u2029graph",
    ],
)
def test_v2_2_1_blank_control_and_bidi_names_are_422_naming_the_field(server, head, name):
    r = head.create(23, ["Fine Name"], [name])
    body = _refused(r, "side_b[0]")
    assert body["status"] == 422 and body["detail"]


def test_v2_2_1_unknown_field_inside_a_competition_command_is_422(server, head):
    r = head.http.post(
        f"/api/competitions/{uuid.uuid4()}/commands",
        json={
            "command_id": str(uuid.uuid4()),
            "expected_version": 0,
            "command": {"type": "ApproveEntrant", "entrant_id": "x", "extra": True},
        },
        headers=head.headers(),
    )
    _refused(r, "command.extra")


def test_v1_1_1_names_are_stored_nfc_and_stripped(server, head):
    decomposed = "  Ma\u0308rt Ka\u0303sk  "
    r = head.create(24, [decomposed], ["Ott"])
    assert r.status_code == 201, r.text
    created = r.json()["events"][0]["event"]
    assert created["side_a"] == [unicodedata.normalize("NFC", decomposed.strip())]
    assert created["side_a"] != [decomposed]


def test_v2_2_1_login_passwords_are_not_rewritten(server, head):
    """The gate leaves passwords exactly as typed: a password with spaces still logs in."""
    r = head.http.post(
        "/api/accounts",
        json={"username": "spaced", "role": "auditor", "password": "  pass word  "},
        headers=head.headers(),
    )
    assert r.status_code == 201, r.text
    ok = head.http.post("/api/login", json={"username": "spaced", "password": "  pass word  "})
    assert ok.status_code == 201, ok.text
    wrong = head.http.post("/api/login", json={"username": "spaced", "password": "pass word"})
    assert wrong.status_code == 401


def test_v2_2_1_a_missing_field_is_named(server, head):
    r = head.http.post(
        f"/api/matches/{uuid.uuid4()}/commands",
        json={"command_id": str(uuid.uuid4()), "command": OPEN},
        headers=head.headers(),
    )
    _refused(r, "expected_version")


@pytest.mark.parametrize("written", ["1.0", "1e2", "0x1", " 1"])
@pytest.mark.parametrize("path, name", [("/api/hall", "min_position"), ("/api/matches", "table")])
def test_v2_2_1_a_whole_number_in_the_query_is_digits(server, head, path, name, written):
    """The parser would read "1.0" or "1e2" as a number: a query's whole number is digits."""
    r = head.http.get(f"{server.base}{path}", params={name: written})
    assert r.status_code == 400, r.text
    assert r.json()["field"] == name
    assert head.http.get(f"{server.base}{path}", params={name: "1"}).status_code != 400
