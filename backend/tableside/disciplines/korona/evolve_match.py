"""evolve for match-level events: creation, opening, remarks, warnings, results."""

from __future__ import annotations

from msgspec.structs import replace

from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona.state import MatchState
from tableside.disciplines.korona.vocabulary import index

_CREATED = (
    "match_id",
    "ruleset",
    "fmt",
    "side_a",
    "side_b",
    "games",
    "play_all",
    "points",
    "fill_silences",
    "opening",
)


def created(state: MatchState, e: ev.MatchCreated) -> MatchState:
    """Apply MatchCreated."""
    copied = {name: getattr(e, name) for name in _CREATED}
    return replace(state, created=True, **copied)


def opening(state: MatchState, e: ev.OpeningShotAssigned) -> MatchState:
    """Apply OpeningShotAssigned."""
    return replace(state, protocol_seats=e.seats)


def remark(state: MatchState, e: ev.RemarkGiven) -> MatchState:
    """Apply RemarkGiven."""
    i = index(e.side)
    remarks = (e.count, state.remarks[1]) if i == 0 else (state.remarks[0], e.count)
    if e.reason != "slow_play":
        return replace(state, remarks=remarks)
    s = state.slow_remarks
    slow = (s[0] + 1, s[1]) if i == 0 else (s[0], s[1] + 1)
    return replace(state, remarks=remarks, slow_remarks=slow)


def time_limit(state: MatchState, e: ev.TimeLimitImposed) -> MatchState:
    """Apply TimeLimitImposed."""
    t = state.time_limit
    return replace(state, time_limit=(True, t[1]) if e.side == "A" else (t[0], True))


def warning(state: MatchState, e: ev.WarningGiven) -> MatchState:
    """Apply WarningGiven."""
    return replace(state, yellow=(*state.yellow, e.player)) if e.card == "yellow" else state


def game_ended(state: MatchState, e: ev.GameEnded) -> MatchState:
    """Apply GameEnded."""
    w = state.won
    won = (w[0] + 1, w[1]) if e.winner == "A" else (w[0], w[1] + 1)
    return replace(
        state, won=won, games_played=state.games_played + 1, game=replace(state.game, over=True)
    )


def annulled(state: MatchState, e: ev.GameAnnulled) -> MatchState:
    """Apply GameAnnulled."""
    return replace(state, game=replace(state.game, over=True))


def remaining(state: MatchState, e: ev.RemainingGamesLost) -> MatchState:
    """Apply RemainingGamesLost."""
    w = state.won
    won = (w[0], w[1] + e.games) if e.side == "A" else (w[0] + e.games, w[1])
    return replace(state, won=won, games_played=state.games_played + e.games)


def removed(state: MatchState, e: ev.PlayerRemoved) -> MatchState:
    """Apply PlayerRemoved."""
    return replace(state, removed=(*state.removed, e.player))


def match_ended(state: MatchState, e: ev.MatchEnded) -> MatchState:
    """Apply MatchEnded."""
    game = replace(state.game, over=True)
    points = (e.points_a, e.points_b)
    return replace(
        state,
        ended=True,
        winner=e.winner,
        result_points=points,
        game=game,
        end_reason=e.reason,
        forfeit=e.forfeit,
    )


def signed(state: MatchState, e: ev.ProtocolSigned) -> MatchState:
    """Apply ProtocolSigned."""
    return replace(state, signed=True)
