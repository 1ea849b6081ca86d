"""The discipline port: what the house asks of a discipline, and the registry of them.

A discipline is a pure rules engine behind one small port (ARCHITECTURE: "Disciplines are
plug-ins on one core"): its `name`; its command codec (`decode_command`: a command from the
JSON body a client sent); `initial_state`, `decide` and `evolve` (the stream's fold, with the
stored version); whether a state holds a match yet (`created`); the match view the reads, the
replay and the live feed render (`view`); its words for its codes (`words`); where its games
and the match end, for the signed receipts (`endings`); its export sections
(`exports`: the protocol PDF, a `.mat` where it has one — the JSONL record is every stream's,
`match/http/export_routes`). It refuses a command with a `tableside.rule_error.RuleError`.

`own_feed`: whether the discipline's slice (`plugins/<name>/`) renders its matches on the live
feed itself (korona, backgammon); if not, the match kernel's port feed renders `view`.

The registry (`Disciplines`) is built once, from the house's list (`plugins/house.py`),
and handed to whoever needs a discipline: `match/`, `competition/`, `live/` and `web/` never
name one (an import-linter contract keeps it so; decision 0076).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from tableside.eventlog.receipts import Ending
from tableside.eventlog.records import RawRecord
from tableside.eventlog.source import Record


@dataclass(frozen=True)
class Export:
    """One download a discipline offers for a match: `render(records, lang, head_hash)`."""

    filename: str  # the last part of its address, e.g. "protocol.pdf", "record.mat"
    media_type: str
    render: Callable[[list[Record], str, str], bytes]


class Discipline(Protocol):
    """What each discipline implements (see the module's docstring)."""

    name: str
    event_types: tuple[type, ...]
    exports: tuple[Export, ...]
    own_feed: bool

    def decode_command(self, body: bytes) -> Any:
        """A command from JSON (msgspec.ValidationError / DecodeError when it is none)."""
        ...

    def initial_state(self) -> Any:
        """The state before a match's first event."""
        ...

    def decide(self, state: Any, command: Any) -> tuple[Any, ...]:
        """The events a command leads to, or a RuleError citing its paragraph."""
        ...

    def evolve(self, state: Any, event: Any, version: int) -> Any:
        """The state after one more of its events, stored at stream version `version`."""
        ...

    def created(self, state: Any) -> bool:
        """Whether the state holds a match (its creating event was folded)."""
        ...

    def view(self, state: Any) -> dict[str, Any]:
        """The match as a plain document (reads, replay, the live feed)."""
        ...

    def words(self, lang: str) -> Mapping[str, str]:
        """Its codes in words, in one language (English for anything else)."""
        ...

    def endings(self, stream: list[tuple[RawRecord, Any]]) -> Iterable[Ending]:
        """Each game's and the match's end in a match's stored stream (row, decoded event),
        oldest first, in plain English words: what a match receipt signs (#29)."""
        ...


class UnknownDiscipline(LookupError):
    """No discipline of this name is registered."""


class Disciplines:
    """The registered disciplines: by name, and by the type of an event they own."""

    def __init__(self, disciplines: Iterable[Discipline]) -> None:
        self._named: dict[str, Discipline] = {}
        self._owner: dict[type, Discipline] = {}
        for discipline in disciplines:
            if discipline.name in self._named:
                raise ValueError(f"discipline {discipline.name!r} registered twice")
            self._named[discipline.name] = discipline
            for event_type in discipline.event_types:
                if event_type in self._owner:
                    raise ValueError(f"{event_type.__name__} belongs to two disciplines")
                self._owner[event_type] = discipline

    def __iter__(self) -> Iterator[Discipline]:
        return iter(self._named.values())

    def named(self, name: str) -> Discipline:
        """The discipline called `name` (UnknownDiscipline if none is)."""
        try:
            return self._named[name]
        except KeyError:
            raise UnknownDiscipline(name) from None

    def of_event(self, event: object) -> Discipline | None:
        """The discipline whose event this is (None: a venue's, a competition's)."""
        return self._owner.get(type(event))

    def event_types(self) -> tuple[type, ...]:
        """Every discipline's event types (for the event registry)."""
        return tuple(self._owner)

    def plus(self, *more: Discipline) -> Disciplines:
        """These and `more` (a test app's registry: the house's and one of its own)."""
        return Disciplines((*self, *more))
