"""Service fixtures: a real server process on a fresh database per test module."""

from __future__ import annotations

import pytest

from .harness import Api, Server


@pytest.fixture(scope="module")
def server(module_database_url: str):
    """A running server on this module's database."""
    srv = Server(module_database_url).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def head(server: Server) -> Api:
    """The head judge, logged in."""
    return Api(server.base).login()
