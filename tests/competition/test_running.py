"""Running the event: calls, no-shows (EKML §9(3)), results, protests (EKML §9(7)), time cap."""

from uuid import uuid4

import pytest
from tableside.competition.rules import commands as cmd
from tableside.competition.rules import events as ev
from tableside.competition.rules.errors import CompetitionRuleError
from tableside.competition.rules.guide import Guide, PointsScale, TimeCap
from tableside.competition.rules.records import records
from tableside.competition.rules.results import MatchResult
from tableside.disciplines.korona import decide
from tableside.disciplines.korona.state import initial_state
from tableside.plugins.korona.competition_flow import _create

from .helpers import AT, Run

T0 = "2026-05-01T10:00:00+00:00"
T1 = "2026-05-01T10:01:30+00:00"
T2 = "2026-05-01T10:02:00+00:00"
LATER = "2026-05-01T11:00:01+00:00"


def started(ruleset: str = "EKML", **settings) -> Run:
    """Four players, round 1 of a Swiss paired, match R1-1 called to table 3 at T0."""
    run = Run(Guide("Run", format="swiss", rounds=3, ruleset=ruleset, **settings))
    run.enter(4)
    run.do(cmd.MakeDraw(1, AT))
    run.do(cmd.CallMatch("R1-1", 3, T0))
    return run


def first(run: Run) -> ev.Pairing:
    """The first pairing of round 1."""
    return run.state.rounds[1].pairings[0]


def test_ekml_9_3_no_show_needs_two_minutes():
    run = started()
    with pytest.raises(CompetitionRuleError) as err:
        run.do(cmd.ReportNoShow("R1-1", first(run).b, T1))
    assert err.value.rule == "EKML §9(3)"
    assert run.do(cmd.ReportNoShow("R1-1", first(run).b, T2))[0].rule == "EKML §9(3)"


def test_ekml_9_3_forfeit_only_when_the_head_judge_confirms():
    run = started()
    run.do(cmd.ReportNoShow("R1-1", first(run).b, T2))
    assert "R1-1" not in run.state.results
    recorded = run.do(cmd.ConfirmForfeit("R1-1", T2))[0]
    assert recorded.result == MatchResult(3, 0, forfeit=True)
    game = next(g for g in records(run.state)[first(run).a] if g.round == 1)
    # The forfeit gives the win's points but counts no games (NOVUS08 3.2, RULES.md §5).
    assert (game.points, game.won, game.kind) == (2.0, 0, "forfeit")


def test_novus08_3_2_second_no_show_loss_puts_the_player_out():
    run = Run(Guide("Run", format="swiss", rounds=3, ruleset="NOVUS08"))
    run.enter(4)
    run.do(cmd.MakeDraw(1, AT))
    absent = first(run).b
    run.do(cmd.CallMatch("R1-1", 1, T0))
    run.do(cmd.ReportNoShow("R1-1", absent, T2))
    run.do(cmd.ConfirmForfeit("R1-1", T2))
    run.do(cmd.RecordResult("R1-2", MatchResult(3, 1), T2))
    run.do(cmd.PairNextRound(2))
    match = next(p.match_id for p in run.state.rounds[2].pairings if absent in (p.a, p.b))
    run.do(cmd.CallMatch(match, 1, T0))
    run.do(cmd.ReportNoShow(match, absent, T2))
    out = run.do(cmd.ConfirmForfeit(match, T2))
    assert [type(e).__name__ for e in out] == ["ResultRecorded", "EntrantWithdrew"]
    assert out[1].rule == "NOVUS08 3.2" and run.state.entrants[absent].status == "withdrawn"


@pytest.mark.parametrize(
    "when, rule",
    [
        (cmd.CallMatch("R1-2", 3, T0), "EKML §17(3)"),
        (cmd.CallMatch("R9-9", 1, T0), "EKML §12(2)4"),
        (cmd.RecordResult("R1-1", MatchResult(3, 2), T0), "EKML §32(1)"),
        (cmd.RecordResult("R1-1", MatchResult(4, 0), T0), "EKML §32(1)"),
        (cmd.ConfirmForfeit("R1-1", T0), "EKML §9(3)"),
        (cmd.RuleAtTimeCap("R1-1", 1, 1, 2, 3, T0), "guide time cap"),
    ],
    ids=[
        "ekml_17_3_table_busy",
        "ekml_12_2_4_no_such_match",
        "ekml_32_1_five_of_four",
        "ekml_32_1_stops_once_decided",
        "ekml_9_3_nothing_reported",
        "no_time_cap_set",
    ],
)
def test_running_refusals(when, rule):
    with pytest.raises(CompetitionRuleError) as err:
        started().do(when)
    assert err.value.rule == rule


def test_play_all_games_allows_four_nil():
    run = started(play_all_games=True)
    assert run.do(cmd.RecordResult("R1-1", MatchResult(4, 0), T0))


def test_time_cap_ruling_from_the_pucks_left():
    # 4 games, cap hit at 1:1 in game 3: a has 2 pucks left, b has 5 → a takes game 3 and
    # game 4 is unplayed, so drawn; a wins 2:1 with one drawn game; pucks difference 3.
    run = started(time_cap=TimeCap(60))
    out = run.do(cmd.RuleAtTimeCap("R1-1", 1, 1, 2, 5, T0))
    assert out[0].result == MatchResult(2, 1, drawn_games=1, a_pucks_diff=3)


