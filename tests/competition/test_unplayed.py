"""Withdrawals, forfeits and byes scored as the rules say (issue 13, build point 4):
EKML §9(4), §32(2) note 3, §32(3), NOVUS08 3.2 and 23.1, and the guide's named settings for
unplayed games in Buchholz, Sonneborn–Berger and head to head."""

import random
from functools import reduce

import pytest
from tableside.competition.rules import commands as cmd
from tableside.competition.rules import events as ev
from tableside.competition.rules.entrants import Person
from tableside.competition.rules.errors import CompetitionRuleError
from tableside.competition.rules.guide import Guide, PointsScale
from tableside.competition.rules.placings import final_placings
from tableside.competition.rules.records import records
from tableside.competition.rules.results import MatchResult
from tableside.competition.rules.standings import StandingsView, bracket, fold, standings

from .helpers import AT, Run, played_out

WIN = MatchResult(3, 1, a_pucks_diff=4)


def rows(run: Run) -> dict:
    """Standings rows by entrant."""
    return {r.entrant: r for r in standings(StandingsView(run.state))}


def round_robin(ruleset: str, players: int, rounds_played: int) -> Run:
    """A round robin whose first rounds are all won by the first-listed side."""
    run = Run(Guide("RR", format="round_robin", ruleset=ruleset))
    run.enter(players)
    run.do(cmd.MakeDraw(5, AT))
    for number in range(1, rounds_played + 1):
        for p in run.state.rounds[number].pairings:
            run.do(cmd.RecordResult(p.match_id, WIN, AT))
    return run


# --- EKML §9(4): withdrawn from an elimination bracket → removed, not placed -------------


def test_ekml_9_4_withdrawn_from_single_elimination_is_not_placed():
    run = Run(Guide("Cup", format="single_elimination", games_per_match=1))
    run.enter(8)
    run.do(cmd.MakeDraw(3, AT))
    rng = random.Random(3)
    run.play_open(rng, games=1)
    winner = next(r.a if r.result.a_games else r.b for r in run.state.results.values())
    withdrew = run.do(cmd.WithdrawEntrant(winner, AT))[0]
    run.play_all(rng, games=1)
    placed = [e for g in final_placings(run.state) for e in g]
    assert withdrew.rule == "EKML §9(4)"
    assert winner not in placed and len(placed) == 7
    walkovers = [s for s in bracket(StandingsView(run.state)) if s.walkover]
    assert walkovers and all(winner in (s.a, s.b) for s in walkovers)


def test_ekml_9_4_withdrawn_from_the_play_off_is_not_placed_others_are():
    run = Run(Guide("Open", format="swiss_playoff", rounds=3, games_per_match=4))
    run.enter(8)
    run.do(cmd.MakeDraw(8, AT))
    rng = random.Random(8)
    run.play_open(rng)
    for n in (2, 3):
        run.do(cmd.PairNextRound(n))
        run.play_open(rng)
    run.do(cmd.DrawPlayoff(AT))
    semi = run.state.playoff.seeds[0]
    run.do(cmd.WithdrawEntrant(semi, AT))
    run.play_all(rng, games=5)
    placed = [e for g in run.do(cmd.FinishCompetition(AT))[0].placings for e in g]
    assert semi not in placed and len(placed) == 7


# --- EKML §32(2) note 3: the Swiss bye scores a drawn match's points --------------------


@pytest.mark.parametrize(
    "points, games, expected",
    [(PointsScale(), 4, 1.0), (PointsScale(per_game=True), 4, 2.0), (PointsScale(), 6, 1.0)],
    ids=["ekml_32_2_note3_2_1_0", "ekml_32_2_note3_per_game_4", "ekml_32_2_note3_6_games"],
)
def test_ekml_32_2_note3_bye_scores_a_drawn_matchs_points(points, games, expected):
    run = Run(Guide("Swiss", format="swiss", rounds=1, points=points, games_per_match=games))
    run.enter(5)
    run.do(cmd.MakeDraw(2, AT))
    bye = run.state.rounds[1].bye
    assert [g.points for g in records(run.state)[bye]] == [expected]


# --- EKML §32(3)1 / NOVUS08 3.2: forfeits after a withdrawal in W/D/L -------------------


