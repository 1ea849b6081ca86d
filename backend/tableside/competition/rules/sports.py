"""What a discipline says about a competition, its **sport** (decision 0149): the guide it
accepts, the shape of a match result, how long an absent player is waited for, the paragraph a
result is recorded under, the smallest elimination bracket, a Swiss bye's points, the
competition policy of its rulesets and the read model of its matches. The competition's rules
ask the sport of the guide (`of(guide)`); each discipline's slice makes one
(`plugins/<name>/competition_rules.py`) and the house's list registers it
(`plugins/house.py`, decision 0173): the competition names no discipline. A sport nobody
registered is refused with its name. Pure: a table of data and functions, filled once at start."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from . import rulesets
from .errors import require
from .guide import Guide, draw_points

if TYPE_CHECKING:
    from .results import MatchResult
    from .state import Competition


def _accepts(guide: Guide) -> None:
    """No check of its own."""


def _a_draws_points(guide: Guide) -> float:
    """A Swiss bye scores a drawn match's points (EKML §32(2) note 3)."""
    return draw_points(guide)


@dataclass(frozen=True)
class Sport:
    """One discipline's word on a competition; every default is the house's regulations'."""

    name: str  # the guide's `sport`
    check_guide: Callable[[Guide], None] = _accepts  # refuses what does not fit its sport
    # A result's own checks (None: the games of a match, EKML §32(1), `result_check.py`).
    check_result: Callable[[MatchResult], None] | None = None
    # Minutes an absent player is waited for (None: the ruleset's, EKML §9(3)).
    no_show_minutes: Callable[[Competition, str], int] | None = None
    result_rule: str = "EKML §32(1)"  # the paragraph a match's result is recorded under
    move_rule: str = "EKML §17(3)"  # the paragraph a called match is moved to a table under
    smallest_bracket: int = 16  # the fewest places of an elimination bracket (KUUSALU)
    bye_points: Callable[[Guide], float] = _a_draws_points  # a Swiss bye's match points
    policies: Mapping[str, rulesets.RulesetPolicy] = field(default_factory=dict)
    read_model: str = ""  # its read model of its matches the hall reads ("": a discipline's Tables)
    # Its matches are played to points: the games columns count points won and lost (a
    # result's `score`), and it has no pucks (the standings PDF).
    counts_points: bool = False
    # What a result and a standings row of its matches never hold (a sport with no pucks and
    # no drawn games): left out of the documents, the results API and the standings.
    absent_fields: frozenset[str] = frozenset()


_SPORTS: dict[str, Sport] = {}


def register(*sports: Sport) -> None:
    """Make these sports known (the composition root, once; again with the same: no change)."""
    for sport in sports:
        _SPORTS[sport.name] = sport
        for policy in sport.policies.values():
            rulesets.register_policy(policy)


def of(guide: Guide) -> Sport:
    """The sport of a guide (no sport named: the house's first); one nobody registered is
    refused, naming it."""
    return named(guide.sport)


def named(name: str) -> Sport:
    """A sport by its name ("": the house's first); one nobody registered is refused."""
    found = _SPORTS.get(name or next(iter(_SPORTS), ""))
    require(
        found is not None,
        "EKML §3(4)",
        f"no sport {name!r} is played here",
        "unknown_sport",
        sport=name,
    )
    assert found is not None  # for the type checker: require raised otherwise
    return found


def known() -> tuple[Sport, ...]:
    """Every registered sport, in the order registered."""
    return tuple(_SPORTS.values())
