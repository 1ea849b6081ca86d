"""A recorded match for the export and audit tests: real names, a remark, a penalty, signed."""

from __future__ import annotations

import random
from dataclasses import dataclass

import msgspec
from tableside.disciplines.korona import commands as rc
from tableside.disciplines.korona import simulate

from support.harness import Api
from support.play import fold_response

NAMES = (("Mari Tõnisson",), ("Jānis Bērziņš",))


@dataclass
class Recorded:
    """What a test needs to know of the match it recorded."""

    match_id: str
    view: object  # MatchView after the last command
    remark_version: int = 0


def auditor(head: Api, name: str = "jury") -> Api:
    """An auditor account (made by the head judge), logged in."""
    r = head.http.post(
        "/api/accounts",
        headers=head.headers(),
        json={"username": name, "role": "auditor", "password": "jury-secret-1"},
    )
    assert r.status_code in (201, 409), r.text
    return Api(str(head.http.base_url)).login(name, "jury-secret-1")


def record_match(head: Api, table: int, seed: int = 11, games: int = 2, names=NAMES) -> Recorded:
    """Play a simulated match on `table` through the API, with one remark after 6 commands."""
    rng = random.Random(seed)
    judge = Api(str(head.http.base_url), head.judge_token(table)["token"])
    r = head.create(table, *names, games=games)
    assert r.status_code == 201, r.text
    match_id = r.json()["match_id"]
    view = fold_response(None, match_id, r.json())
    done = Recorded(match_id, view)
    for step in range(5000):
        cmd = simulate.next_command(view.state, rng)
        if step == 6 and view.state.game.turn:
            cmd = rc.GiveRemark(player=view.state.game.turn, reason="striker_moved_with_cue")
            done.remark_version = view.version + 1
        if cmd is None:
            done.view = view
            return done
        sender = head if isinstance(cmd, rc.CorrectDecision) else judge
        r = sender.command(match_id, view.version, msgspec.to_builtins(cmd))
        assert r.status_code == 201, r.text
        view = fold_response(view, match_id, r.json())
    raise AssertionError("match did not end")