@pytest.mark.parametrize(
    "ruleset, their_points",
    [("EKML", 0.0), ("NOVUS08", 2.0)],
    ids=["ekml_32_3_1_minus_and_plus", "novus08_3_2_losses_for_him"],
)
def test_forfeits_after_a_withdrawal_are_wins_and_losses_not_draws(ruleset, their_points):
    run = round_robin(ruleset, 6, 0)
    gone = run.state.order[0]
    mine = [p for n in (1, 2, 3) for p in run.state.rounds[n].pairings if gone in (p.a, p.b)]
    for p in mine:
        run.do(cmd.RecordResult(p.match_id, WIN, AT))
    run.do(cmd.WithdrawEntrant(gone, AT))
    table = rows(run)
    me = table[gone]
    assert (me.minus, me.plus, me.drawn) == (2, 0, 0)
    assert me.played == len(mine) and me.won + me.lost == me.played  # forfeits not played
    beneficiaries = [
        e
        for games in [records(run.state)]
        for e, gs in games.items()
        if any(g.opponent == gone and g.kind == "forfeit" for g in gs)
    ]
    assert len(beneficiaries) == 2
    for e in beneficiaries:
        assert table[e].plus == 1 and table[e].drawn == 0
        forfeit = next(g for g in records(run.state)[e] if g.opponent == gone)
        assert forfeit.result == "W" and forfeit.points == their_points
        assert (forfeit.won, forfeit.lost) == (0, 0)  # NOVUS08 3.2: no sets counted


# --- NOVUS08 23.1 / EKML §32(1): match length per stage ---------------------------------


def test_novus08_23_1_all_games_played_refuses_an_incomplete_3_0():
    run = Run(Guide("All four", format="swiss", rounds=1, play_all_games=True))
    run.enter(4)
    run.do(cmd.MakeDraw(1, AT))
    first, second = (p.match_id for p in run.state.rounds[1].pairings)
    with pytest.raises(CompetitionRuleError) as err:
        run.do(cmd.RecordResult(first, MatchResult(3, 0), AT))
    assert err.value.rule == "NOVUS08 23.1"
    run.do(cmd.RecordResult(first, MatchResult(3, 1), AT))
    run.do(cmd.RecordResult(second, MatchResult(4, 0), AT))


def test_ekml_32_1_stop_once_decided_refuses_4_0():
    run = Run(Guide("Stop", format="swiss", rounds=1))
    run.enter(4)
    run.do(cmd.MakeDraw(1, AT))
    with pytest.raises(CompetitionRuleError) as err:
        run.do(cmd.RecordResult("R1-1", MatchResult(4, 0), AT))
    assert err.value.rule == "EKML §32(1)"


def playoff(**settings) -> Run:
    """A Swiss of 8 whose stage plays all four games, with its play-off drawn."""
    run = Run(Guide("Open", format="swiss_playoff", rounds=3, play_all_games=True, **settings))
    run.enter(8)
    run.do(cmd.MakeDraw(4, AT))
    for n in (1, 2, 3):
        if n > 1:
            run.do(cmd.PairNextRound(n))
        for p in run.state.rounds[n].pairings:
            run.do(cmd.RecordResult(p.match_id, MatchResult(3, 1), AT))
    run.do(cmd.DrawPlayoff(AT))
    return run


def test_ekml_32_1_best_of_five_play_off_refuses_4_1_though_the_swiss_plays_all():
    run = playoff()
    with pytest.raises(CompetitionRuleError) as err:
        run.do(cmd.RecordResult("P1-1", MatchResult(4, 1), AT))
    assert err.value.rule == "EKML §32(1)"
    run.do(cmd.RecordResult("P1-1", MatchResult(3, 0), AT))


def test_novus08_23_1_play_off_with_all_games_has_its_own_setting():
    run = playoff(playoff_play_all_games=True)
    with pytest.raises(CompetitionRuleError):
        run.do(cmd.RecordResult("P1-1", MatchResult(3, 0), AT))
    run.do(cmd.RecordResult("P1-1", MatchResult(4, 1), AT))


# --- Unplayed games in Buchholz / Sonneborn–Berger: named guide settings ----------------
# Four players, two rounds, 2/1/0:
#   R1: A–B forfeit to A (B absent: A 2, B 0), C–D 3:1.   R2: A–C 3:1, B–D 2:2.
# Totals: A 4, B 1, C 2, D 1.
# "draw" (default): an unplayed round is a draw against oneself → A = A4 + C2 = 6, B = B1 + D1 = 2.
# "face_value": the real opponent → A = B1 + C2 = 3, B = A4 + D1 = 5.
# "virtual_opponent": score before the round (0) + what the other side scored then + a draw for
#   the one later round → A: 0 + 0 + 1 = 1, so A = 1 + C2 = 3; B: 0 + 2 + 1 = 3, B = 3 + D1 = 4.
# Opponents' unplayed rounds "as_draws": A counts 1 + 2 = 3 and B 1 + 1 = 2 in others' sums
#   → C = D1 + A3 = 4, D = C2 + B2 = 4 (face value: C = 1 + 4 = 5, D = 2 + 1 = 3); A and B
#   meet themselves in their unplayed round at that count too: A = 3 + 2 = 5, B = 2 + 1 = 3.
FORFEIT = MatchResult(3, 0, forfeit=True)
BOARDS = {
    1: [("A", "B", FORFEIT), ("C", "D", MatchResult(3, 1))],
    2: [("A", "C", MatchResult(3, 1)), ("B", "D", MatchResult(2, 2))],
}


