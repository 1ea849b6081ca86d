"""evolve, fold and the correction re-fold: the only way state changes."""

from __future__ import annotations

from collections.abc import Iterable

from msgspec.structs import replace

from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona.evolve import HANDLERS
from tableside.disciplines.korona.state import MatchState, initial_state


def evolve(state: MatchState, event: ev.Event) -> MatchState:
    """Apply one event; the event gets the next version of the stream."""
    return apply(state, event, state.version + 1)


def fold(events: Iterable[ev.Event], state: MatchState | None = None) -> MatchState:
    """The state after a sequence of events (reduce(evolve, events, initial_state()))."""
    state = initial_state() if state is None else state
    for event in events:
        state = apply(state, event, state.version + 1)
    return state


def apply(state: MatchState, event: ev.Event, version: int) -> MatchState:
    """Apply one event stored at `version`."""
    if type(event) is ev.CorrectionRecorded:
        return _correct(state, event, version)
    new = HANDLERS[type(event)](state, event)
    return replace(new, version=version, window=(*new.window, (version, event)))


def entry_span(window: tuple, version: int) -> tuple[int, int] | None:
    """Window indexes [start, end) of the entry stored at `version`, with its consequences."""
    start = next(
        (i for i, (v, e) in enumerate(window) if v == version and type(e) in ev.ENTRY_TYPES), None
    )
    if start is None:
        return None
    end = next(
        (j for j in range(start + 1, len(window)) if type(window[j][1]) in ev.ENTRY_TYPES),
        len(window),
    )
    return start, end


def window_start(state: MatchState) -> MatchState:
    """The state the correction window starts from (before the current game began)."""
    if state.base is None:
        return initial_state()
    return replace(state.base, base=state.base, window=())


def refold(state: MatchState, entries: tuple) -> MatchState:
    """Re-apply window entries from the window's start; earlier corrections are already applied."""
    s = window_start(state)
    for version, event in entries:
        if type(event) is ev.CorrectionRecorded:
            s = replace(s, version=version, window=(*s.window, (version, event)))
        else:
            s = apply(s, event, version)
    return s


def splice(entries: tuple, event: ev.CorrectionRecorded) -> tuple | None:
    """The one correction splice: `(version, event)` entries with the entry `event` corrects
    (and its consequences) replaced by its replacement, stored at the corrected version; None
    when no entry there is corrected. The engine's window and the match view's effective
    entries both go through it."""
    span = entry_span(entries, event.corrects_version)
    if span is None:
        return None
    start, end = span
    replaced = tuple((event.corrects_version, e) for e in event.replacement)
    return (*entries[:start], *replaced, *entries[end:])


def _correct(state: MatchState, event: ev.CorrectionRecorded, version: int) -> MatchState:
    spliced = splice(state.window, event)
    if spliced is None:  # decide refuses this; a stored stream never gets here
        return replace(state, version=version)
    return replace(refold(state, (*spliced, (version, event))), version=version)
