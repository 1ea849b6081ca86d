"""Time: pauses (KSI 2.2.2), the Bronstein clock (KSI 3.5.5, 3.5.6), slow play (KSI 2.3.1.1),
early pick-up (KSI 4.1.5.2), the eight stops (KSI 4.3.2), time running out (KSI 4.3.3)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon import fold, timing
from tableside.disciplines.backgammon import state as st

from .gwt import at, given, match, opened, refused, side, then

MIN = 60_000


@pytest.mark.parametrize(
    ("length", "pauses"),
    [(1, 1), (5, 1), (9, 1), (10, 1), (11, 2), (13, 2), (14, 2), (15, 3), (19, 3), (21, 4)],
)
def test_ksi_2_2_2_pauses_by_match_length(length: int, pauses: int) -> None:
    assert timing.pauses_allowed(length) == pauses


def test_ksi_2_2_2_pauses_between_games_own_and_pooled() -> None:
    s = match(11)  # 2 each
    s = fold(then(s, c.TakePause(side="A"), (ev.PauseTaken, {"rule": "KSI 2.2.2"})), s)
    s = fold(then(s, c.TakePause(side="A", own=1, pooled=2), (ev.PauseTaken, {})), s)
    assert s.pauses == (2, 2)
    refused(s, c.TakePause(side="B"), "KSI 2.2.2")
    refused(opened(), c.TakePause(side="A"), "KSI 2.2.2")  # not during a game


def test_ksi_2_2_2_series_of_short_matches_pause_between_matches_only() -> None:
    assert timing.pauses_allowed(5, series=True) == 0
    refused(match(5, series=True), c.TakePause(side="A"), "KSI 2.2.2")


def test_ksi_3_5_5_bronstein_two_minutes_per_point_and_12_second_delay() -> None:
    s = given(match(7, clock=True), [c.StartGame()])
    events = then(
        s,
        c.StartClock(at_ms=0),
        (ev.ClockStarted, {"remaining": (14 * MIN, 14 * MIN), "rule": "KSI 3.5.5"}),
    )
    s = fold(events, s)
    s = given(s, [c.PressClock(side="A", at_ms=1_000)])  # A's first press starts B's time
    # B thinks 10 s: inside the delay, nothing off his time
    s = fold(
        then(
            s,
            c.PressClock(side="B", at_ms=11_000),
            (ev.ClockPressed, {"remaining": (14 * MIN, 14 * MIN)}),
        ),
        s,
    )
    # A thinks 30 s: 18 s off; the unused delay does not accumulate
    s = fold(
        then(
            s,
            c.PressClock(side="A", at_ms=41_000),
            (ev.ClockPressed, {"remaining": (14 * MIN - 18_000, 14 * MIN)}),
        ),
        s,
    )
    refused(s, c.PressClock(side="A", at_ms=42_000), "KSI 4.1.6.2")


def test_ksi_3_5_6_ra_plus_rb_minutes_later_in_the_match() -> None:
    s = replace(match(7, clock=True), score=(2, 4), games=3)
    then(
        s,
        c.StartClock(at_ms=0),
        (ev.ClockStarted, {"remaining": (8 * MIN, 8 * MIN), "rule": "KSI 3.5.6"}),
    )
    late = given(match(7), [c.RecordLateness(side="A", minutes=10)])  # 0-2 on penalties
    then(late, c.StartClock(at_ms=0), (ev.ClockStarted, {"remaining": (12 * MIN, 12 * MIN)}))


def test_ksi_2_3_1_1_td_imposes_a_clock_for_slow_play() -> None:
    s = replace(opened(), score=(1, 0), games=2)
    events = then(
        s,
        c.StartClock(at_ms=5, imposed=True),
        (ev.ClockStarted, {"imposed": True, "rule": "KSI 2.3.1.1"}),
    )
    assert fold(events, s).clock


def _clocked() -> st.MatchState:
    s = given(opened(3, 1, clock=True), [c.StartClock(at_ms=0), c.PressClock(side="B", at_ms=0)])
    return s  # A's time runs


@pytest.mark.parametrize("case", range(1, 9))
def test_ksi_4_3_2_the_eight_cases_stop_the_clock(case: int) -> None:
    s = _clocked()
    events = then(
        s, c.StopClock(case=case, at_ms=20_000), (ev.ClockStopped, {"rule": f"KSI 4.3.2.{case}"})
    )
    stopped = fold(events, s)
    assert stopped.timer.stopped and stopped.timer.remaining[0] == 14 * MIN - 8_000
    later = given(stopped, [c.ResumeClock(at_ms=600_000)])  # time stands while stopped
    assert timing.time_left(later.timer, "A", 600_000) == 14 * MIN - 8_000


def test_ksi_4_3_2_no_other_stop() -> None:
    refused(_clocked(), c.StopClock(case=9, at_ms=1), "KSI 4.3.2")
    refused(_clocked(), c.StopClock(case=0, at_ms=1), "KSI 4.3.2")


def test_ksi_4_3_2_1_game_over_stops_the_clock() -> None:
    then(_clocked(), c.StopClock(case=1, at_ms=3), (ev.ClockStopped, {"case": 1}))


def test_ksi_4_3_2_2_a_break_stops_the_clock_with_both_times_recorded() -> None:
    then(
        _clocked(),
        c.StopClock(case=2, at_ms=13_000),
        (ev.ClockStopped, {"remaining": (14 * MIN - 1_000, 14 * MIN)}),
    )


def test_ksi_4_3_2_3_a_die_on_the_floor() -> None:
    then(_clocked(), c.StopClock(case=3, at_ms=3), (ev.ClockStopped, {"case": 3}))


def test_ksi_4_3_2_4_td_called() -> None:
    then(_clocked(), c.StopClock(case=4, at_ms=3), (ev.ClockStopped, {"case": 4}))


def test_ksi_4_3_2_5_early_pick_up() -> None:
    then(_clocked(), c.StopClock(case=5, at_ms=3), (ev.ClockStopped, {"case": 5}))


def test_ksi_4_3_2_6_dice_taken_away() -> None:
    then(_clocked(), c.StopClock(case=6, at_ms=3), (ev.ClockStopped, {"case": 6}))


def test_ksi_4_3_2_7_illegal_move_correction() -> None:
    then(_clocked(), c.StopClock(case=7, at_ms=3), (ev.ClockStopped, {"case": 7}))


def test_ksi_4_3_2_8_wrong_game_over_claim_gives_the_opponent_five_minutes() -> None:
    s = _clocked()
    events = then(
        s,
        c.RuleGameOverClaim(claimant="A", right=False),
        (ev.TimeAdded, {"side": "B", "ms": 5 * MIN, "rule": "KSI 4.3.2.8"}),
    )
    assert fold(events, s).timer.remaining == (14 * MIN, 19 * MIN)
    assert decide_none(s, c.RuleGameOverClaim(claimant="A", right=True))


def decide_none(s: st.MatchState, cmd: c.Command) -> bool:
    from tableside.disciplines.backgammon import decide

    return decide(s, cmd) == ()


def test_ksi_4_1_5_2_early_pick_up_is_a_forced_30_s_wait_on_the_offenders_running_clock() -> None:
    """The opponent stopped the clock; once the offender accepts, the clock restarts with the
    offender's time running and he may complete his move only after 30 s: the 12 s delay
    runs first, so the wait costs him 18 s of his time, not 30."""
    s = given(_clocked(), [c.StopClock(case=5, at_ms=20_000)])
    t0 = 25_000
    events = then(
        s,
        c.ClaimEarlyPickup(offender="B", at_ms=t0),
        (ev.ForcedWait, {"side": "B", "ms": 30_000, "at_ms": t0, "rule": "KSI 4.1.5.2"}),
    )
    waiting = fold(events, s)
    assert waiting.timer.running == "B" and not waiting.timer.stopped
    assert waiting.timer.wait_until == t0 + 30_000
    before = waiting.timer.remaining[1]
    refused(waiting, c.PressClock(side="B", at_ms=t0 + 29_000), "KSI 4.1.5.2")
    pressed = given(waiting, [c.PressClock(side="B", at_ms=t0 + 30_000)])
    assert pressed.timer.remaining[1] == before - 18_000
    assert pressed.timer.running == "A" and pressed.timer.wait_until == 0


def test_ksi_4_3_3_flag_fall_loses_the_match() -> None:
    s = _clocked()
    refused(s, c.ReportFlag(at_ms=14 * MIN), "KSI 4.3.3")
    events = then(
        s,
        c.ReportFlag(at_ms=14 * MIN + 12_001),
        (ev.FlagFell, {"side": "A", "gin": False, "rule": "KSI 4.3.3"}),
        (ev.MatchEnded, {"winner": "B"}),
    )
    assert fold(events, s).over
    then(
        s,
        c.PressClock(side="A", at_ms=15 * MIN),
        (ev.ClockPressed, {}),
        (ev.FlagFell, {"side": "A"}),
    )


def test_ksi_4_3_3_gin_the_flagged_player_certain_to_win_the_match_wins() -> None:
    race = at(side({1: 2, 0: 13}), side({24: 15}), (0, 0), turn="A", length=1, clock=True)
    race = given(
        replace(race, game=replace(race.game, position=(side({1: 2, 0: 13}), side({12: 15})))), []
    )
    s = given(race, [c.StartClock(at_ms=0), c.PressClock(side="B", at_ms=0)])
    then(
        s,
        c.ReportFlag(at_ms=3 * MIN),
        (ev.FlagFell, {"gin": True}),
        (ev.MatchEnded, {"winner": "A"}),
    )


def test_ksi_4_3_3_not_gin_while_the_race_can_be_lost() -> None:
    assert not timing.certain_game_win(side({6: 15}), side({1: 1, 0: 14}), on_roll=True)
    assert timing.certain_game_win(side({1: 2}), side({6: 15}), on_roll=False)
    assert not timing.certain_game_win(side({24: 1}), side({1: 15}), on_roll=True)  # contact


def test_ksi_4_3_3_both_flags_down_finish_without_the_clock() -> None:
    s = _clocked()
    events = then(s, c.ReportFlag(at_ms=1, both=True), (ev.ClockAbandoned, {"rule": "KSI 4.3.3"}))
    after = fold(events, s)
    assert after.timer is None and not after.over


def test_ksi_4_1_6_2_pressing_the_clock_completes_the_move_and_starts_the_opponents_time() -> None:
    s = _clocked()
    events = then(
        s, c.PressClock(side="A", at_ms=20_000), (ev.ClockPressed, {"rule": "KSI 4.1.6.2"})
    )
    after = fold(events, s)
    assert after.timer.running == "B" and after.timer.delay_left == timing.DELAY_MS


def _flagged_race(a: dict, b: dict, score: tuple[int, int], cube: int = 1) -> st.MatchState:
    """A 5-point match, A on roll in a race at `score`, the cube at `cube`; A's time runs."""
    s = at(side(a), side(b), (0, 0), turn="A", length=5, clock=True)
    s = replace(s, score=score, game=replace(s.game, cube=cube, owner="B" if cube > 1 else ""))
    return given(s, [c.StartClock(at_ms=0), c.PressClock(side="B", at_ms=0)])


