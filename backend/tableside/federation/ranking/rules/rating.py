"""The rating (decision 0170): Weng & Lin (2011) Algorithm 4, Plackett–Luce, through
`openskill` with its published defaults written out here — a new player μ 25, σ 25/3;
β 25/6; τ 25/300 (added to σ before each match); κ 0.0001. Each played match is one update,
in the order the events were held and, within one, the order played; a pair is a team of its
two players. A player's published rating is the conservative `ordinal` μ − 3σ."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec
from openskill.models import PlackettLuce

from .results import EventResult, RatedMatch

MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
TAU = 25.0 / 300.0
KAPPA = 0.0001
Z = 3.0
_RANKS = {"a": [1, 2], "b": [2, 1], "draw": [1, 1]}


class Rating(msgspec.Struct, frozen=True):
    """A player's rating: μ, σ and the ordinal μ − Zσ the list is ordered by."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        """The conservative estimate the list publishes and orders by."""
        return self.mu - Z * self.sigma


def model() -> PlackettLuce:
    """The model with every parameter the decision names, none left to a library default."""
    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU, kappa=KAPPA)


def rate_match(ratings: dict[str, Rating], match: RatedMatch, pl: PlackettLuce) -> None:
    """Update `ratings` in place by one played match."""
    teams = [
        [
            pl.rating(mu=ratings.get(p, Rating()).mu, sigma=ratings.get(p, Rating()).sigma)
            for p in side
        ]
        for side in (match.a, match.b)
    ]
    rated = pl.rate(teams, ranks=_RANKS[match.winner])
    for side, team in zip((match.a, match.b), rated, strict=True):
        for player, new in zip(side, team, strict=True):
            ratings[player] = Rating(new.mu, new.sigma)


def rate_event(
    ratings: dict[str, Rating], event: EventResult, pl: PlackettLuce
) -> dict[str, tuple[str, ...]]:
    """Update `ratings` by every match of `event`; each player → the matches that moved them."""
    moved: dict[str, list[str]] = {}
    for match in event.matches:
        rate_match(ratings, match, pl)
        for player in (*match.a, *match.b):
            moved.setdefault(player, []).append(match.match_id)
    return {player: tuple(ids) for player, ids in moved.items()}


def rate_all(events: Iterable[EventResult]) -> dict[str, Rating]:
    """Everyone's rating after `events` (in the order given)."""
    ratings: dict[str, Rating] = {}
    pl = model()
    for event in events:
        rate_event(ratings, event, pl)
    return ratings
