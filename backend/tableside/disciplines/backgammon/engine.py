"""decide(state, command) -> events: the single entry point for commands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import (
    decide_clock,
    decide_cube,
    decide_game,
    decide_match,
    decide_officials,
)
from tableside.disciplines.backgammon.events import Event
from tableside.disciplines.backgammon.evolve import fold
from tableside.disciplines.backgammon.state import MatchState

_DECIDERS: dict[type, Callable[[MatchState, Any], list[Event]]] = {
    c.CreateMatch: decide_match.create,
    c.MoveToTable: decide_match.move_to_table,
    c.StartGame: decide_game.start_game,
    c.RollOpening: decide_game.roll_opening,
    c.Roll: decide_game.roll,
    c.RequireReroll: decide_game.require_reroll,
    c.Play: decide_game.play,
    c.AcceptIllegalPlay: decide_game.accept_illegal,
    c.CorrectIllegalPlay: decide_game.correct_illegal,
    c.ReportWrongSetup: decide_game.wrong_setup,
    c.Double: decide_cube.double,
    c.Take: decide_cube.take,
    c.Drop: decide_cube.drop,
    c.Concede: decide_cube.concede,
    c.AnswerConcession: decide_cube.answer_concession,
    c.AgreeResult: decide_cube.agree_result,
    c.ResolveScoreDispute: decide_match.score_dispute,
    c.RecordLateness: decide_match.lateness,
    c.ReportResult: decide_match.report_result,
    c.ConfirmResult: decide_match.confirm_result,
    c.ConfirmScore: decide_match.confirm_score,
    c.TakePause: decide_clock.take_pause,
    c.StartClock: decide_clock.start_clock,
    c.PressClock: decide_clock.press_clock,
    c.StopClock: decide_clock.stop_clock,
    c.ResumeClock: decide_clock.resume_clock,
    c.RuleGameOverClaim: decide_clock.game_over_claim,
    c.ClaimEarlyPickup: decide_clock.early_pickup,
    c.ReportFlag: decide_clock.report_flag,
    c.CallTD: decide_officials.call_td,
    c.GiveRuling: decide_officials.give_ruling,
    c.Appeal: decide_officials.appeal,
    c.RecordTestimony: decide_officials.record_testimony,
    c.FileMonitorReport: decide_officials.file_monitor_report,
    c.CorrectCubeValue: decide_cube.correct_value,
    c.AppointMonitor: decide_officials.appoint_monitor,
    c.BarSpectators: decide_officials.bar_spectators,
    c.AdmitSpectators: decide_officials.admit_spectators,
    c.Expel: decide_officials.expel,
    c.UndoLast: decide_match.undo_last,
    c.PenaliseSlowPlay: decide_match.slow_play,
    c.SetClock: decide_clock.set_clock,
    c.PermitLeftOfBar: decide_game.permit_left_of_bar,
    c.EndLeftOfBar: decide_game.end_left_of_bar,
    c.ExchangeDice: decide_game.exchange_dice,
    c.CorrectResult: decide_match.correct_result,
    c.LodgeObjection: decide_officials.lodge_objection,
}


def decide(state: MatchState, command: c.Command) -> tuple[Event, ...]:
    """The events a command leads to, or RuleViolation citing the paragraph; state untouched."""
    decide_officials.frozen(state, command)
    if isinstance(command, c.DecideAppeal):
        return tuple(_decide_appeal(state, command))
    return tuple(_DECIDERS[type(command)](state, command))


def _decide_appeal(state: MatchState, cmd: c.DecideAppeal) -> list[Event]:
    """The jury's decision takes effect (KSI 5.2): overturned, the board, dice, cube, score
    and clocks return to the call, then what the decision orders is decided on that board;
    the decision itself comes last, so nothing before it can be undone."""
    restored, decided = decide_officials.decide_appeal(state, cmd)
    remedy: list[Event] = []
    if cmd.remedy is not None:
        remedy = _DECIDERS[type(cmd.remedy)](fold(restored, state), cmd.remedy)
    return [*restored, *remedy, decided]
