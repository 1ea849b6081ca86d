"""The competition side's lifespan, entered after the core one (which opened the pool and
the store and the tail loop): the competition service, and the results processor and the
standings consumer on the one tail loop."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from functools import partial

from litestar import Litestar

from tableside.competition import hall
from tableside.competition.live import publish_competition
from tableside.competition.processor import ResultsProcessor
from tableside.competition.projection import StandingsRunner
from tableside.competition.runtime import CompetitionRuntime
from tableside.competition.service import CompetitionService
from tableside.demo.hold import kept_for_visitor
from tableside.server.disciplines import competition_flows
from tableside.web.context import Context


@contextlib.asynccontextmanager
async def competition_lifespan(app: Litestar) -> AsyncIterator[None]:
    """Hand the processor and the standings consumer to the core lifespan's tail loop."""
    ctx: Context = app.state.tableside
    service = CompetitionService(ctx.store)
    flows = competition_flows(ctx.plays)
    runtime = CompetitionRuntime(
        service,
        flows,
        ResultsProcessor(ctx.pool, ctx.registry, ctx.store, service, flows),
        StandingsRunner(ctx.pool, ctx.registry, publish=partial(publish_competition, ctx.audience)),
        ctx.tail,
    )
    if ctx.settings.demo:  # on every worker: any of them may answer the console's call
        runtime.kept = partial(kept_for_visitor, ctx.store, ctx.settings.demo_hold_seconds)
    app.state.competitions = runtime
    ctx.hall = partial(hall.table_free, ctx.pool, runtime.state_of, flows)
    ctx.tail.add(runtime.processor)
    ctx.tail.add(runtime.standings)  # type: ignore[arg-type]  # as server/lifespan.py says
    yield
