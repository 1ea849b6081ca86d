"""Can the rounds still to come be paired? A documented search behind the Swiss lookahead.

The legal boards left form a graph (an odd field adds a bye node joined to everyone who has
not had the bye). The guide's remaining k rounds can be paired exactly when that graph holds
k edge-disjoint perfect matchings. Two ways to know:
- Dirac's theorem: a graph on N vertices whose every vertex has at least N/2 neighbours has a
  Hamiltonian cycle, hence (N even) a perfect matching. Playing a round lowers every degree by
  exactly one, so a least degree δ with δ − (k − 1) ≥ N/2 guarantees all k rounds.
- Otherwise a depth-first search: the free vertex with the fewest free neighbours is matched
  first (fail-first), one round after another, with a bounded number of steps per attempt and
  a few attempts in different orders. A search that runs out of steps says "not shown".
"""

from collections.abc import Iterator

BYE = "\x00bye"
Graph = dict[str, set[str]]
Matching = set[frozenset]

STEPS = 4000
ATTEMPTS = 4


# `rng` below is the caller's random.Random(recorded seed): the search stays reproducible.


class _OutOfSteps(Exception):
    """The search spent its steps without an answer."""


def completable(graph: Graph, k: int, rng) -> bool:
    """Whether k more rounds can be paired from these legal boards (shown, not guessed)."""
    if k <= 0 or dirac_safe(graph, k):
        return True
    return first_round(graph, k, rng) is not None


def dirac_safe(graph: Graph, k: int) -> bool:
    """Dirac's bound holds for all k rounds (see the module note)."""
    n = len(graph)
    least = min((len(near) for near in graph.values()), default=0)
    return n % 2 == 0 and ((n <= 2 and least >= k) or least - (k - 1) >= n / 2)


def first_round(graph: Graph, k: int, rng, weight: dict | None = None) -> Matching | None:
    """The first of k disjoint perfect matchings, found by search; None if none was found.
    With weights the first attempt tries heavier boards first (the best pairing that still
    completes), later attempts go in random orders."""
    for attempt in range(ATTEMPTS):
        order = weight if attempt == 0 else None
        steps = [STEPS]
        try:
            found = _rounds(graph, k, rng, order, steps)
        except _OutOfSteps:
            continue
        if found is not None:
            return found
        return None  # searched to the end: there is none
    return None


def _rounds(graph: Graph, k: int, rng, weight, steps) -> Matching | None:
    """A perfect matching after which k − 1 more rounds remain pairable, or None."""
    if min((len(near) for near in graph.values()), default=k) < k:
        return None
    for matching in _matchings(graph, rng, weight, steps):
        rest = without(graph, matching)
        if k == 1 or dirac_safe(rest, k - 1) or _rounds(rest, k - 1, rng, None, steps):
            return matching
    return None


def _matchings(graph: Graph, rng, weight, steps) -> Iterator[Matching]:
    """Every perfect matching of the graph, lazily, the most constrained vertex first."""
    free = set(graph)
    degree = {v: len(near) for v, near in graph.items()}
    chosen: list[frozenset] = []

    def take(v: str, sign: int) -> None:
        for u in graph[v]:
            if u in free:
                degree[u] += sign

    def search() -> Iterator[Matching]:
        if not free:
            yield set(chosen)
            return
        v = min(sorted(free), key=degree.__getitem__)
        for u in _partners(v, graph[v] & free, rng, weight):
            steps[0] -= 1
            if steps[0] < 0:
                raise _OutOfSteps
            free.difference_update((v, u))
            take(v, -1)
            take(u, -1)
            chosen.append(frozenset((v, u)))
            yield from search()
            chosen.pop()
            take(v, 1)
            take(u, 1)
            free.update((v, u))

    yield from search()


def _partners(v: str, near: set[str], rng, weight) -> list[str]:
    """v's candidate partners: heaviest board first with weights, else in a random order."""
    out = sorted(near)
    if weight is not None:
        return sorted(out, key=lambda u: -weight[frozenset((v, u))])
    rng.shuffle(out)
    return out


def without(graph: Graph, matching: Matching) -> Graph:
    """The legal boards left once a matching is played."""
    out = {v: set(near) for v, near in graph.items()}
    for a, b in (tuple(e) for e in matching):
        out[a].discard(b)
        out[b].discard(a)
    return out
