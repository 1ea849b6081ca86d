"""A recording slip undone within the current game (no KSI paragraph is about it)."""

from __future__ import annotations

from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon import fold
from tableside.disciplines.backgammon.state import snapshot

from .gwt import given, match, opened, refused, then


def test_record_undo_returns_to_the_state_after_an_earlier_version() -> None:
    s = opened(3, 1)
    before = s
    s = given(s, [c.Play(side="A", moves=((8, 5), (6, 5))), c.Roll(side="B", dice=(6, 4))])
    events = then(s, c.UndoLast(to_version=before.version), (ev.EntryUndone, {"rule": ""}))
    after = fold(events, s)
    assert after.version == s.version + 1
    assert snapshot(after).game == snapshot(before).game
    then(after, c.Play(side="A", moves=((13, 10), (6, 5))), (ev.PlayRecorded, {"legal": True}))


def test_record_an_undo_can_be_undone_to_an_effective_version() -> None:
    s = opened(3, 1)
    v0 = s.version
    s = given(s, [c.Play(side="A", moves=((8, 5), (6, 5)))])
    v1 = s.version
    s = given(s, [c.Roll(side="B", dice=(6, 4)), c.UndoLast(to_version=v1)])
    assert s.game.phase == "roll" and s.game.turn == "B"
    s = given(s, [c.UndoLast(to_version=v0)])
    assert s.game.phase == "move" and s.game.turn == "A"
    refused(s, c.UndoLast(to_version=v1), "")  # undone: no longer on the record


def test_record_no_undo_past_the_game_start_or_after_the_result_is_reported() -> None:
    s = match(1)
    refused(s, c.UndoLast(to_version=0), "")
    s = opened(3, 1, length=1)
    refused(s, c.UndoLast(to_version=1), "")  # before this game's start
    refused(s, c.UndoLast(to_version=s.version), "")
    done = given(opened(3, 1, length=1), [])
    from .gwt import at, side

    won = given(at(side({1: 1, 0: 14}), side({12: 15}), (2, 1), length=1), [])
    v = won.version
    won = given(won, [c.Play(side="A", moves=((1, 0),))])
    assert won.over
    then(won, c.UndoLast(to_version=v), (ev.EntryUndone, {}))  # a slip on the last play
    reported = given(won, [c.ReportResult(side="A")])
    refused(reported, c.UndoLast(to_version=v), "")
    assert done.version == 3
