"""Calling matches to free tables: the waiting matches, in calling order (EKML §17(3)), take
the free tables lowest first — what the TD and the players expect to see on the hall plan
(issue 34: a rotation away from a player's last table skipped a free table 1 and read as a
fault; EKML §4(1) asks for equal tables, not for moving players; decision 0100)."""


def assign_tables(
    matches: list[tuple[str, tuple[str, ...]]], free_tables: list[int]
) -> tuple[tuple[str, int], ...]:
    """Match ids (with their players, in calling order) onto the free tables, lowest first;
    more matches than tables: the rest wait for the next call."""
    return tuple((m, t) for (m, _), t in zip(matches, sorted(free_tables), strict=False))
