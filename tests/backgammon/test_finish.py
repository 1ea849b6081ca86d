"""Finishing games (KSI 4.5), results (KSI 4.6), scoring (KSI 4.7), lateness (KSI 2.2.4)."""

from __future__ import annotations

from msgspec.structs import replace
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon import fold
from tableside.disciplines.backgammon import state as st

from .gwt import at, given, match, opened, refused, side, then

RACE = (side({6: 5, 5: 5, 4: 5}), side({6: 5, 5: 5, 4: 5}))  # no contact


def test_ksi_4_5_no_concession_while_checkers_can_be_hit() -> None:
    refused(opened(), c.Concede(side="B", kind="single"), "KSI 4.5")


def test_ksi_4_5_concession_of_single_gammon_or_backgammon_once_contact_is_gone() -> None:
    for kind, points in (("single", 1), ("gammon", 2), ("backgammon", 3)):
        s = at(*RACE, turn="A", cube=2, owner="B")
        s = given(s, [c.Concede(side="A", kind=kind)])
        assert s.game.concession == ("A", kind)
        then(
            s,
            c.AnswerConcession(side="B", accept=True),
            (ev.GameEnded, {"winner": "B", "points": 2 * points, "by": "concession"}),
        )


def test_ksi_4_5_declined_concession_play_goes_on() -> None:
    s = given(at(*RACE), [c.Concede(side="A", kind="single")])
    events = then(s, c.AnswerConcession(side="B", accept=False), (ev.ConcessionDeclined, {}))
    after = fold(events, s)
    assert after.game.phase == st.ROLL and after.game.concession == ("", "")
    refused(s, c.AnswerConcession(side="A", accept=True), "KSI 4.5")


def test_ksi_4_5_players_may_not_agree_results() -> None:
    refused(opened(), c.AgreeResult(winner="A"), "KSI 4.5")
    refused(at(*RACE), c.AgreeResult(winner="A", match=True), "KSI 4.5")


def test_ksi_4_5_match_played_to_the_stated_points() -> None:
    s = at(side({1: 1, 0: 14}), side({12: 15}), (2, 1), length=3)
    events = then(
        s,
        c.Play(side="A", moves=((1, 0),)),
        (ev.GameEnded, {"points": 2, "score": (2, 0)}),
    )
    assert not fold(events, s).over
    s = replace(s, score=(1, 0))
    events = then(
        s, c.Play(side="A", moves=((1, 0),)), (ev.MatchEnded, {"winner": "A", "score": (3, 0)})
    )
    after = fold(events, s)
    assert after.over and after.winner == "A"
    refused(after, c.StartGame(), "KSI 4.5")


def _won() -> st.MatchState:
    s = at(side({1: 1, 0: 14}), side({12: 15}), (2, 1), length=1)
    return given(s, [c.Play(side="A", moves=((1, 0),))])


def test_ksi_4_6_the_winner_reports_the_td_confirms() -> None:
    s = _won()
    refused(s, c.ReportResult(side="B"), "KSI 4.6")
    refused(s, c.ConfirmResult(), "KSI 4.6")
    s = fold(then(s, c.ReportResult(side="A"), (ev.ResultReported, {"rule": "KSI 4.6"})), s)
    s = fold(then(s, c.ConfirmResult(), (ev.ResultConfirmed, {})), s)
    assert s.confirmed
    refused(s, c.ConfirmResult(), "KSI 4.6")


def test_ksi_4_7_in_a_score_dispute_the_trailing_players_sheet_governs() -> None:
    s = replace(match(7), score=(2, 4))
    sheet_a, sheet_b = (2, 5), (3, 4)
    then(
        s,
        c.ResolveScoreDispute(sheet_a=sheet_a, sheet_b=sheet_b),
        (ev.ScoreSet, {"score": (2, 5), "rule": "KSI 4.7"}),
    )
    s = replace(match(7), score=(5, 1))
    then(
        s, c.ResolveScoreDispute(sheet_a=sheet_a, sheet_b=sheet_b), (ev.ScoreSet, {"score": (3, 4)})
    )


def test_ksi_4_7_disputes_only_between_games() -> None:
    refused(
        replace(opened(), score=(1, 2)),
        c.ResolveScoreDispute(sheet_a=(1, 2), sheet_b=(1, 3)),
        "KSI 4.7",
    )


