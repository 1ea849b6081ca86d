"""Fixtures of the tamper tests (test_global_chain.py, test_witnesses.py)."""

from __future__ import annotations

import uuid

import pytest
from store_events import three_by_three
from tableside.db import roles
from tableside.db.url import with_user


@pytest.fixture
def app_url(database_url: str) -> str:
    """The test's database as the server's role."""
    return with_user(database_url, roles.APP_ROLE)


@pytest.fixture
def streams(app_url: str) -> list[uuid.UUID]:
    """3 streams × 3 versions, positions v1: 1 2 3, v2: 4 5 6, v3: 7 8 9."""
    return three_by_three(app_url)
