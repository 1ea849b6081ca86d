"""Faithful idempotency (issue 10 point 3): a command_id is a retry only with the same command.

A red card sent under a stroke's command_id is refused with 409 problem+json and nothing is
stored; the stroke's identical retry still gets the stroke's first answer, byte for byte.
"""

from __future__ import annotations

import random
import uuid

import psycopg
from support.competition_play import Comp, player
from support.harness import Api
from support.play import create, fold_response

PROBLEM = "application/problem+json"


def _stream(url: str, stream_id) -> list[tuple]:
    with psycopg.connect(url) as conn:
        return conn.execute(
            "SELECT originator_version, topic, command_id, hash FROM stored_events"
            " WHERE originator_id = %s ORDER BY originator_version",
            (stream_id,),
        ).fetchall()


def _reused(r) -> dict:
    assert r.status_code == 409, r.text
    assert r.headers["content-type"].startswith(PROBLEM)
    body = r.json()
    assert body["title"] == "Command id reused"
    assert "different command" in body["detail"]
    return body


def _opened(head: Api, table: int, seed: int):
    match_id, view = create(head, table, random.Random(seed))
    opening = {"type": "AssignOpeningShot", "method": "lot", "lot_winner": "A"}
    r = head.command(match_id, view.version, opening)
    assert r.status_code == 201, r.text
    return match_id, fold_response(view, match_id, r.json())


def test_red_card_under_a_strokes_command_id_is_409_and_stores_nothing(
    server, head, module_database_url
):
    judge = Api(server.base, head.judge_token(21)["token"])
    match_id, view = _opened(head, 21, 1)
    player = view.state.game.turn
    stroke = {"type": "RecordStroke", "player": player, "facts": {"own_pocketed": 1}}
    command_id = uuid.uuid4()
    first = judge.command(match_id, view.version, stroke, command_id=command_id)
    assert first.status_code == 201, first.text
    before = _stream(module_database_url, match_id)

    red = {"type": "GiveWarning", "player": player, "card": "red"}
    body = _reused(head.command(match_id, view.version + 1, red, command_id=command_id))
    assert body["command_id"] == str(command_id)
    # at the stroke's own version too (where a retry would be sent), and by the judge
    _reused(judge.command(match_id, view.version, red, command_id=command_id))
    assert _stream(module_database_url, match_id) == before

    again = judge.command(match_id, view.version, stroke, command_id=command_id)
    assert again.status_code == 201
    assert again.content == first.content
    assert _stream(module_database_url, match_id) == before


def test_a_create_reusing_a_command_id_with_other_players_is_409(server, head):
    command_id = str(uuid.uuid4())
    first = head.create(22, ["Mari Tamm"], ["Jaan Kask"], command_id=command_id)
    assert first.status_code == 201, first.text
    _reused(head.create(22, ["Mari Tamm"], ["Peeter Paju"], command_id=command_id))
    again = head.create(22, ["Mari Tamm"], ["Jaan Kask"], command_id=command_id)
    assert (again.status_code, again.content) == (201, first.content)
    # transport fields are not part of the command: another device's retry is still a retry
    moved = head.create(22, ["Mari Tamm"], ["Jaan Kask"], command_id=command_id, device_id="t2")
    assert (moved.status_code, moved.content) == (201, first.content)


def test_competition_command_id_reused_for_another_command_is_409(head, module_database_url):
    comp = Comp.create(head, {"name": "Retry cup", "format": "swiss", "rounds": 3})
    command_id = str(uuid.uuid4())
    register = {
        "type": "RegisterEntrant",
        "entrant_id": "e1",
        "name": "Mari Tamm",
        "members": [player("Mari Tamm")],
        "at": "",
    }
    url = f"/api/competitions/{comp.id}/commands"

    def post(command: dict, version: int):
        body = {"command_id": command_id, "expected_version": version, "command": command}
        return head.http.post(url, json=body, headers=head.headers())

    first = post(register, comp.version)
    assert first.status_code == 201, first.text
    before = _stream(module_database_url, comp.id)
    other = {**register, "entrant_id": "e2", "name": "Jaan Kask", "members": [player("Jaan Kask")]}
    _reused(post(other, first.json()["last_version"]))
    assert _stream(module_database_url, comp.id) == before
    again = post(register, comp.version)  # the server stamps `at`: still the same command
    assert (again.status_code, again.content) == (201, first.content)