def test_ksi_4_7_both_players_confirm_the_score_after_each_game() -> None:
    s = at(side({1: 1, 0: 14}), side({12: 15}), (2, 1), length=7)
    refused(s, c.ConfirmScore(side="A"), "KSI 4.7")  # a game in progress
    s = given(s, [c.Play(side="A", moves=((1, 0),))])  # A wins a gammon: 2:0
    s = fold(
        then(
            s,
            c.ConfirmScore(side="B"),
            (ev.ScoreConfirmed, {"side": "B", "score": (2, 0), "rule": "KSI 4.7"}),
        ),
        s,
    )
    refused(s, c.ConfirmScore(side="B"), "KSI 4.7")  # once per player and game
    refused(s, c.ConfirmScore(side="C"), "KSI 1.2.1")
    s = fold(then(s, c.ConfirmScore(side="A"), (ev.ScoreConfirmed, {"side": "A"})), s)
    assert s.game.sheets == ("B", "A")
    s = given(s, [c.StartGame()])
    assert s.game.sheets == ()  # the next game's sheets start afresh
    refused(match(7), c.ConfirmScore(side="A"), "KSI 4.7")  # no game played yet


def test_ksi_1_2_2_a_match_is_created_under_these_rules_and_knows_its_table() -> None:
    """Creating a match is no rule of play: the event cites 1.2.2 (these tournament rules
    apply), a refused creation cites no paragraph rather than a wrong one."""
    created = given(
        st.initial_state(),
        [c.CreateMatch(match_id="m", player_a="Ása", player_b="Bjarni", length=3, table=5)],
    )
    assert created.table == 5
    for table in (-1, 10_000):
        command = c.CreateMatch(match_id="m", player_a="A", player_b="B", length=3, table=table)
        refused(st.initial_state(), command, "")
    then(
        st.initial_state(),
        c.CreateMatch(match_id="m", player_a="A", player_b="B", length=3),
        (ev.MatchCreated, {"rule": "KSI 1.2.2"}),
    )


def test_ksi_2_2_4_lateness_one_point_per_five_minutes() -> None:
    s = match(7)
    refused(s, c.RecordLateness(side="A", minutes=4), "KSI 2.2.4")
    events = then(
        s,
        c.RecordLateness(side="A", minutes=11),
        (ev.PenaltyPoints, {"side": "A", "points": 2, "score": (0, 2), "rule": "KSI 2.2.4"}),
    )
    after = fold(events, s)
    assert after.penalty == (2, 0) and not after.over


def test_ksi_2_2_4_more_than_half_the_length_loses_the_match() -> None:
    s = match(7)
    then(s, c.RecordLateness(side="B", minutes=19), (ev.PenaltyPoints, {"points": 3}))
    events = then(
        s,
        c.RecordLateness(side="B", minutes=20),
        (ev.PenaltyPoints, {"points": 4}),
        (ev.MatchEnded, {"winner": "A", "rule": "KSI 2.2.4"}),
    )
    assert fold(events, s).over


def test_ksi_2_2_4_penalty_points_kept_apart_when_the_guide_says_so() -> None:
    s = match(7, penalty_to_score=False)
    events = then(s, c.RecordLateness(side="A", minutes=5), (ev.PenaltyPoints, {"score": (0, 0)}))
    assert fold(events, s).penalty == (1, 0)


def test_ksi_4_6_a_wrong_result_is_corrected_before_the_next_round() -> None:
    s = given(_won(), [c.ReportResult(side="A"), c.ConfirmResult()])
    refused(opened(), c.CorrectResult(winner="B", score=(0, 1), reason="x"), "KSI 4.6")
    late = c.CorrectResult(winner="B", score=(0, 1), reason="wrong sheet", next_round_started=True)
    refused(s, late, "KSI 4.6")
    refused(s, c.CorrectResult(winner="B", score=(0, 0), reason="wrong sheet"), "KSI 4.6")
    events = then(
        s,
        c.CorrectResult(winner="B", score=(0, 1), reason="wrong sheet"),
        (ev.ResultCorrected, {"winner": "B", "rule": "KSI 4.6"}),
    )
    after = fold(events, s)
    assert (after.winner, after.score, after.confirmed) == ("B", (0, 1), False)
    then(after, c.ReportResult(side="B"), (ev.ResultReported, {}))
    refused(after, c.UndoLast(to_version=s.version), "")  # no undo past the correction
