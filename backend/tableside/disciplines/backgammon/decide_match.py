"""Deciders for the match: creation, score disputes, lateness, the result (KSI 2.2.4, 4.6, 4.7)."""

from __future__ import annotations

from tableside.disciplines.backgammon import cite as k
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon import guards
from tableside.disciplines.backgammon import state as st
from tableside.disciplines.backgammon.errors import RuleViolation
from tableside.disciplines.backgammon.evolve import undo_target
from tableside.disciplines.backgammon.state import MatchState, index, other
from tableside.disciplines.backgammon.timing import lateness_points, loses_on_penalty
from tableside.names import person_name, refuse_lookalike

MAX_LENGTH = 99
MAX_TABLE = 9999


def _within_bounds(cmd: c.CreateMatch) -> None:
    """A length and a table the record can hold."""
    if not 1 <= cmd.length <= MAX_LENGTH:
        why, most = f"a match is 1 to {MAX_LENGTH} points", {"most": MAX_LENGTH}
        raise RuleViolation(k.RECORD, why, "length", code="bg_length_range", params=most)
    if not 0 <= cmd.table <= MAX_TABLE:
        why, most = f"a table 1 to {MAX_TABLE}, or none", {"most": MAX_TABLE}
        raise RuleViolation(k.RECORD, why, "table", code="bg_table_range", params=most)


def create(state: MatchState, cmd: c.CreateMatch) -> list[ev.Event]:
    if state.created:
        raise RuleViolation(
            k.RECORD, "the match already exists", "match_id", code="bg_match_exists"
        )
    _within_bounds(cmd)
    player_a = person_name(cmd.player_a, "player_a")  # as RFC 8266 §2 stores a name
    player_b = person_name(cmd.player_b, "player_b")
    if player_a == player_b:
        raise RuleViolation(k.RECORD, "two different players", "player_b", code="bg_two_players")
    refuse_lookalike(player_b, (player_a,), "player_b")  # UTS #39 §4
    return [
        ev.MatchCreated(
            match_id=cmd.match_id,
            player_a=player_a,
            player_b=player_b,
            length=cmd.length,
            clock=cmd.clock,
            penalty_to_score=cmd.penalty_to_score,
            series=cmd.series,
            table=cmd.table,
            other_rules=cmd.other_rules,
            rule=k.RECORD if cmd.other_rules else k.RULES_APPLY,
        )
    ]


def move_to_table(state: MatchState, cmd: c.MoveToTable) -> list[ev.Event]:
    """A created match not yet begun to another table of the hall (KSI 1.1: the TD judges)."""
    if not state.created or state.over or state.games:
        raise RuleViolation(k.TD_JUDGEMENT, "the match has begun", code="bg_match_begun")
    if not 1 <= cmd.table <= MAX_TABLE:
        why, most = f"a table 1 to {MAX_TABLE}", {"most": MAX_TABLE}
        raise RuleViolation(k.RECORD, why, "table", code="bg_table_range", params=most)
    return [ev.TableChanged(table=cmd.table, from_table=state.table, rule=k.TD_JUDGEMENT)]


def _between_games(state: MatchState, rule: str) -> None:
    """Recorded between games only; `rule` is the paragraph that says so."""
    if not state.created or state.over:
        raise RuleViolation(k.RECORD, "no match in progress", code="bg_no_match_in_progress")
    if state.game.phase != st.OVER:
        raise RuleViolation(rule, "only between games", "", code="bg_only_between_games")


def score_dispute(state: MatchState, cmd: c.ResolveScoreDispute) -> list[ev.Event]:
    """The scoresheet of the player behind in the match governs (KSI 4.7); both sheets are
    recorded with the score that follows."""
    _between_games(state, k.SCORING)
    a, b = state.score
    if a == b:
        raise RuleViolation(
            k.SCORING,
            "the score is level: neither player is behind",
            "sheet_a",
            code="bg_score_level",
        )
    sheet = cmd.sheet_a if a < b else cmd.sheet_b
    if max(sheet) >= state.length or min(sheet) < 0:
        raise RuleViolation(
            k.SCORING, "a scoresheet of a match in progress", "sheet_a", code="bg_scoresheet_range"
        )
    return [ev.ScoreSet(score=sheet, sheet_a=cmd.sheet_a, sheet_b=cmd.sheet_b, rule=k.SCORING)]


def lateness(state: MatchState, cmd: c.RecordLateness) -> list[ev.Event]:
    """Late at the start or over a pause: 1 penalty point per full 5 minutes; more than half the
    length loses the match (KSI 2.2.4). Lateness at the start and pause overruns are between
    games, which is where 2.2.4 (start times) and 2.2.2 (pauses between games) place them."""
    _between_games(state, k.LATE)
    guards.side(cmd.side)
    points = lateness_points(cmd.minutes)
    if not points:
        raise RuleViolation(
            k.LATE, "penalty points start at 5 minutes", "minutes", code="bg_lateness_from_5"
        )
    events = _penalty(state, cmd.side, points, cmd.minutes, cmd.reason, k.LATE)
    received = state.penalty[index(cmd.side)] + points
    if loses_on_penalty(received, state.length) and len(events) == 1:
        events.append(ev.MatchEnded(winner=other(cmd.side), score=events[0].score, rule=k.LATE))
    return events


