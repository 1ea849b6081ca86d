"""A batch of events being decided: each emitted event is applied to a scratch state at once,
so later decisions in the same command see its effect exactly as evolve will."""

from __future__ import annotations

from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona.errors import RuleViolation
from tableside.disciplines.korona.fold import apply
from tableside.disciplines.korona.rulesets import Ruleset
from tableside.disciplines.korona.rulesets_variants import ruleset_for
from tableside.disciplines.korona.state import MatchState, Pucks, side_of
from tableside.disciplines.korona.vocabulary import Side, index


class Batch:
    """Collects the events of one decide call."""

    __slots__ = ("events", "rs", "state")

    def __init__(self, state: MatchState) -> None:
        self.state = state
        self.events: list[ev.Event] = []
        self.rs: Ruleset = ruleset_for(state.ruleset, state.fill_silences)

    def emit(self, event: ev.Event) -> None:
        """Record an event and apply it to the scratch state."""
        self.events.append(event)
        self.state = apply(self.state, event, self.state.version + 1)

    def cite(self, key: str) -> str:
        """The active ruleset's paragraph for a rule key."""
        return self.rs.cite[key]

    def pucks(self, side: str) -> Pucks:
        """One side's pucks in the current game."""
        return self.state.game.pucks[index(side)]

    def side(self, player: str, field: str = "player") -> Side:
        """The side of a player, or a violation if the player is not in this match."""
        side = side_of(self.state, player)
        if side is None:
            raise RuleViolation(
                self.cite("no_turn"),
                f"{player!r} does not play in this match",
                field,
                code="not_in_match",
            )
        return side

    @property
    def pairs(self) -> bool:
        return self.state.fmt == "pairs"

    def restored(self, side: str, count: int, what: str, key: str, from_pocket: int = 0) -> None:
        """Pucks put back where they were (a pocketed one comes out of the pocket)."""
        rule = self.rs.cite.get(key, key)
        self.emit(
            ev.PucksRestored(side=side, count=count, from_pocket=from_pocket, what=what, rule=rule)
        )

    def left(self, side: str, count: int, what: str, key: str) -> None:
        """Pucks that stay where they went."""
        self.emit(ev.OpponentPucksLeft(side=side, count=count, what=what, rule=self.cite(key)))

    def to_centre(self, side: str, count: int, first_touched: bool) -> None:
        """Pucks over the cushion go to the centre circle (EKML §20(14))."""
        rule = self.cite("over_to_centre")
        self.emit(ev.PucksToCentre(side=side, count=count, first_touched=first_touched, rule=rule))
