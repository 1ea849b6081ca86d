"""The kernel's services reach a handler through Litestar's dependency injection (decision
0221): a handler of staff/, server/, demo/ or the competition names `pool`, `store`,
`settings`, `ctx` or `competitions` among its parameters instead of reaching into
`context(state)`; and every such parameter is passed on unvalidated (`SkipValidation`):
it is the process's own object, never a client's input, and msgspec would rebuild a
dataclass such as the Context on every request."""

from __future__ import annotations

import re
from pathlib import Path

from litestar.params import SkipValidationMarker
from tableside.server import create_app
from tableside.settings import Settings

BACKEND = Path(__file__).resolve().parents[2] / "backend" / "tableside"
MOVED = ("staff", "server", "competition/http", "demo")
REACHING_IN = re.compile(r"context\(state\)")


def _app():
    return create_app(Settings(database_url="postgresql://nobody@127.0.0.1:9/none"))


def _handlers(app):
    for route in app.routes:
        yield from getattr(route, "route_handlers", None) or [route.route_handler]


def test_the_moved_slices_reach_no_service_through_the_state() -> None:
    found = [
        f"{path.relative_to(BACKEND)}:{n}"
        for folder in MOVED
        for path in sorted((BACKEND / folder).rglob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if REACHING_IN.search(line)
    ]
    assert not found, found


def test_every_injected_service_skips_validation() -> None:
    app = _app()
    names = set(app.dependencies)
    assert {"pool", "store", "settings", "ctx", "competitions"} <= names
    validated, handed = [], 0
    for handler in _handlers(app):
        for name, field in handler.parsed_fn_signature.parameters.items():
            if name in names:
                handed += 1
                if not field.has_metadata(SkipValidationMarker):
                    validated.append(f"{handler.handler_name}({name})")
    assert handed >= 25, handed  # the staff, server and competition routes take them
    assert not validated, validated
