"""GET /health in-process, against a fresh migrated database."""

from __future__ import annotations

from litestar.testing import AsyncTestClient
from support.harness import app_settings
from tableside.db import migrations
from tableside.server import create_app


async def test_health_reports_versions(module_database_url: str) -> None:
    app = create_app(app_settings(module_database_url))
    async with AsyncTestClient(app) as client:
        reply = await client.get("/health")
    assert reply.status_code == 200
    database = reply.json()["database"]
    assert database["reachable"] is True
    assert database["schema_version"] == migrations.load()[-1].version
    assert database["server_version"]
