"""The app the browser tests serve: the product app plus `web_routes()`, nothing test-only.

`create_app` does not register `web_routes()` yet (the coordinator wires it); until it does,
this factory adds them, and once it does, this adds nothing.
"""

from __future__ import annotations

from litestar import Litestar
from tableside.app import create_app
from tableside.settings import Settings
from tableside.web import web_routes


def from_env() -> Litestar:
    """`uvicorn --factory browser.factory:from_env` (tests/ on PYTHONPATH)."""
    app = create_app(Settings.from_env())
    served = {route.path for route in app.routes}
    if "/sw.js" not in served:
        for handler in web_routes():
            app.register(handler)
    return app
