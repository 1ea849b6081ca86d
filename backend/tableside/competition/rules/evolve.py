"""evolve(state, event) -> state, and the fold that rebuilds a competition from its events."""

from collections.abc import Callable, Iterable
from functools import reduce

from msgspec.structs import replace

from . import events as ev
from .entrants import Entrant
from .state import Competition, Correction, PairedRound, Protest, Recorded, Withdrawal

_HANDLERS: dict[type, Callable] = {}


def evolve(state: Competition, event: object) -> Competition:
    """Apply one event to the state; unknown events leave it as it is."""
    handler = _HANDLERS.get(type(event))
    return handler(state, event) if handler else state


def _on(event_type: type) -> Callable:
    """Register the handler of one event type."""

    def register(handler: Callable) -> Callable:
        _HANDLERS[event_type] = handler
        return handler

    return register


def fold(events: Iterable[object], state: Competition | None = None) -> Competition:
    """A competition is the fold of its events."""
    return reduce(evolve, events, state or Competition())


def _status(state: Competition, entrant_id: str, status: str) -> Competition:
    """The state with one entrant's status changed."""
    entrant = replace(state.entrants[entrant_id], status=status)
    return replace(state, entrants={**state.entrants, entrant_id: entrant})


@_on(ev.CompetitionCreated)
def _competition_created(state: Competition, e: ev.CompetitionCreated) -> Competition:
    return replace(state, guide=e.guide)


@_on(ev.GuideAmended)
def _guide_amended(state: Competition, e: ev.GuideAmended) -> Competition:
    return replace(state, guide=e.guide)


@_on(ev.CompetitionRemoved)
def _competition_removed(state: Competition, e: ev.CompetitionRemoved) -> Competition:
    return replace(state, removed=True)


@_on(ev.EntrantRegistered)
def _entrant_registered(state: Competition, e: ev.EntrantRegistered) -> Competition:
    entrant = Entrant(e.entrant_id, e.name, e.members, e.team, joined_round=e.joined_round)
    return replace(state, entrants={**state.entrants, e.entrant_id: entrant})


@_on(ev.EntrantRenamed)
def _entrant_renamed(state: Competition, e: ev.EntrantRenamed) -> Competition:
    entrant = replace(state.entrants[e.entrant_id], name=e.name, members=e.members)
    return replace(state, entrants={**state.entrants, e.entrant_id: entrant})


@_on(ev.PublishedCorrected)
def _published_corrected(state: Competition, e: ev.PublishedCorrected) -> Competition:
    entrant = replace(state.entrants[e.entrant_id], name=e.name, members=e.members)
    made = Correction(e.edition, e.entrant_id, e.was_name, e.name, e.reason, e.by, e.at)
    return replace(
        state,
        entrants={**state.entrants, e.entrant_id: entrant},
        corrections=(*state.corrections, made),
    )


@_on(ev.TableCountSet)
def _table_count_set(state: Competition, e: ev.TableCountSet) -> Competition:
    return replace(state, tables=e.count)


@_on(ev.EntrantApproved)
def _entrant_approved(state: Competition, e: ev.EntrantApproved) -> Competition:
    return _status(state, e.entrant_id, "approved")


@_on(ev.EntrantCheckedIn)
def _entrant_checked_in(state: Competition, e: ev.EntrantCheckedIn) -> Competition:
    return _status(state, e.entrant_id, "checked_in")


@_on(ev.EntrantWithdrew)
def _entrant_withdrew(state: Competition, e: ev.EntrantWithdrew) -> Competition:
    ruled = Withdrawal(e.played, e.total, e.results_stand, e.rule, e.at)
    state = _status(state, e.entrant_id, "withdrawn")
    return replace(state, withdrawals={**state.withdrawals, e.entrant_id: ruled})


@_on(ev.DrawMade)
def _draw_made(state: Competition, e: ev.DrawMade) -> Competition:
    return replace(state, order=e.order, seed=e.seed)