def slow_play(state: MatchState, cmd: c.PenaliseSlowPlay) -> list[ev.Event]:
    """The TD's penalty points for unreasonably slow play (KSI 2.3.1.2)."""
    if not state.created or state.over:
        raise RuleViolation(k.SLOW_PENALTY, "no match in progress", code="bg_no_match_in_progress")
    guards.side(cmd.side)
    if not 1 <= cmd.points <= state.length:
        raise RuleViolation(
            k.SLOW_PENALTY,
            "1 to the match length in points",
            "points",
            code="bg_penalty_points_range",
        )
    return _penalty(state, cmd.side, cmd.points, 0, "slow play", k.SLOW_PENALTY)


def _penalty(
    state: MatchState, side: str, points: int, minutes: int, reason: str, rule: str
) -> list[ev.Event]:
    """Penalty points, credited to the opponent's score when the guide says so; reaching the
    length that way wins him the match."""
    score = list(state.score)
    if state.penalty_to_score:
        score[index(other(side))] += points
    after = (score[0], score[1])
    events: list[ev.Event] = [
        ev.PenaltyPoints(
            side=side, points=points, minutes=minutes, score=after, reason=reason, rule=rule
        )
    ]
    if after[index(other(side))] >= state.length:
        events.append(ev.MatchEnded(winner=other(side), score=after, rule=rule))
    return events


def confirm_score(state: MatchState, cmd: c.ConfirmScore) -> list[ev.Event]:
    """A player's scoresheet agrees with the record after a game, once each; the leader
    compares the sheets after each game (KSI 4.7). A sheet that differs is a dispute for the TD
    (ResolveScoreDispute), not a confirmation."""
    guards.side(cmd.side)
    g = state.game
    if not state.created or g.phase != st.OVER or g.game_no == 0:
        raise RuleViolation(
            k.SCORING, "scoresheets are compared after a game", "side", code="bg_sheets_after_game"
        )
    if cmd.side in g.sheets:
        raise RuleViolation(
            k.SCORING,
            "this player has confirmed the score already",
            "side",
            code="bg_score_confirmed_already",
        )
    return [ev.ScoreConfirmed(side=cmd.side, game_no=g.game_no, score=state.score, rule=k.SCORING)]


def report_result(state: MatchState, cmd: c.ReportResult) -> list[ev.Event]:
    """The match winner reports the result (KSI 4.6)."""
    if not state.over or cmd.side != state.winner:
        raise RuleViolation(
            k.RESULT, "the winner reports a finished match", "side", code="bg_winner_reports"
        )
    if state.reported:
        raise RuleViolation(
            k.RESULT, "the result has been reported", "side", code="bg_result_reported"
        )
    return [ev.ResultReported(side=cmd.side, rule=k.RESULT)]


def confirm_result(state: MatchState, cmd: c.ConfirmResult) -> list[ev.Event]:
    """The TD confirms and publishes it (KSI 4.6)."""
    if not state.reported or state.confirmed:
        raise RuleViolation(k.RESULT, "no reported result to confirm", code="bg_no_reported_result")
    return [ev.ResultConfirmed(rule=k.RESULT)]


def undo_last(state: MatchState, cmd: c.UndoLast) -> list[ev.Event]:
    """Back to the state after `to_version`, within the game in progress or just ended, while
    the result is not yet reported: a recording slip, which no KSI paragraph is about. A
    jury's decision is final (KSI 5.2): no undo reaches back past it."""
    if not state.created or state.reported:
        raise RuleViolation(k.RECORD, "nothing to undo", "to_version", code="bg_nothing_to_undo")
    if 0 <= cmd.to_version < state.final_at:
        raise RuleViolation(
            k.APPEAL,
            "the jury's decision is final: it stays on the record",
            "to_version",
            code="bg_jury_final_on_record",
        )
    if not 0 <= cmd.to_version < state.version or undo_target(state, cmd.to_version) is None:
        raise RuleViolation(
            k.RECORD,
            "only entries of the current game can be undone",
            "to_version",
            code="bg_undo_current_game",
        )
    return [ev.EntryUndone(to_version=cmd.to_version, rule=k.RECORD)]


def correct_result(state: MatchState, cmd: c.CorrectResult) -> list[ev.Event]:
    """Only a finished match, only before the next round starts (KSI 4.6) — so never once the
    competition's results are published: the TD recorded them for all to see (KSI 4.6)."""
    if not state.over:
        raise RuleViolation(
            k.RESULT,
            "only a finished match's result is corrected",
            "winner",
            code="bg_correct_finished_only",
        )
    _still_open(cmd)
    guards.side(cmd.winner)
    won, lost = cmd.score[index(cmd.winner)], cmd.score[index(other(cmd.winner))]
    if won < state.length or lost >= state.length or lost < 0 or not cmd.reason.strip():
        raise RuleViolation(
            k.RESULT,
            "a winner's score of the match length, and why",
            "score",
            code="bg_corrected_score",
        )
    return [
        ev.ResultCorrected(winner=cmd.winner, score=cmd.score, reason=cmd.reason, rule=k.RESULT)
    ]


def _still_open(cmd: c.CorrectResult) -> None:
    """Not once the results are published, nor once the next round has started (KSI 4.6)."""
    if cmd.published:
        raise RuleViolation(
            k.RESULT,
            "the competition's results are published: the result stands",
            "winner",
            code="bg_results_published",
        )
    if cmd.next_round_started:
        raise RuleViolation(
            k.RESULT,
            "the next round has started: the result stands",
            "winner",
            code="bg_next_round_started",
        )