def test_time_cap_equal_pucks_draws_the_open_game():
    run = started(time_cap=TimeCap(60), points=PointsScale(per_game=True))
    out = run.do(cmd.RuleAtTimeCap("R1-1", 2, 1, 4, 4, T0))
    assert out[0].result == MatchResult(2, 1, drawn_games=1)
    game = next(g for g in records(run.state)[first(run).a] if g.round == 1)
    assert game.points == 2.5  # one point per game won, a drawn game a half


def protest(by: str, at: str = T2, rule_cited: str = "EKML §24(1)4", at_once: bool = True):
    """A protest about R1-1."""
    return cmd.FileProtest("pr1", "R1-1", by, rule_cited, "penalty puck wrong", at_once, at)


@pytest.mark.parametrize(
    "ruleset, when_late, rule_cited, at_once, rule",
    [
        ("EKML", LATER, "EKML §24(1)4", True, "EKML §9(7)"),
        ("EKML", T2, "  ", True, "EKML §9(7)"),
        ("EKML", T2, "EKML §24(1)4", False, "EKML §9(7)"),
        ("NOVUS08", T2, "NOVUS08 17.1", False, "NOVUS08 3.4"),
    ],
    ids=[
        "ekml_9_7_over_one_hour",
        "ekml_9_7_no_rule_cited",
        "ekml_9_7_no_appeal_at_once",
        "novus08_3_4_claim_at_once",
    ],
)
def test_protest_refusals(ruleset, when_late, rule_cited, at_once, rule):
    run = started(ruleset)
    run.do(cmd.RecordResult("R1-1", MatchResult(3, 1), T0))
    with pytest.raises(CompetitionRuleError) as err:
        run.do(protest(first(run).b, when_late, rule_cited, at_once))
    assert err.value.rule == rule


def test_novus08_3_4_has_no_one_hour_limit():
    run = started("NOVUS08")
    run.do(cmd.RecordResult("R1-1", MatchResult(3, 1), T0))
    assert run.do(protest(first(run).b, LATER, "NOVUS08 17.1"))


def test_ekml_9_7_upheld_protest_corrects_the_result_and_the_decision_is_final():
    run = started()
    run.do(cmd.RecordResult("R1-1", MatchResult(3, 1), T0))
    run.do(protest(first(run).b))
    out = run.do(cmd.DecideProtest("pr1", True, "penalty misapplied", T2, MatchResult(1, 3)))
    assert [type(e).__name__ for e in out] == ["ProtestDecided", "ResultCorrected"]
    assert run.state.results["R1-1"].result == MatchResult(1, 3)
    with pytest.raises(CompetitionRuleError) as err:
        run.do(cmd.DecideProtest("pr1", False, "again", T2))
    assert err.value.rule == "EKML §9(7)"


def test_correction_flows_into_the_next_swiss_round_scores():
    run = started()
    run.do(cmd.RecordResult("R1-1", MatchResult(3, 1), T0))
    run.do(cmd.RecordResult("R1-2", MatchResult(3, 1), T0))
    run.do(cmd.CorrectResult("R1-1", MatchResult(1, 3), "wrong side", T2))
    run.do(cmd.PairNextRound(2))
    winners = {first(run).b, run.state.rounds[1].pairings[1].a}
    top = run.state.rounds[2].pairings[0]
    assert {top.a, top.b} == winners


def test_ekml_17_3_a_player_at_a_table_is_not_called_again():
    run = Run(Guide("RR", format="round_robin"))
    run.enter(4)
    run.do(cmd.MakeDraw(1, AT))
    calls = run.do(cmd.CallNextMatches((1, 2, 3, 4), T0))
    # All three rounds are known, but each player can sit at one table at a time.
    assert [c.match_id for c in calls] == ["R1-1", "R1-2"]
    with pytest.raises(CompetitionRuleError) as err:
        run.do(cmd.CallMatch("R2-1", 3, T0))
    assert err.value.rule == "EKML §17(3)"


@pytest.mark.parametrize("fill", ["ekml", "none"])
def test_the_guides_choice_for_lv_silences_goes_into_each_called_match(fill: str) -> None:
    """Issue 35: whether LV's silences are filled from EKML (EKML §3(4)) is the guide's, and
    every match the competition creates plays by it."""
    run = started("LV", fill_silences=fill)
    created = _create(run.state, "R1-1", uuid4(), (("a",), ("b",)), "singles")
    assert (created.ruleset, created.fill_silences) == ("LV", fill)
    [event] = decide(initial_state(), created)
    assert event.fill_silences == fill


def test_ekml_31_1_the_guide_decides_each_matchs_opening() -> None:
    """A round robin's first-listed opens unless the guide draws lots (issue 34); every other
    format draws lots; a team's boards leave it to the table (board I's lot, EKML §29)."""
    from tableside.competition.rules.guide import Guide, TeamSettings
    from tableside.plugins.korona.competition_rules import opening_rule

    assert opening_rule(Guide("RR", format="round_robin")) == "listing"
    assert opening_rule(Guide("RR", format="round_robin", opening_by_lot=True)) == "lot"
    assert opening_rule(Guide("DE", format="double_elimination")) == "lot"
    assert opening_rule(Guide("S", format="swiss")) == "lot"
    assert opening_rule(Guide("T", format="swiss", teams=TeamSettings())) == ""
