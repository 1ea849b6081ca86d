"""The hub's renderer folds every match event but encodes only the deltas somebody listens to:
a match nobody watches costs no JSON, and the first delta after someone subscribes still
carries the whole board after every event before it (the in-memory store: no HTTP)."""

from __future__ import annotations

import asyncio
import json
import random

from support.service_play import korona_matches, new_match, play
from tableside.eventlog import EventStore
from tableside.live.channels import render_all
from tableside.plugins.korona.live_feed import MatchRenderer
from tableside.server.registry import build_registry


def _stored(n: int):
    registry = build_registry()
    service = korona_matches(EventStore.in_memory(registry))
    match_id, version = new_match(service)
    play(service, match_id, version, n, random.Random(5))
    return registry, match_id, service.store.read_all(0, 10_000)


async def _render(renderer, records, wanted):
    return await render_all([renderer], None, records, wanted)  # type: ignore[arg-type]


def test_a_delta_nobody_listens_to_is_folded_not_encoded():
    registry, match_id, records = _stored(12)
    asked: list[tuple[str, ...]] = []

    def nobody(names):
        asked.append(tuple(names))
        return False

    renderer = MatchRenderer(registry)
    head, tail = records[:-3], records[-3:]
    assert asyncio.run(_render(renderer, head, nobody)) == []
    assert len(asked) == len(head) and all(f"match:{match_id}" in a for a in asked)
    watched = f"match:{match_id}"
    out = asyncio.run(_render(renderer, tail, lambda names: watched in names))
    assert [m.position for m in out] == [r.position for r in tail]
    last = json.loads(out[-1].text)
    assert last["live"]["version"] == tail[-1].version == last["version"]