def _flag(s: st.MatchState) -> st.MatchState:
    return fold(then(s, c.ReportFlag(at_ms=30 * MIN), (ev.FlagFell, {"side": "A"})), s)


def test_ksi_4_3_3_gin_counts_a_certain_gammon_against_the_match_score() -> None:
    """3:0 in a 5-point match, a gammon certain (B cannot bear a checker off first): the
    2 points win the match, so the flagged player wins."""
    after = _flag(_flagged_race({1: 2, 0: 13}, {13: 15}, (3, 0)))
    assert after.winner == "A" and after.score == (5, 0)
    # a single only (B has borne one off): 3 + 1 < 5, the flag loses
    single = _flag(_flagged_race({1: 2, 0: 13}, {13: 14, 0: 1}, (3, 0)))
    assert single.winner == "B"


def test_ksi_4_3_3_gin_counts_the_cube() -> None:
    """A certain single at the cube of 2 from 3:0 wins the match; a certain gammon at 2 from
    1:0 too (4 points); a certain single at 2 from 2:0 does not."""
    assert _flag(_flagged_race({1: 2, 0: 13}, {13: 14, 0: 1}, (3, 0), cube=2)).winner == "A"
    assert _flag(_flagged_race({1: 2, 0: 13}, {13: 15}, (1, 0), cube=2)).winner == "A"
    assert _flag(_flagged_race({1: 2, 0: 13}, {13: 14, 0: 1}, (2, 0), cube=2)).winner == "B"


def test_ksi_4_3_3_gin_counts_a_certain_backgammon() -> None:
    """B still has a checker in A's home board when A bears off his last two: 3 points."""
    after = _flag(_flagged_race({1: 2, 0: 13}, {13: 14, 20: 1}, (2, 0)))
    assert after.winner == "A" and after.score == (5, 0)
    assert timing.certain_kind(side({1: 2, 0: 13}), side({13: 14, 20: 1}), on_roll=True) == 3
    assert timing.certain_kind(side({1: 2, 0: 13}), side({13: 15}), on_roll=True) == 2
    assert timing.certain_kind(side({1: 2, 0: 13}), side({13: 14, 0: 1}), on_roll=True) == 1
    assert timing.certain_kind(side({6: 15}), side({13: 15}), on_roll=True) == 0
