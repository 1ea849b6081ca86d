"""The competition side's lifespan, entered after the core one (which opened the pool and
the store): the competition service, the results processor and the standings runner."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

from litestar import Litestar

from tableside.app.lifespan import running
from tableside.competitions.processor import ResultsProcessor
from tableside.competitions.service import CompetitionService
from tableside.projections.standings import StandingsRunner


@dataclass
class CompetitionRuntime:
    """What competition handlers use, on `app.state.competitions`."""

    service: CompetitionService
    processor: ResultsProcessor
    standings: StandingsRunner

    def wake(self) -> None:
        """A command was stored here: process and project it now, not at the next poll."""
        self.processor.wake.set()
        self.standings.wake.set()


@contextlib.asynccontextmanager
async def competition_lifespan(app: Litestar) -> AsyncIterator[None]:
    """Start the processor and the standings runner; cancel them on the way out."""
    ctx = app.state.tableside
    service = CompetitionService(ctx.store)
    runtime = CompetitionRuntime(
        service,
        ResultsProcessor(ctx.pool, ctx.registry, ctx.matches, service),
        StandingsRunner(ctx.pool, ctx.registry),
    )
    app.state.competitions = runtime
    tasks = [
        asyncio.create_task(runtime.processor.run()),
        asyncio.create_task(runtime.standings.run()),
    ]
    async with running(tasks):
        yield
