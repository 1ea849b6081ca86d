"""Backgammon's matches through the port's service on the store's in-memory recorder: append
once, version checks, and a cache that catches up with what another process appended."""

from __future__ import annotations

import uuid

import pytest
from tableside.disciplines.backgammon import RuleViolation, decide, initial_state
from tableside.disciplines.backgammon import commands as c
from tableside.eventlog import EventStore, VersionConflict
from tableside.match.errors import MatchNotFound
from tableside.match.port_service import PortMatches
from tableside.plugins.backgammon.stream import history
from tableside.server.disciplines import house_disciplines
from tableside.server.registry import build_registry

META = {"recorder": "t", "role": "head_judge"}


def test_two_processes_one_stream() -> None:
    store = EventStore.in_memory(build_registry())
    one, two = (PortMatches(store, house_disciplines()).of("backgammon") for _ in range(2))
    mid = uuid.uuid4()
    create = c.CreateMatch(match_id=str(mid), player_a="a", player_b="b", length=3)
    one.create(mid, decide(initial_state(), create), command_id=uuid.uuid4(), meta=META)
    one.execute(mid, c.StartGame(), expected_version=1, command_id=uuid.uuid4(), meta=META)
    two.execute(
        mid, c.RollOpening(die_a=3, die_b=1), expected_version=2, command_id=uuid.uuid4(), meta=META
    )
    state, version, events = history(one, mid)  # the cache catches up with `two`
    assert version == 3 and state.game.turn == "A" and len(events) == 3
    with pytest.raises(VersionConflict):
        one.execute(mid, c.Double(side="B"), expected_version=2, command_id=uuid.uuid4(), meta=META)
    with pytest.raises(RuleViolation):
        one.execute(mid, c.Double(side="A"), expected_version=3, command_id=uuid.uuid4(), meta=META)
    with pytest.raises(MatchNotFound):
        history(one, uuid.uuid4())
    with pytest.raises(MatchNotFound):
        one.execute(mid, create, expected_version=3, command_id=uuid.uuid4(), meta=META)
    assert history(one, mid)[0].prev is None  # read without the undo chain
