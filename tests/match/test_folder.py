"""The process's one folder of match views, shared by the live hub and the read models: the
one that follows a batch later is handed the views the first one made — each match event
folded once per process on the read side (issue 31) — and a folder kept by one follower alone
holds one view per match."""

from __future__ import annotations

import random

from support.service_play import korona_matches, new_match, play
from tableside.eventlog import EventStore
from tableside.plugins.korona.projections.folder import MISS, match_folder
from tableside.server.registry import build_registry


def _records(n: int):
    registry = build_registry()
    service = korona_matches(EventStore.in_memory(registry))
    match_id, version = new_match(service)
    play(service, match_id, version, n, random.Random(8))
    return registry, service.store.read_all(0, 10_000)


def test_a_second_follower_sharing_the_folder_folds_nothing_again():
    registry, records = _records(25)
    folder = match_folder(registry, depth=64)
    first = [folder.step(r) for r in records]
    second = [folder.step(r) for r in records]
    assert MISS not in first and len(first) > 25
    assert all(a is b for a, b in zip(first, second, strict=True))
    assert first[-1].version == records[-1].version


def test_a_lone_follower_keeps_one_view_per_match():
    registry, records = _records(10)
    lone = match_folder(registry)
    views = [lone.step(r) for r in records]
    assert lone.cached(records[-1].stream_id) is views[-1]
    assert lone.step(records[-3]) is MISS  # older views are not kept: it would read the stream
