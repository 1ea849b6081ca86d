"""What the competition's handlers use, built by the competition's lifespan
(`server/competition_lifespan.py`), kept on `app.state.competitions` and handed to a handler
that names `competitions` among its parameters (Litestar's dependency injection)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias
from uuid import UUID

from litestar.datastructures import State
from litestar.di import Provide
from litestar.params import SkipValidation

from tableside.competition import hall
from tableside.competition.flows import Flows
from tableside.competition.processor import ResultsProcessor
from tableside.competition.projection import StandingsRunner
from tableside.competition.rules.state import Competition
from tableside.competition.service import CompetitionService
from tableside.eventlog.runner import Tail


@dataclass
class CompetitionRuntime:
    """The competition service, its flows, and the consumers it put on the tail loop."""

    service: CompetitionService
    flows: Flows  # each discipline's matches as a competition plays them
    processor: ResultsProcessor
    standings: StandingsRunner
    tail: Tail
    kept: Callable[[UUID, Competition | None], hall.Kept] = hall.nothing_kept

    def wake(self) -> None:
        """A command was stored here: process and project it now (the NOTIFY comes too)."""
        self.tail.wake.set()

    def state_of(self, comp: UUID) -> Competition:
        """A competition as it stands now (its fold; CompetitionNotFound when none)."""
        return self.service.state(comp)[1]


def _competitions(state: State) -> CompetitionRuntime:
    return state.competitions


COMPETITION_SERVICES = {"competitions": Provide(_competitions, sync_to_thread=False)}

# What a handler names (`competitions: Competitions`), passed on unvalidated (web/context.py).
Competitions: TypeAlias = SkipValidation[CompetitionRuntime]