@_on(ev.RoundPaired)
def _round_paired(state: Competition, e: ev.RoundPaired) -> Competition:
    paired = PairedRound(e.pairings, e.bye)
    return replace(state, rounds={**state.rounds, e.round: paired})


@_on(ev.BracketDrawn)
def _bracket_drawn(state: Competition, e: ev.BracketDrawn) -> Competition:
    return replace(state, bracket=e.bracket, seed=e.seed)


@_on(ev.PlayoffDrawn)
def _playoff_drawn(state: Competition, e: ev.PlayoffDrawn) -> Competition:
    return replace(state, playoff=e.bracket)


@_on(ev.MatchCalled)
def _match_called(state: Competition, e: ev.MatchCalled) -> Competition:
    calls = {**state.calls, e.match_id: e.table}
    called_sides = {**state.called_sides, e.match_id: (e.a, e.b)}
    at = {**state.called_at, e.match_id: e.at}
    boards = {**state.board_calls, e.match_id: e.boards} if e.boards else state.board_calls
    return replace(state, calls=calls, called_at=at, called_sides=called_sides, board_calls=boards)


@_on(ev.MatchMoved)
def _match_moved(state: Competition, e: ev.MatchMoved) -> Competition:
    return replace(state, calls={**state.calls, e.match_id: e.table})


@_on(ev.NoShowReported)
def _no_show_reported(state: Competition, e: ev.NoShowReported) -> Competition:
    return replace(state, no_shows={**state.no_shows, e.match_id: e.absent})


@_on(ev.ResultRecorded)
def _result_recorded(state: Competition, e: ev.ResultRecorded) -> Competition:
    recorded = Recorded(e.a, e.b, e.result, e.at)
    # A match played after all clears its no-show report.
    absent = (
        state.no_shows
        if e.result.forfeit
        else {k: v for k, v in state.no_shows.items() if k != e.match_id}
    )
    results = {**state.results, e.match_id: recorded}
    return replace(state, results=results, no_shows=absent)


@_on(ev.BoardResultRecorded)
@_on(ev.BoardResultCorrected)
def _board_result_recorded(state: Competition, e: ev.BoardResultRecorded) -> Competition:
    boards = {**state.boards.get(e.match_id, {}), e.board: e.result}
    return replace(state, boards={**state.boards, e.match_id: boards})


@_on(ev.ResultCorrected)
def _result_corrected(state: Competition, e: ev.ResultCorrected) -> Competition:
    old = state.results[e.match_id]
    fixed = replace(old, result=e.result)
    return replace(state, results={**state.results, e.match_id: fixed})


@_on(ev.MatchInvalidated)
def _match_invalidated(state: Competition, e: ev.MatchInvalidated) -> Competition:
    results = {k: v for k, v in state.results.items() if k != e.match_id}
    calls = {k: v for k, v in state.calls.items() if k != e.match_id}
    boards = {k: v for k, v in state.boards.items() if k != e.match_id}
    sides = {k: v for k, v in state.called_sides.items() if k != e.match_id}
    tables = {k: v for k, v in state.board_calls.items() if k != e.match_id}
    return replace(
        state,
        results=results,
        calls=calls,
        boards=boards,
        called_sides=sides,
        board_calls=tables,
    )


@_on(ev.ProtestFiled)
def _protest_filed(state: Competition, e: ev.ProtestFiled) -> Competition:
    protest = Protest(e.match_id, e.by, e.rule_cited)
    return replace(state, protests={**state.protests, e.protest_id: protest})


@_on(ev.ProtestDecided)
def _protest_decided(state: Competition, e: ev.ProtestDecided) -> Competition:
    protest = replace(state.protests[e.protest_id], decided=True, upheld=e.upheld)
    return replace(state, protests={**state.protests, e.protest_id: protest})


@_on(ev.CompetitionFinished)
def _competition_finished(state: Competition, e: ev.CompetitionFinished) -> Competition:
    return replace(state, finished=True)
