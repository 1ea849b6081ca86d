"""Backgammon competitions (issue 12, point 6): the guide's checks, match lengths per round and
for the final, results won or lost (never drawn), standings by match wins with points scored
in the games columns, the bye as a win, and the no-show by KSI 2.2.4's lateness."""

import random

import pytest
from tableside.competition.rules import commands as cmd
from tableside.competition.rules.errors import CompetitionRuleError
from tableside.competition.rules.guide import Guide, PointsScale, TeamSettings, TimeCap
from tableside.competition.rules.matches import open_matches
from tableside.competition.rules.placings import final_placings
from tableside.competition.rules.results import MatchResult
from tableside.competition.rules.standings import StandingsView, standings
from tableside.plugins.backgammon.competition_rules import (
    BackgammonSettings,
    backgammon_guide,
    match_length,
)

from .helpers import AT, Run

LENGTHS = BackgammonSettings(lengths=(5, 7), final_length=11)


def _refused(guide: Guide) -> CompetitionRuleError:
    with pytest.raises(CompetitionRuleError) as caught:
        Run(guide)
    return caught.value


def test_a_backgammon_guide_takes_match_points_under_ksi():
    guide = Run(backgammon_guide("Reykjavík Open")).state.guide
    assert (guide.sport, guide.ruleset, guide.discipline) == ("backgammon", "KSI", "open_singles")
    assert guide.points == PointsScale(1.0, 0.5, 0.0) and guide.games_per_match == 1


@pytest.mark.parametrize(
    ("settings", "rule", "words"),
    [
        ({"games_per_match": 4}, "guide (backgammon)", "games_per_match is 1"),
        ({"playoff_games": 5}, "guide (backgammon)", "playoff_games is 1"),
        ({"play_all_games": True}, "guide (backgammon)", "match lengths"),
        ({"time_cap": TimeCap(40)}, "KSI 4.5", "full length"),
        ({"points": PointsScale(2.0, 1.0, 0.0)}, "KSI 4.5", "never drawn"),
        ({"ruleset": "EKML"}, "KSI 1.2.2", "under KSI"),
        ({"discipline": "mixed_pairs"}, "guide (backgammon)", "one against one"),
        ({"teams": TeamSettings()}, "guide (backgammon)", "no team"),
        ({"tie_breaks": ("pucks_diff",)}, "guide (backgammon)", "korona"),
        ({"settings": BackgammonSettings(lengths=())}, "guide (backgammon)", "round 1"),
        ({"settings": BackgammonSettings(lengths=(7, 0))}, "KSI 4.5", "1 to 99"),
        ({"settings": BackgammonSettings(final_length=101)}, "KSI 4.5", "1 to 99"),
    ],
)
def test_what_does_not_fit_backgammon_is_refused_with_its_reason(settings, rule, words):
    error = _refused(backgammon_guide("Bad", **settings))
    assert error.rule == rule and words in error.message


@pytest.mark.parametrize(
    "settings",
    [{"settings": BackgammonSettings()}, {"ruleset": "KSI"}, {"discipline": "open_singles"}],
)
def test_a_korona_guide_takes_no_backgammon_settings(settings):
    _refused(Guide("Korona", **settings))


def _swiss(n: int, rounds: int = 4, **settings) -> Run:
    guide = backgammon_guide("Swiss", **{"format": "swiss", "rounds": rounds, **settings})
    run = Run(guide)
    run.enter(n)
    run.do(cmd.MakeDraw(n, AT))
    return run


def test_swiss_rounds_take_their_lengths_the_last_repeating():
    run = _swiss(8, settings=BackgammonSettings(lengths=(5, 7, 9)))
    assert match_length(run.state, "R1-1") == 5
    assert [match_length(run.state, f"R{n}-1") for n in (2, 3, 4)] == [7, 9, 9]


def test_single_elimination_final_has_its_own_length_third_place_and_consolation_their_rounds():
    run = Run(backgammon_guide("Cup", format="single_elimination", settings=LENGTHS))
    run.enter(16)
    run.do(cmd.MakeDraw(3, AT))
    state = run.state
    assert match_length(state, "W1-1") == 5 and match_length(state, "W2-3") == 7
    assert match_length(state, "W4-1") == 11  # the final
    assert match_length(state, "3P") == 7 and match_length(state, "C1-2") == 5


def _win(rng: random.Random, length: int) -> MatchResult:
    loser = rng.randint(0, length - 1)
    won = length + rng.randint(0, 2)
    return (
        MatchResult(1, 0, score=(won, loser))
        if rng.random() < 0.5
        else MatchResult(0, 1, score=(loser, won))
    )


def _play_round(run: Run, rng: random.Random) -> None:
    for paired in run.state.rounds[run.state.current_round].pairings:
        length = match_length(run.state, paired.match_id)
        run.do(cmd.RecordResult(paired.match_id, _win(rng, length), AT))


