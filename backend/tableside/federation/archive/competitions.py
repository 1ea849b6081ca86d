"""A venue's competition as the federation shows it: its kept events folded with the
competition's own fold (`competition.rules.evolve`), its document built as the venue builds it
(`competition.docs.competition_doc`), and the facts the search and the season's lists read."""

from __future__ import annotations

from collections.abc import Iterable
from uuid import UUID

import msgspec

from tableside.competition import rules as competition
from tableside.competition.docs import competition_doc
from tableside.competition.rules import sports
from tableside.competition.rules.events import CompetitionFinished
from tableside.competition.rules.evolve import fold
from tableside.competition.rules.placings import final_placings
from tableside.competition.rules.results import outcome
from tableside.competition.rules.state import Competition
from tableside.eventlog import EventRegistry
from tableside.eventlog.records import RawRecord
from tableside.names import skeleton

EVENT_NAMES = frozenset(t.__struct_config__.tag for t in competition.EVENT_TYPES)
MAIN_CLASS = "main"


class Member(msgspec.Struct, frozen=True):
    """One member of one entrant, for the search and the links."""

    entrant_id: str
    member: int
    name: str
    skeleton: str
    club: str
    stated_id: str


class Folded(msgspec.Struct, frozen=True):
    """A competition folded from its kept events."""

    stream_id: UUID
    version: int
    position: int
    state: Competition
    finished_on: str | None

    @property
    def doc(self) -> dict:
        """The document exactly as the venue publishes it."""
        return competition_doc(self.state, self.version, self.position)


def fold_competition(registry: EventRegistry, records: list[RawRecord]) -> Folded:
    """Fold one competition stream's kept events (in version order)."""
    events = [registry.decode(r.type_name, r.payload) for r in records]
    finished = next((e.at for e in events if isinstance(e, CompetitionFinished)), None)
    last = records[-1]
    return Folded(
        last.stream_id, last.version, last.position, fold(events), finished and finished[:10]
    )


def facts(folded: Folded) -> dict:
    """What the archive's row keeps beside the document: name, sport, discipline, class, season."""
    guide = folded.state.guide
    assert guide is not None  # a competition stream opens with CompetitionCreated
    return {
        "name": guide.name,
        "sport": sports.of(guide).name,
        "discipline": guide.discipline,
        "age_class": guide.age_class.name if guide.age_class else MAIN_CLASS,
        "season": guide.event_year,
    }


def ranked_facts(state: Competition) -> dict:
    """What a season's list reads of a finished competition, by entrant (the links name the
    players later): placings (place, entrant), each entrant's number of members and the
    matches played, in the order recorded
    (a JSON array keeps it; the document's object of results does not). A team competition
    and an unplayed match (forfeit, withdrawal) give none (decision 0170)."""
    if state.guide is None or state.guide.teams is not None or not state.finished:
        return {"placings": [], "matches": [], "members": {}}
    placings, before = [], 0
    for group in final_placings(state):
        placings += [[before + 1, entrant] for entrant in group]
        before += len(group)
    matches = [
        [match_id, r.a, r.b, outcome(r.result)]
        for match_id, r in state.results.items()
        if not (r.result.forfeit or r.result.withdrawal)
    ]
    sizes = {e.id: len(e.members) for e in state.entrants.values()}
    return {"placings": placings, "matches": matches, "members": sizes}


def members(state: Competition) -> Iterable[Member]:
    """Every member of every entrant, with the federation id the TD stated ('' if none)."""
    for entrant in state.entrants.values():
        for index, person in enumerate(entrant.members):
            stated = person.federation_id if isinstance(person.federation_id, str) else ""
            yield Member(entrant.id, index, person.name, skeleton(person.name), person.club, stated)
