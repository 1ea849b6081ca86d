"""Every guard of every route is a coroutine function: Litestar runs a sync guard on a worker
thread (`AsyncCallable` → `anyio.to_thread`), a thread hop on every request it guards — two
app-wide sync guards cost the judge's command path ~6 % of the server's CPU (issue 15)."""

from __future__ import annotations

from litestar.utils.sync import AsyncCallable
from tableside.server import create_app
from tableside.settings import Settings


def test_no_route_runs_a_guard_on_a_thread() -> None:
    app = create_app(Settings(database_url="postgresql://nobody@127.0.0.1:9/none"))
    on_threads = {
        (route.path, getattr(guard, "func", guard).__name__)
        for route in app.routes
        for handler in getattr(route, "route_handlers", None) or [route.route_handler]
        for guard in handler.resolve_guards()
        if isinstance(guard, AsyncCallable)
    }
    assert not on_threads, sorted(on_threads)
