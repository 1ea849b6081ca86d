"""What the competition asks of a discipline's matches, its **flow**: start a called match's
stream, read a finished one back as the competition's result, close one the competition
decided without play. The results processor calls the flow of the guide's sport; each
discipline's slice implements one (`plugins/<name>/competition_flow.py`) and the composition
root hands them in (`server/disciplines.py`): the competition names no discipline.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol
from uuid import UUID

import asyncpg

from tableside.competition.rules.events import MatchCalled, MatchMoved, ResultRecorded
from tableside.competition.rules.results import MatchResult
from tableside.competition.rules.state import Competition
from tableside.eventlog import StoredEvent
from tableside.match.discipline import Tables

Playing = tuple[int, str, str]  # (table, player A, player B)


@dataclass(frozen=True)
class Ended:
    """A competition match's stream read back as the competition records it."""

    competition_id: UUID
    result: MatchResult
    at: str  # when it ended (ISO), as the result's time
    keep_forfeit: bool = False  # a forfeit the competition decided stands as it was recorded


class CompetitionFlow(Protocol):
    """A discipline's matches as a competition plays them."""

    @property
    def sport(self) -> str:
        """The guide's `sport` it plays."""
        ...

    @property
    def endings(self) -> tuple[type, ...]:
        """Events after which a stream may have ended or changed result."""
        ...

    def owns(self, first: StoredEvent) -> bool:
        """Whether a stream with this first event is one of its matches."""
        ...

    def start(self, comp_id: UUID, state: Competition, called: MatchCalled) -> None:
        """The called match's stream(s) on its table (once: command ids are derived)."""
        ...

    def started(self, stream: UUID) -> bool:
        """Whether play has begun in this match stream (a match not yet created: False)."""
        ...

    def move(self, comp_id: UUID, state: Competition, moved: MatchMoved, key: str) -> None:
        """The called match's stream put on its new table (once per `key`: derived command
        ids), so that table's device records it and the old table's no longer does."""
        ...

    def ended(self, stored: list[StoredEvent]) -> Ended | None:
        """A competition match's result once its stream has ended (None: not yet, or not
        a competition's)."""
        ...

    def close(self, stream: UUID, event: ResultRecorded, reason: str, meta: dict) -> None:
        """End an unfinished match the competition decided without it (a forfeit, a team
        match decided): `reason` is the code why; MatchNotFound when it has no stream."""
        ...

    async def on_tables(self, db: asyncpg.Pool | asyncpg.Connection) -> list[Playing]:
        """Its matches being played on hall tables that no discipline's read model of the
        hall's tables (`Flows.tables`, which the hall reads itself) holds."""
        ...


class Flows:
    """The registered flows: by the guide's sport, by ending event, by stream; and the
    disciplines' read models of the hall's tables (`tables`, which the hall reads itself)."""

    def __init__(self, flows: Iterable[CompetitionFlow], tables: tuple[Tables, ...] = ()) -> None:
        self.tables = tables
        self.by_sport = {flow.sport: flow for flow in flows}
        self.by_ending = {t: f for f in self.by_sport.values() for t in f.endings}
        self.endings = tuple(self.by_ending)

    async def on_tables(self, db: asyncpg.Pool | asyncpg.Connection) -> list[Playing]:
        """Every flow's matches on hall tables that `tables` do not hold."""
        return [p for flow in self.by_sport.values() for p in await flow.on_tables(db)]

    def of_stream(self, first: StoredEvent | None) -> CompetitionFlow | None:
        """The flow whose match a stream with this first event holds."""
        if first is None:
            return None
        return next((f for f in self.by_sport.values() if f.owns(first)), None)
