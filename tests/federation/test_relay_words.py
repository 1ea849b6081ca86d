"""The relay's notice (the venue offline since HH:MM, decision 0196) is worded in the four
face languages, each with its `{since}`, and the notice names that code."""

from __future__ import annotations

import json

import pytest
from tableside.federation.relay.feed import OFFLINE
from tableside.settings import PWA_DIR


@pytest.mark.parametrize("lang", ["en", "et", "lv", "is"])
def test_relay_venue_offline_is_worded_with_its_time(lang: str) -> None:
    words = json.loads((PWA_DIR / "i18n" / f"codes.{lang}.json").read_text(encoding="utf-8"))
    text = words[f"code.{OFFLINE}"]
    assert "{since}" in text and len(text) > 20


def test_the_notice_names_its_code() -> None:
    from datetime import UTC, datetime
    from uuid import uuid4

    from tableside.federation.relay.feed import VenueFeed

    feed = VenueFeed(uuid4())
    notice = json.loads(feed._notice(datetime(2026, 12, 2, 10, 5, tzinfo=UTC), offline=True))
    assert notice == {
        "kind": "venue",
        "venue": str(feed.venue_id),
        "state": "offline",
        "since": "2026-12-02T10:05:00+00:00",
        "code": OFFLINE,
    }