def test_a_result_is_won_or_lost_never_drawn():
    run = _swiss(4)
    for result in (MatchResult(0, 0), MatchResult(1, 1), MatchResult(2, 0), MatchResult(1, 0, 1)):
        with pytest.raises(CompetitionRuleError, match="one winner"):
            run.do(cmd.RecordResult("R1-1", result, AT))
    with pytest.raises(CompetitionRuleError, match="pucks"):
        run.do(cmd.RecordResult("R1-1", MatchResult(1, 0, a_pucks_diff=3), AT))
    # lost on time (KSI 4.3.3) while ahead on the board: the winner's score is the lower
    run.do(cmd.RecordResult("R1-1", MatchResult(1, 0, score=(2, 5)), AT))
    assert run.events[-1].rule == "KSI 4.6"


def test_swiss_standings_count_match_wins_and_points_scored_the_bye_a_win():
    run = _swiss(15, rounds=4, tie_breaks=("buchholz", "games_diff"))
    rng = random.Random(15)
    _play_round(run, rng)
    for number in range(2, 5):
        run.do(cmd.PairNextRound(number, AT))
        _play_round(run, rng)
    rows = standings(StandingsView(run.state))
    assert len(rows) == 15 and sum(r.points for r in rows) == 4 * 7 + 4  # 7 wins + a bye a round
    for row in rows:
        byes = 4 - row.played
        assert row.points == row.won + byes and row.drawn == 0
    assert sum(r.games_won for r in rows) == sum(r.games_lost for r in rows) > 0
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
    assert all(r.tie_breaks[1] == r.games_won - r.games_lost for r in rows)  # points difference


def _cup(n: int = 16) -> Run:
    run = Run(backgammon_guide("Cup", format="single_elimination", settings=LENGTHS))
    run.enter(n)
    run.do(cmd.MakeDraw(n, AT))
    return run


def test_single_elimination_with_consolation_places_everyone_from_won_or_lost_matches():
    run, rng = _cup(), random.Random(16)
    while ready := [m for m, _ in open_matches(run.state)]:
        for match_id in ready:
            run.do(cmd.RecordResult(match_id, _win(rng, match_length(run.state, match_id)), AT))
    placings = final_placings(run.state)
    assert len(placings[0]) == 1 and len(placings[1]) == 1 and len(placings[2]) == 1
    assert sum(len(g) for g in placings) == 16


def test_a_no_show_loses_when_lateness_points_would_exceed_half_the_length():
    run = _cup()
    run.do(cmd.CallMatch("W1-1", 1, "2026-05-01T10:00:00+00:00"))
    absent = run.state.called_sides["W1-1"][1]
    with pytest.raises(CompetitionRuleError, match="the 15 minutes are not up") as caught:
        run.do(cmd.ReportNoShow("W1-1", absent, "2026-05-01T10:14:00+00:00"))
    assert caught.value.rule == "KSI 2.2.4"  # 5 points: 3 penalty points exceed half of 5
    run.do(cmd.ReportNoShow("W1-1", absent, "2026-05-01T10:15:00+00:00"))


def test_double_elimination_grand_finals_and_a_swiss_playoff_take_the_final_length():
    run = Run(backgammon_guide("Double", format="double_elimination", settings=LENGTHS))
    run.enter(8)
    run.do(cmd.MakeDraw(8, AT))
    state = run.state
    assert match_length(state, "GF1") == match_length(state, "GF2") == 11
    assert match_length(state, "W3-1") == 7 and match_length(state, "L1-1") == 5
    run = _swiss(8, rounds=3, format="swiss_playoff", playoff_size=4, settings=LENGTHS)
    rng = random.Random(8)
    _play_round(run, rng)
    for number in (2, 3):
        run.do(cmd.PairNextRound(number, AT))
        _play_round(run, rng)
    run.do(cmd.DrawPlayoff(AT))
    assert match_length(run.state, "P1-1") == 7  # round 4 of the event: the last length repeats
    assert match_length(run.state, "P2-1") == 11


def test_a_backgammon_bracket_is_sized_to_its_entrants_no_round_of_byes():
    """8 entrants draw an 8-place bracket (not the KUUSALU guide's 16): the first round is
    four real matches and the consolation pairs real losers; 6 draw 8 places, 2 byes."""
    run = _cup(8)
    bracket = run.state.bracket
    assert bracket.size == 8 and None not in bracket.seeds
    first = [m for m in bracket.matches if m.id.startswith("W1-")]
    assert len(first) == 4
    assert _cup(6).state.bracket.size == 8
    korona = Run(Guide(name="Karikas", format="single_elimination"))
    korona.enter(8)
    korona.do(cmd.MakeDraw(8, AT))
    assert korona.state.bracket.size == 16  # KUUSALU: 16 places up to 16 entrants
