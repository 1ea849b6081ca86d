"""Corrections: the table judge's undo and the head judge's ruling (EKML §12(3)5; NOVUS08 8.1.4)."""

from __future__ import annotations

import msgspec
import pytest
from tableside.disciplines.korona import RuleViolation, decide, fold
from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona.commands import CorrectDecision, SignProtocol, UndoLastEntry
from tableside.disciplines.korona.state import MatchState

from .gwt import S, given, pot, setup


def _last_entry_version(state: MatchState, kind: type = ev.StrokeRecorded) -> int:
    return next(v for v, e in reversed(state.window) if type(e) is kind)


def _same_play(a: MatchState, b: MatchState) -> bool:
    keep = ("version", "window", "base")
    strip = {f: None for f in keep}
    return msgspec.structs.replace(a, **strip) == msgspec.structs.replace(b, **strip)


def test_undo_last_entry_restores_the_state_before_it() -> None:
    before = given(setup(), [pot("ann"), pot("ann")])
    after = given(before, [S("ann", striker="pocket")])
    events = decide(after, UndoLastEntry(reason="wrong button"))
    assert events == (
        ev.CorrectionRecorded(
            corrects_version=after.version - 4, by="table_judge", reason="wrong button"
        ),
    )
    undone = fold(events, after)
    assert _same_play(undone, before)
    assert undone.version == after.version + 1


def test_undo_twice_walks_back_two_entries() -> None:
    before = given(setup(), [pot("ann")])
    state = given(before, [pot("ann"), S("ann"), UndoLastEntry(), UndoLastEntry()])
    assert _same_play(state, before)


def test_undo_of_a_game_winning_stroke_reopens_the_game() -> None:
    before = given(setup(games=3), [S("ann")])
    state = given(before, [pot("bob", 8), UndoLastEntry()])
    assert state.won == (0, 0) and not state.game.over and state.game.turn == "bob"


def test_ekml_12_3_5_head_judge_overturns_a_penalty() -> None:
    state = given(setup(), [pot("ann"), S("ann", first_contact="opponent")])
    version = _last_entry_version(state)
    ruling = CorrectDecision(
        corrects_version=version, reason="first contact was own puck", replacement=S("ann")
    )
    events = decide(state, ruling)
    assert events[0].rule == "EKML §12(3)5"
    assert not any(type(e) is ev.PenaltyAwarded for e in events[0].replacement)
    corrected = fold(events, state)
    assert corrected.game.pucks[0].debt == 0 and corrected.game.pucks[0].placed == 0
    assert corrected.game.turn == "bob"


def test_ekml_12_3_5_correction_allowed_before_the_next_game_starts() -> None:
    state = given(setup(games=3), [S("ann")])
    state = given(state, [pot("bob", 8)])
    version = _last_entry_version(state)
    events = decide(state, CorrectDecision(corrects_version=version, reason="puck on edge"))
    assert fold(events, state).won == (0, 0)


def test_ekml_12_3_5_refused_after_the_next_game_started() -> None:
    state = given(setup(games=3), [S("ann"), pot("bob", 8)])
    version = _last_entry_version(state)
    state = given(state, [pot("bob")])  # game 2 has started
    with pytest.raises(RuleViolation) as info:
        decide(state, CorrectDecision(corrects_version=version, reason="late"))
    assert info.value.rule == "EKML §12(3)5" and info.value.field == "corrects_version"


def test_novus08_8_1_4_correction_before_the_next_set() -> None:
    state = given(setup("NOVUS08"), [S("ann", striker="over")])
    events = decide(state, CorrectDecision(corrects_version=_last_entry_version(state), reason="x"))
    assert events[0].rule == "NOVUS08 8.1.4"


def test_a_correction_is_not_corrected() -> None:
    state = given(setup(), [pot("ann"), UndoLastEntry()])
    version = _last_entry_version(state, ev.CorrectionRecorded)
    with pytest.raises(RuleViolation):
        decide(state, CorrectDecision(corrects_version=version, reason="x"))


def test_nothing_left_to_undo() -> None:
    state = given(setup(), [UndoLastEntry()])  # undoes the opening shot
    with pytest.raises(RuleViolation):
        decide(state, UndoLastEntry())


def test_corrections_refused_after_the_protocol_is_signed() -> None:
    state = given(setup(), [S("ann"), pot("bob", 8), SignProtocol(judge="j")])
    with pytest.raises(RuleViolation) as info:
        decide(state, UndoLastEntry())
    assert info.value.rule == "EKML §12(3)5"


def test_replacement_is_decided_against_the_state_before_the_entry() -> None:
    state = given(setup(), [pot("ann"), S("ann")])
    version = _last_entry_version(state)
    with pytest.raises(RuleViolation) as info:
        decide(state, CorrectDecision(corrects_version=version, reason="x", replacement=S("bob")))
    assert info.value.field == "player"


def test_refold_after_correction_matches_a_fresh_fold_of_the_stream() -> None:
    state = setup()
    stream: list[ev.Event] = []
    for cmd in (pot("ann"), S("ann", striker="pocket"), UndoLastEntry(), S("ann"), pot("bob", 2)):
        events = decide(state, cmd)
        stream.extend(events)
        state = fold(events, state)
    assert fold(stream, setup()) == state
