"""Remedies with a clock set the right clock: after a corrected illegal play the offender's time
runs while he replays (KSI 4.2.3.3), with or without a dispute; a roll before the opponent
pressed his clock is early (KSI 4.1.6.2, 4.1.5.1) and the opponent may have it rerolled. And a
jury is people, not spellings: a player is refused on it however his name is written (1.3.2)."""

from __future__ import annotations

import pytest
from tableside.disciplines.backgammon import RuleViolation, decide, fold, initial_state
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import events as ev

S = 1000
# A opens and presses; B plays 6-4 illegally (a checker 24 -> 18 and 18 -> 15: 9 pips for 10)
BEFORE = [
    c.CreateMatch(match_id="m", player_a="Ása Jónsdóttir", player_b="Bjarni", length=5, clock=True),
    c.StartClock(at_ms=0),
    c.StartGame(),
    c.RollOpening(die_a=3, die_b=1),
    c.Play(side="A", moves=((8, 5), (6, 5))),
    c.PressClock(side="A", at_ms=20 * S),
    c.Roll(side="B", dice=(6, 4)),
    c.Play(side="B", moves=((24, 18), (18, 15))),
    c.PressClock(side="B", at_ms=50 * S),
]  # fmt: skip


def run(commands: list) -> tuple[object, list[ev.Event]]:
    state, events = initial_state(), []
    for cmd in commands:
        batch = decide(state, cmd)
        state = fold(batch, state)
        events += batch
    return state, events


def test_ksi_4_2_3_3_after_a_correction_the_offenders_clock_restarts() -> None:
    state, _ = run([*BEFORE, c.StopClock(case=7, at_ms=60 * S), c.CorrectIllegalPlay(side="A")])
    assert state.timer.running == "A" and state.game.turn == "B"  # the offender replays
    resumed = decide(state, c.ResumeClock(at_ms=70 * S))  # the face's resume names no side
    assert [(e.side, e.rule) for e in resumed] == [("B", "KSI 4.2.3.3")]
    state = fold(resumed, state)
    assert state.timer.running == "B" and not state.timer.stopped
    before = state.timer.remaining
    state, _ = run([*BEFORE, c.StopClock(case=7, at_ms=60 * S), c.CorrectIllegalPlay(side="A"),
                    c.ResumeClock(at_ms=70 * S), c.Play(side="B", moves=((24, 18), (13, 9))),
                    c.PressClock(side="B", at_ms=100 * S)])  # fmt: skip
    assert state.timer.remaining[0] == before[0]  # A's time did not run while B replayed
    assert state.timer.remaining[1] < before[1]


def test_ksi_4_2_3_3_the_other_players_clock_is_refused_after_a_correction() -> None:
    state, _ = run([*BEFORE, c.StopClock(case=7, at_ms=60 * S), c.CorrectIllegalPlay(side="A")])
    with pytest.raises(RuleViolation) as refused:
        decide(state, c.ResumeClock(at_ms=70 * S, side="A"))
    assert refused.value.rule == "KSI 4.2.3.3"


def test_ksi_4_2_3_3_a_jurys_correct_remedy_restarts_the_offenders_clock() -> None:
    """The dispute path: called, ruled that the play stands, appealed, overturned with the
    correction ordered; the resume after it runs the offender's clock."""
    state, _ = run([
        *BEFORE,
        c.CallTD(side="A", reason="illegal play", at_ms=60 * S),
        c.GiveRuling(text="the play stands", favours="B"),
        c.Appeal(side="A"),
        c.DecideAppeal(jury=("Dóra", "Egill", "Freyja"), overturn_votes=2,
                       remedy=c.CorrectIllegalPlay(side="A")),
    ])  # fmt: skip
    assert state.timer.stopped and state.game.corrected == "B"
    resumed = decide(state, c.ResumeClock(at_ms=90 * S))
    assert [(e.side, e.rule) for e in resumed] == [("B", "KSI 4.2.3.3")]


def test_ksi_4_1_6_2_a_roll_before_the_press_is_early_and_the_reroll_remedy_works() -> None:
    played = BEFORE[:5]  # A has played and not yet pressed: his time still runs
    state, _ = run(played)
    rolled = decide(state, c.Roll(side="B", dice=(6, 6)))
    assert [(type(e), e.early, e.rule) for e in rolled] == [(ev.DiceRolled, True, "KSI 4.1.6.2")]
    state, _ = run([*played, c.Roll(side="B", dice=(6, 6)), c.PressClock(side="A", at_ms=20 * S)])
    assert state.game.early_roll and state.game.dice == (6, 6)
    reroll = decide(state, c.RequireReroll(side="A"))
    assert [(type(e), e.rule) for e in reroll] == [(ev.RerollRequired, "KSI 4.1.5.1")]
    state = fold(reroll, state)
    state = fold(decide(state, c.Roll(side="B", dice=(2, 1))), state)
    assert state.game.dice == (2, 1) and not state.game.early_roll
    # after the press, the same roll is not early
    state, _ = run([*played, c.PressClock(side="A", at_ms=20 * S)])
    assert not decide(state, c.Roll(side="B", dice=(6, 6)))[0].early


@pytest.mark.parametrize(
    "written", ["Asa Jonsdottir", "ÁSA JÓNSDÓTTIR", "  Ása   Jónsdóttir ", "\u0410sa Jonsdottir"]
)
def test_ksi_1_3_2_a_player_is_refused_on_the_jury_however_his_name_is_written(
    written: str,
) -> None:
    state, _ = run([*BEFORE, c.CallTD(side="A", reason="illegal", at_ms=60 * S),
                    c.GiveRuling(text="stands", favours="B"), c.Appeal(side="A")])  # fmt: skip
    with pytest.raises(RuleViolation) as refused:
        decide(state, c.DecideAppeal(jury=(written, "Dóra", "Egill"), overturn_votes=2))
    assert refused.value.rule == "KSI 1.3.2"


def test_ksi_4_4_3_a_drop_stops_the_clock() -> None:
    """With a clock, a dropped double also stops the clock (the game is over, case 4.3.2.1);
    the doubler's time is charged to the drop, and the next game resumes it."""
    state, events = run([*BEFORE[:6], c.Double(side="B"),
                         c.Drop(side="A", at_ms=40 * S)])  # fmt: skip
    stopped = next(e for e in events if type(e) is ev.ClockStopped)
    assert (stopped.case, stopped.at_ms, stopped.rule) == (1, 40 * S, "KSI 4.4.3")
    assert state.timer.stopped and state.game.phase == "over"
    state = fold(decide(state, c.ResumeClock(at_ms=50 * S)), state)
    assert not state.timer.stopped