def forfeit_table(tie_breaks=("buchholz",), **settings) -> dict:
    """Standings rows of the forfeit example by entrant."""
    guide = Guide("Hand", format="swiss", rounds=2, tie_breaks=tie_breaks, **settings)
    events: list = [ev.CompetitionCreated(guide, AT)]
    events += [ev.EntrantRegistered(x, x, (Person(x, 1980, "M"),), None, 1, AT) for x in "ABCD"]
    events.append(ev.DrawMade(1, tuple("ABCD"), AT))
    for n, boards in BOARDS.items():
        pairs = tuple(ev.Pairing(f"R{n}-{i}", a, b) for i, (a, b, _) in enumerate(boards, 1))
        events.append(ev.RoundPaired(n, pairs, None, "EKML §32(2)"))
        for p, (*_, result) in zip(pairs, boards, strict=True):
            events.append(ev.ResultRecorded(p.match_id, p.a, p.b, result, AT))
    return {r.entrant: r for r in standings(reduce(fold, events, StandingsView()))}


@pytest.mark.parametrize(
    "settings, expected",
    [
        ({}, {"A": 6, "B": 2, "C": 5, "D": 3}),
        ({"unplayed_games_in_buchholz": "face_value"}, {"A": 3, "B": 5, "C": 5, "D": 3}),
        ({"unplayed_games_in_buchholz": "virtual_opponent"}, {"A": 3, "B": 4, "C": 5, "D": 3}),
        ({"opponent_unplayed_in_buchholz": "as_draws"}, {"A": 5, "B": 3, "C": 4, "D": 4}),
    ],
    ids=["draw_against_self", "face_value", "virtual_opponent", "opponents_as_draws"],
)
def test_unplayed_games_in_buchholz_by_the_guides_setting(settings, expected):
    table = forfeit_table(**settings)
    assert {e: r.tie_breaks[0] for e, r in table.items()} == pytest.approx(expected)
    # Won and lost count matches played over the board; a forfeit is its plus or minus only
    # (issue 34: 'W-D-L 3-1-0 (+1)' beside 'Played 4' counted it twice).
    assert (table["A"].won, table["A"].plus, table["B"].lost, table["B"].minus) == (1, 1, 0, 1)


def test_sonneborn_berger_counts_a_forfeit_win_at_face_value_when_set():
    # face value: A beat B (1) and C (2) → 3; default: ½·own 4 + C 2 = 4.
    default = forfeit_table(("sonneborn_berger",))["A"].tie_breaks[0]
    face = forfeit_table(("sonneborn_berger",), unplayed_games_in_buchholz="face_value")
    assert (default, face["A"].tie_breaks[0]) == (4, 3)


def test_guide_settings_round_trip_and_unknown_choice_is_refused():
    import msgspec

    guide = Guide("G", unplayed_games_in_buchholz="virtual_opponent", head_to_head="partial")
    assert msgspec.json.decode(msgspec.json.encode(guide), type=Guide) == guide
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(b'{"name": "G", "head_to_head": "sometimes"}', type=Guide)


def test_a_played_out_round_robin_still_places_everyone():
    run = played_out(Guide("RR", format="round_robin", games_per_match=4), 6, 1, games=4)
    assert sum(len(g) for g in run.do(cmd.FinishCompetition(AT))[0].placings) == 6


def test_ekml_12_2_6_no_finish_while_the_third_place_match_is_unplayed():
    run = playoff()
    for match_id, result in (("P1-1", MatchResult(3, 0)), ("P1-2", MatchResult(3, 1))):
        run.do(cmd.RecordResult(match_id, result, AT))
    run.do(cmd.RecordResult("P2-1", MatchResult(3, 2), AT))
    with pytest.raises(CompetitionRuleError) as err:
        run.do(cmd.FinishCompetition(AT))
    assert err.value.rule == "EKML §12(2)6" and "unplayed" in err.value.message
    run.do(cmd.RecordResult("3P", MatchResult(3, 1), AT))
    assert run.do(cmd.FinishCompetition(AT))[0].placings
