"""Corrections are new events, never deletions: the table judge's undo of the last entry and
the head judge's ruling, allowed only before the next game starts (EKML §12(3)5)."""

from __future__ import annotations

from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona.batch import Batch
from tableside.disciplines.korona.commands import CorrectDecision, SignProtocol, UndoLastEntry
from tableside.disciplines.korona.errors import RuleViolation
from tableside.disciplines.korona.fold import entry_span, refold
from tableside.disciplines.korona.state import MatchState
from tableside.disciplines.korona.stroke_flow import record_stroke

_FIXED = (ev.MatchCreated, ev.CorrectionRecorded, ev.ProtocolSigned)


def _open(b: Batch) -> None:
    if b.state.signed:
        raise RuleViolation(
            b.cite("correction"),
            "the protocol is signed",
            "corrects_version",
            code="protocol_signed",
        )


def _target(b: Batch, version: int) -> tuple[int, int]:
    window = b.state.window
    span = entry_span(window, version)
    if span is None:
        first = window[0][0] if window else b.state.version + 1
        past = version < first
        why = "only before the next game starts" if past else "no entry at that version"
        raise RuleViolation(
            b.cite("correction"),
            why,
            "corrects_version",
            code="correction_window_closed" if past else "no_entry_at_version",
        )
    if type(window[span[0]][1]) in _FIXED:
        raise RuleViolation(
            b.cite("correction"),
            "that entry cannot be corrected",
            "corrects_version",
            code="entry_not_correctable",
        )
    return span


def undo_last_entry(state: MatchState, cmd: UndoLastEntry) -> list[ev.Event]:
    """The table judge withdraws the last entry still in force, with its consequences.

    A new event, never a delete; repeated undos walk back entry by entry within the window."""
    b = Batch(state)
    _open(b)
    last = next(
        (
            v
            for v, e in reversed(state.window)
            if type(e) in ev.ENTRY_TYPES and type(e) not in _FIXED
        ),
        None,
    )
    if last is None:
        raise RuleViolation(
            b.cite("correction"),
            "nothing to undo in this game",
            "corrects_version",
            code="nothing_to_undo",
        )
    _target(b, last)
    return [
        ev.CorrectionRecorded(corrects_version=last, by="table_judge", reason=cmd.reason, at=cmd.at)
    ]


def correct_decision(state: MatchState, cmd: CorrectDecision) -> list[ev.Event]:
    """The head judge overturns an entry's consequences, optionally re-deciding corrected facts."""
    b = Batch(state)
    _open(b)
    start, _ = _target(b, cmd.corrects_version)
    replacement: tuple[ev.Event, ...] = ()
    if cmd.replacement is not None:
        before = refold(state, state.window[:start])
        replacement = tuple(record_stroke(before, cmd.replacement))
    return [
        ev.CorrectionRecorded(
            corrects_version=cmd.corrects_version,
            by="head_judge",
            reason=cmd.reason,
            replacement=replacement,
            at=cmd.at,
            rule=b.cite("correction"),
        )
    ]


def sign_protocol(state: MatchState, cmd: SignProtocol) -> list[ev.Event]:
    """The table judge signs the protocol once the match has ended (EKML §16(12))."""
    if not state.ended or state.signed:
        raise RuleViolation(
            "EKML §16(12)",
            "the protocol is signed once, after the match",
            "judge",
            code="sign_once_after_match",
        )
    return [ev.ProtocolSigned(judge=cmd.judge, at=cmd.at)]
