"""A team's board order checked against a ranking list (EKML §29(2): boards I, II, III… are
ordered "spordijärkude või kinnitatud edetabeli alusel", by grades or an approved ranking
list). A board may not hold a player the list places below a later board's player; a player
not on the list ranks below everyone on it, equal with every other unlisted player."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

RULE = "EKML §29(2)"


class BoardOrderFinding(msgspec.Struct, frozen=True):
    """Board `board` holds `player` (place `place`, 0: not on the list) although the later
    board `later_board` holds `later_player`, placed higher (`later_place`)."""

    rule: str
    board: int
    player: str
    place: int
    later_board: int
    later_player: str
    later_place: int


def check_board_order(
    boards: Sequence[str], places: dict[str, int]
) -> tuple[BoardOrderFinding, ...]:
    """Every pair of boards out of the list's order; none when the order follows it. `boards`
    are the team's players by board (I first), `places` the list's place of each listed one."""
    unlisted = max(places.values(), default=0) + 1
    rank = [places.get(player, unlisted) for player in boards]
    return tuple(
        BoardOrderFinding(
            RULE, i + 1, boards[i], places.get(boards[i], 0), j + 1, boards[j], places[boards[j]]
        )
        for i in range(len(boards))
        for j in range(i + 1, len(boards))
        if rank[j] < rank[i]
    )
