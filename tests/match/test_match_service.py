"""The match stream service on the in-memory store (fast, no HTTP): one fold per event, no
read before an append while the cached view is current, and a stale cache never lets a
command through on an old version (issue 15)."""

from __future__ import annotations

import random

import pytest
from support.service_play import execute, korona_matches, new_match, play
from tableside.disciplines.korona import simulate
from tableside.eventlog import EventStore, VersionConflict
from tableside.server.registry import build_registry


class CountingStore(EventStore):
    """The real in-memory store, counting the stream reads the service makes."""

    reads = 0

    def read(self, stream_id, after_version=0):
        self.reads += 1
        return super().read(stream_id, after_version)


def test_commands_on_a_cached_match_read_nothing_before_their_append():
    store = CountingStore.in_memory(build_registry())
    service = korona_matches(store)
    match_id, version = new_match(service)
    version = play(service, match_id, version, 1, random.Random(1))  # the one catch-up read
    reads = store.reads
    version = play(service, match_id, version, 30, random.Random(2))
    assert store.reads == reads, "a command on a current cached view read the stream again"
    folded = korona_matches(store).view(match_id)  # another process folds it from the store
    cached = service.streams.at_least(match_id, version).value
    assert (cached.version, cached.position, cached.state) == (
        folded.version,
        folded.position,
        folded.state,
    )
    assert cached.effective == folded.effective


def test_a_stale_cache_never_lets_an_old_version_through():
    store = EventStore.in_memory(build_registry())
    ours, theirs = korona_matches(store), korona_matches(store)
    match_id, version = new_match(ours)
    version = play(ours, match_id, version, 2, random.Random(3))
    newer = play(theirs, match_id, version, 3, random.Random(4))  # another process moves on
    seen = ours.streams.at_least(match_id, version).value
    command = simulate.next_command(seen.state, random.Random(5))
    with pytest.raises(VersionConflict) as caught:
        execute(ours, match_id, command, version)
    assert caught.value.current_version == newer
    # the conflict made it read the news
    assert ours.streams.at_least(match_id, newer).version == newer
