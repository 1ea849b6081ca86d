"""decide(state, command) -> events: the single entry point for commands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tableside.disciplines.korona import commands as c
from tableside.disciplines.korona import (
    corrections,
    incidents,
    match,
    remarks,
    stroke_flow,
    table_reports,
)
from tableside.disciplines.korona.events import Event
from tableside.disciplines.korona.state import MatchState

_DECIDERS: dict[type, Callable[[MatchState, Any], list[Event]]] = {
    c.CreateMatch: match.create,
    c.AssignOpeningShot: match.assign_opening,
    c.RecordStroke: stroke_flow.record_stroke,
    c.DeclineTurn: table_reports.decline_turn,
    c.ReportIncident: incidents.report_incident,
    c.GiveRemark: remarks.give_remark,
    c.GiveWarning: remarks.give_warning,
    c.ReportTimeExceeded: table_reports.time_exceeded,
    c.KnockTable: table_reports.knock_table,
    c.ForgetDebt: table_reports.forget_debt,
    c.CorrectDecision: corrections.correct_decision,
    c.UndoLastEntry: corrections.undo_last_entry,
    c.SignProtocol: corrections.sign_protocol,
}


def decide(state: MatchState, command: c.Command) -> tuple[Event, ...]:
    """The events a command leads to, or RuleViolation citing the paragraph; state untouched."""
    return tuple(_DECIDERS[type(command)](state, command))
