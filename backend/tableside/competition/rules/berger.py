"""Round robin by the Berger tables (FIDE C.05 Annex 1): the first-listed opens (EKML §31(1)1)."""

Pair = tuple[int, int]


def berger_rounds(players: int) -> tuple[tuple[Pair, ...], ...]:
    """Every round of a round robin by starting number (1-based); an odd field gets a bye
    number `players + 1`, whoever meets it sits out."""
    n = players + players % 2
    half = n // 2
    current = tuple((i, n + 1 - i) for i in range(1, half + 1))
    rounds = [current]
    for _ in range(n - 2):
        current = tuple(_advance(pair, n, half) for pair in current)
        rounds.append(current)
    return tuple(rounds)


def _advance(pair: Pair, n: int, half: int) -> Pair:
    """The same board one round later: numbers move on by n/2 (mod n-1); n keeps its board
    and swaps side each round."""
    a, b = (x if x == n else (x - 1 + half) % (n - 1) + 1 for x in pair)
    return (b, a) if n in pair else (a, b)


def round_robin_pairings(order: tuple[str, ...]) -> tuple[tuple[tuple[str, str | None], ...], ...]:
    """Berger rounds over entrant ids in drawn order; a bye shows as (id, None)."""
    rounds = []
    for table in berger_rounds(len(order)):
        boards = []
        for a, b in table:
            ids = [order[x - 1] if x <= len(order) else None for x in (a, b)]
            boards.append((ids[1], None) if ids[0] is None else (ids[0], ids[1]))
        rounds.append(tuple(boards))
    return tuple(rounds)
