"""Between a competition and its match streams, whatever the discipline: which stream plays a
competition's match (a team match: one stream per board, EKML §29(2)), and back. Starting a
called match and reading a finished one back are each discipline's flow
(`competition/flows.py`)."""

from __future__ import annotations

import uuid
from uuid import UUID

from tableside.competition.rules.state import Competition


def match_stream(comp_id: UUID, match_id: str) -> UUID:
    """The match stream of a competition's match (`R3-2`, `W1-4`): a uuid5 of the two."""
    return uuid.uuid5(comp_id, match_id)


def match_id_of(comp_id: UUID, state: Competition, stream: UUID) -> str | None:
    """The competition's match id a match stream plays, if any."""
    return next((m for m in state.calls if match_stream(comp_id, m) == stream), None)


def board_stream(comp_id: UUID, match_id: str, board: int) -> UUID:
    """The match stream of one board of a team match (`R1-2`, board 3)."""
    return uuid.uuid5(comp_id, f"{match_id}/board {board}")


def board_of(comp_id: UUID, state: Competition, stream: UUID) -> tuple[str, int] | None:
    """The team match and board a match stream plays, if it is a board's."""
    return next(
        (
            (m, b.board)
            for m, boards in state.board_calls.items()
            for b in boards
            if board_stream(comp_id, m, b.board) == stream
        ),
        None,
    )
