"""The discipline port: what the house asks of a discipline, and the registry of them.

A discipline is a pure rules engine behind one small port (ARCHITECTURE: "Disciplines are
plug-ins on one core", decision 0214). What it says about a match stream:

- `fold(folded | None, record)`: the stream folded one stored record on (its own events and
  the venue's it reads, e.g. the table a match was scheduled on); `live(folded)`: whether the
  fold holds a match; `view(folded)`: the match as a plain document (reads, replay, the live
  feed of a discipline without its own);
- what it adds to the process: its live feed (`feed`: a renderer, the snapshotter of its
  matches' channels, its hall; None: the kernel's port feed renders `view`, decision 0214)
  and its read models (`read_models`: the consumers the tail loop runs, each in its lane);
- `decide_on(folded, command, principal)`: the events a command leads to, or a
  `tableside.rule_error.RuleError` citing its paragraph (`principal` None: the house itself,
  a competition's flow);
- `authorize(principal, folded, current)`: who may post to this match, by role and table (a
  PermissionDeniedException with a code), on the fresh fold, before the version check;
  `current` is the match the principal's table plays now (`match.tables_now`), if any;
  `watchable(connection, folded)`: refuse a read of the match to whoever may not watch it
  by its `watch_rule` (KSI 1.6.4), asked by every public read of the kernel's
  (`match/http/watching.py`);
- its command codec: where its match routes answer (`address`), the request bodies of its
  creations (`create_bodies`: suffix of the address → body type) and of its commands
  (`command_body`), `creation(body, lang)` (the new stream's events, its table in the hall,
  its digest), `command_of(body)`, the roles that create (`create_roles`), post anything
  (`command_roles`) and post this command (`roles_for`), and `prepared` (the command as the
  caller stands behind it: their name as the ruling TD, the confirming head judge);
- its rows in the jury's finder (`finder`: a query over its read model), its read model of
  the hall's tables (`tables`: what the hall and `match.tables_now` read) and of its
  channels' snapshots (`Feed.projected`): the kernel names no discipline's table, in
  imports or in SQL;
- its words for its codes (`words`), where its games and the match end, for the signed
  receipts (`endings`), its export sections (`exports`: the protocol PDF, a `.mat` where it
  has one — the JSONL record is every stream's, `match/http/export_routes`).

`Simple` is the port for a discipline that is only an engine (`initial_state`, `evolve`,
`decide`, `created`): its fold is the engine state, anyone of the staff posts anything, its
bodies are the kernel's (`CreateRequest`, `CommandRequest`: the command as JSON its codec
reads). The test-only coin toss is one (tests/match/coin_toss.py).

The registry (`Disciplines`) is built once, from the house's list (`plugins/house.py`),
and handed to whoever needs a discipline: `match/`, `competition/`, `live/` and `web/` never
name one (an import-linter contract keeps it so; decision 0076).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Annotated, Any, Protocol
from uuid import UUID

import msgspec

from tableside.eventlog import EventRegistry
from tableside.eventlog.digest import command_digest
from tableside.eventlog.folder import Folders
from tableside.eventlog.receipts import Ending
from tableside.eventlog.records import RawRecord
from tableside.eventlog.source import Record
from tableside.live.channels import RendererFactory, Snapshotter
from tableside.web.auth import Principal
from tableside.web.problems import Unprocessable

STAFF = ("head_judge", "secretary")
Short = Annotated[str, msgspec.Meta(max_length=200)]
Version = Annotated[int, msgspec.Meta(ge=0, le=10**9)]
MATCH_IDS = uuid.UUID("5b0a3c1e-7d2f-4c55-9f41-2a7c1d6e8b90")  # uuid5 namespace for match ids


@dataclass(frozen=True)
class Export:
    """One download a discipline offers for a match: `render(records, lang, head_hash)`."""

    filename: str  # the last part of its address, e.g. "protocol.pdf", "record.mat"
    media_type: str
    render: Callable[[list[Record], str, str], bytes]


@dataclass(frozen=True)
class Feed:
    """A discipline's own live feed: its renderer (stored events → messages), the snapshotter
    that claims its matches' channels, its whole-venue channel `hall:<hall>` if any, and the
    channel kinds whose snapshot its read models hold (`projected`: kind → (read model, a
    SELECT of each live document as text for the channel's key $1), read at the model's
    tracking position by `live/live.py`)."""

    renderer: RendererFactory
    snapshotter: Snapshotter | None = None
    hall: str | None = None
    projected: Mapping[str, tuple[str, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class Tables:
    """A discipline's read model of the hall's tables its matches hold: `read_model` its
    name (the hall's call lock waits for it to have caught up, `competition/hall.py`);
    `holding` a SELECT of (table_no, competition_id, side_a, side_b as JSON lists of names,
    status, board) of each of its matches scheduled, called or playing on a table;
    `current` a SELECT of (match_id, position of its MatchScheduled, the model's tracking
    position) of the match table $1 plays now (`match/tables_now.py`)."""

    read_model: str
    holding: str
    current: str


@dataclass(frozen=True)
class Finder:
    """A discipline's rows for the jury's finder (`match/http/finder.py`): `query` a SELECT of
    (discipline, doc as text, position, started_at) over its read model, filtered by the
    finder's parameters — $1 table, $2 player pattern, $3 status, $4 from, $5 to, $6 before
    position, $7 text pattern, $8 text as typed (`finder.folded(column)` folds case and
    accents as the patterns are) — and `row(doc)` the fields its row adds to the common ones
    (match_id, side_a, side_b, status, updated_at come from `doc`)."""

    query: str
    row: Callable[[dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class Creation:
    """A new match stream as a creation body asks for it: the events decided for version 0,
    the hall's table it takes (0: none; the hall's lock is held while it is stored), the
    digest a retry is recognised by, and what the stored meta adds."""

    match_id: UUID
    events: tuple[Any, ...]
    digest: bytes
    table: int = 0
    meta: Mapping[str, str] = field(default_factory=dict)


class Discipline(Protocol):
    """What each discipline implements (see the module's docstring)."""

    name: str
    event_types: tuple[type, ...]
    exports: tuple[Export, ...]
    feed: Feed | None  # its own live feed (None: the kernel's port feed)
    address: str  # its match routes: POST {address}, POST {address}/{id}/commands
    create_bodies: Mapping[str, type]  # "" → the body of POST {address}; "/import" → …
    command_body: type  # the body of POST {address}/{id}/commands (a `command` field)
    create_roles: tuple[str, ...]
    command_roles: tuple[str, ...]  # whoever may post any of its commands
    meta: Mapping[str, str]  # what each stored command's meta adds
    finder: Finder | None  # its rows in the jury's finder (None: not listed there)
    tables: Tables | None  # its read model of the hall's tables (None: the hall asks its flow)
    watch_rule: str | None  # the rule by which `watchable` may refuse (None: every match public)

    def decode_command(self, body: bytes) -> Any:
        """A command from JSON (msgspec.ValidationError / DecodeError when it is none)."""
        ...

    def read_models(self, pool: Any, registry: EventRegistry, folders: Folders) -> list[Any]:
        """Its read models' consumers for the tail loop (folding in the process's caches)."""
        ...

    def fold(self, folded: Any, record: Any) -> Any:
        """The stream's fold after one more stored record (`folded` None: the first)."""
        ...

    def live(self, folded: Any) -> bool:
        """Whether the fold holds a match (its creating event was folded)."""
        ...

    def view(self, folded: Any) -> dict[str, Any]:
        """The match as a plain document (reads, replay, the live feed)."""
        ...

    def decide_on(self, folded: Any, command: Any, principal: Principal | None) -> tuple[Any, ...]:
        """The events a command leads to, or a RuleError citing its paragraph."""
        ...

    def authorize(self, principal: Principal, folded: Any, current: Any) -> None:
        """Refuse (403 with a code) a principal this match is not theirs to record."""
        ...

    async def watchable(self, connection: Any, folded: Any) -> None:
        """Refuse (403 with a code citing `watch_rule`) a read of this match by whoever the
        connection's bearer is, when its rules keep the match from them (KSI 1.6.4:
        spectators barred at a player's request); the kernel's public reads ask it, when the
        discipline has a `watch_rule`."""
        ...

    def creation(self, body: Any, lang: str) -> Creation:
        """The new stream a creation body asks for (a RuleError / 422 when it is refused)."""
        ...

    def command_of(self, body: Any) -> Any:
        """The command a command body carries."""
        ...

    def roles_for(self, command: Any) -> tuple[str, ...]:
        """The roles that may post this command."""
        ...

    def command_digest(self, match_id: UUID, command: Any) -> bytes:
        """What a retry of this command is recognised by (`eventlog.digest`)."""
        ...

    async def prepared(
        self, request: Any, principal: Principal, match_id: UUID, command: Any
    ) -> Any:
        """The command as the caller stands behind it (their name where it records one)."""
        ...

    def words(self, lang: str) -> Mapping[str, str]:
        """Its codes in words, in one language (English for anything else)."""
        ...

    def endings(self, stream: list[tuple[RawRecord, Any]]) -> Iterable[Ending]:
        """Each game's and the match's end in a match's stored stream (row, decoded event),
        oldest first, in plain English words: what a match receipt signs (#29)."""
        ...


class CreateRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A new match: the discipline's creating command (its codec reads it)."""

    command_id: UUID
    command: dict[str, Any]  # the discipline's codec reads it
    match_id: UUID | None = None
    device_id: Short = ""
    device_time: Short = ""


class CommandRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """One command of the discipline's at the version the sender last saw."""

    command_id: UUID
    expected_version: Version
    command: dict[str, Any]  # the discipline's codec reads it
    device_id: Short = ""
    device_time: Short = ""


class Simple:
    """The port for a discipline that is an engine alone: a subclass gives `name`,
    `event_types`, `exports`, `initial_state()`, `evolve(state, event, version)`,
    `decide(state, command)`, `created(state)`, `view(state)`, `decode_command`, `words`
    and `endings`; the fold is the engine's state, the staff post anything."""

    feed: Feed | None = None
    create_bodies: Mapping[str, type] = MappingProxyType({"": CreateRequest})
    command_body: type = CommandRequest
    create_roles = STAFF
    command_roles = STAFF
    meta: Mapping[str, str] = MappingProxyType({})
    finder: Finder | None = None
    tables: Tables | None = None
    watch_rule: str | None = None

    @property
    def address(self) -> str:
        return f"/api/disciplines/{self.name}/matches"  # type: ignore[attr-defined]

    def read_models(self, pool: Any, registry: EventRegistry, folders: Folders) -> list[Any]:
        return []

    def fold(self, folded: Any, record: Any) -> Any:
        state = self.initial_state() if folded is None else folded  # type: ignore[attr-defined]
        if type(record.event) not in self.event_types:  # type: ignore[attr-defined]
            return state
        return self.evolve(state, record.event, record.version)  # type: ignore[attr-defined]

    def live(self, folded: Any) -> bool:
        return folded is not None and self.created(folded)  # type: ignore[attr-defined]

    def decide_on(self, folded: Any, command: Any, principal: Principal | None) -> tuple[Any, ...]:
        return self.decide(folded, command)  # type: ignore[attr-defined]

    def authorize(self, principal: Principal, folded: Any, current: Any) -> None:
        return None

    async def watchable(self, connection: Any, folded: Any) -> None:
        return None

    def creation(self, body: CreateRequest, lang: str) -> Creation:
        command = self.command_of(body)
        match_id = body.match_id or uuid.uuid5(MATCH_IDS, str(body.command_id))
        events = self.decide(self.initial_state(), command)  # type: ignore[attr-defined]
        digest = command_digest(f"{self.name}.create", match_id, command)  # type: ignore[attr-defined]
        return Creation(match_id, tuple(events), digest)

    def command_of(self, body: Any) -> Any:
        """The command its codec reads, or 422 naming what was wrong."""
        try:
            return self.decode_command(msgspec.json.encode(body.command))  # type: ignore[attr-defined]
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            name = self.name  # type: ignore[attr-defined]
            raise Unprocessable(detail=f"Not a {name} command: {exc}") from None

    def roles_for(self, command: Any) -> tuple[str, ...]:
        return self.command_roles

    def command_digest(self, match_id: UUID, command: Any) -> bytes:
        return command_digest(f"{self.name}.command", match_id, command)  # type: ignore[attr-defined]

    async def prepared(
        self, request: Any, principal: Principal, match_id: UUID, command: Any
    ) -> Any:
        return command


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

    def tables(self) -> tuple[Tables, ...]:
        """Every discipline's read model of the hall's tables, where it keeps one."""
        return tuple(d.tables for d in self if d.tables is not None)

    def plus(self, *more: Discipline) -> Disciplines:
        """These and `more` (a test app's registry: the house's and one of its own)."""
        return Disciplines((*self, *more))
