"""Seats and turn order: singles swap sides, pairs rotate clockwise (EKML §27(2), §28(1))."""

from __future__ import annotations

from tableside.disciplines.korona.state import MatchState, side_of


def rotate(seats: tuple[str, ...]) -> tuple[str, ...]:
    """Everyone moves one seat clockwise; in singles that is the change of sides."""
    return (seats[-1], *seats[:-1])


def seats_for_game(protocol_seats: tuple[str, ...], game_no: int) -> tuple[str, ...]:
    """Seating of a normal game: the opening seat stays, the players move (EKML §27(2), §28(1))."""
    seats = protocol_seats
    for _ in range((game_no - 1) % len(seats)):
        seats = rotate(seats)
    return seats


def next_player(seats: tuple[str, ...], player: str) -> str:
    """The next shooter clockwise (EKML §28(1)); in singles, the opponent."""
    return seats[(seats.index(player) + 1) % len(seats)]


def next_of_side(state: MatchState, side: str, start: str) -> str:
    """The first player of `side` from `start` on, clockwise (start itself included)."""
    seats = state.game.seats
    i = seats.index(start)
    for k in range(len(seats)):
        candidate = seats[(i + k) % len(seats)]
        if side_of(state, candidate) == side:
            return candidate
    raise ValueError(side)


def penalty_recipient(state: MatchState, side: str) -> str:
    """Who takes a side's penalty puck: the player with the turn, else the side's next shooter.

    EKML §28(5) (NOVUS08 21.5): in pairs the penalty goes to the offending pair's player who
    has (or next gets) the turn, even when the partner offended. In singles it is the offender.
    """
    turn = state.game.turn
    if side_of(state, turn) == side:
        return turn
    return next_of_side(state, side, next_player(state.game.seats, turn))
