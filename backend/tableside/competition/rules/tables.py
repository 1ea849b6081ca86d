"""Calling matches to free tables: a player is not sent to the same table twice in a row
when another free table will do (a fair-venue habit; EKML §4(1) wants equal tables)."""


def assign_tables(
    matches: list[tuple[str, tuple[str, ...]]],
    free_tables: list[int],
    last_table: dict[str, int],
) -> tuple[tuple[str, int], ...]:
    """Match ids (with their players, in calling order) onto free tables; each match takes
    the lowest free table none of its players sat at last, else the lowest free one."""
    free = sorted(free_tables)
    calls = []
    for match_id, players in matches:
        if not free:
            break
        table = _pick(free, {last_table.get(p) for p in players})
        free.remove(table)
        calls.append((match_id, table))
    return _swap_repeats(tuple(calls), dict(matches), last_table)


def _pick(free: list[int], avoid: set[int | None]) -> int:
    """The lowest free table not in `avoid`, or the lowest free table."""
    return next((t for t in free if t not in avoid), free[0])


def _swap_repeats(calls, players, last_table) -> tuple[tuple[str, int], ...]:
    """Where a repeat was forced, swap tables with another call if that removes it."""
    calls = list(calls)
    for i, (mid, table) in enumerate(calls):
        if not _repeats(players[mid], table, last_table):
            continue
        for j, (other, t2) in enumerate(calls):
            swap_ok = not _repeats(players[mid], t2, last_table)
            if j != i and swap_ok and not _repeats(players[other], table, last_table):
                calls[i], calls[j] = (mid, t2), (other, table)
                break
    return tuple(calls)


def _repeats(players: tuple[str, ...], table: int, last_table: dict[str, int]) -> bool:
    """Whether any of the players sat at this table in their last match."""
    return any(last_table.get(p) == table for p in players)
