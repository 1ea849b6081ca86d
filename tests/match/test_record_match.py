"""Whole matches recorded through the API; the protocol read model equals the engine's fold."""

from __future__ import annotations

import random

import msgspec
from support.harness import Api, wait_for
from support.play import create, play
from tableside.plugins.korona.views import protocol_doc


def _protocol(api: Api, match_id: str, version: int) -> dict:
    def ready():
        r = api.get(f"/api/matches/{match_id}/protocol")
        return r.status_code == 200 and r.json()["version"] == version and r.json()

    return wait_for(ready)


def _check(head: Api, server, table: int, pairs: bool, games: int, seed: int) -> None:
    rng = random.Random(seed)
    judge = Api(server.base, head.judge_token(table)["token"])
    match_id, view = create(head, table, rng, pairs=pairs, games=games)
    view = play(head, judge, match_id, view, rng)
    protocol = _protocol(Api(server.base), match_id, view.version)
    expected = msgspec.json.decode(msgspec.json.encode(protocol_doc(view)))
    for key in (
        "won",
        "games_played",
        "game_results",
        "result",
        "remarks",
        "warnings",
        "penalties",
        "corrections",
        "signatures",
        "signed",
        "winner",
        "opening",
    ):
        assert protocol[key] == expected[key], key
    state = view.state
    assert protocol["won"] == list(state.won) and protocol["signed"] and state.ended
    assert protocol["result_points"] == list(state.result_points)
    assert protocol["side_a"] == list(state.side_a) and protocol["format"] == state.fmt


def test_best_of_three_singles(server, head):
    _check(head, server, table=1, pairs=False, games=3, seed=11)


def test_pairs_game(server, head):
    _check(head, server, table=2, pairs=True, games=1, seed=12)


def test_retry_returns_the_same_response(server, head):
    rng = random.Random(5)
    match_id, view = create(head, 5, rng)
    cmd = {"type": "AssignOpeningShot", "method": "lot", "lot_winner": "A"}
    command_id = "00000000-0000-4000-8000-000000000001"
    first = head.command(match_id, view.version, cmd, command_id=command_id)
    again = head.command(match_id, view.version, cmd, command_id=command_id)
    assert first.status_code == again.status_code == 201
    assert first.content == again.content
