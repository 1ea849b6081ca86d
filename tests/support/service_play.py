"""Play simulated korona matches on the port's match service itself (the in-memory store, no
HTTP): `korona_matches(store)` is korona's `Matches` (`match/port_service.py`)."""

from __future__ import annotations

import uuid

from tableside.disciplines.korona import commands as rc
from tableside.disciplines.korona import simulate
from tableside.eventlog import EventStore
from tableside.match.events import MatchScheduled
from tableside.match.port_service import Matches, PortMatches
from tableside.plugins.korona.commanding import created
from tableside.server.disciplines import house_disciplines

META = {"recorder": "test", "role": "head_judge"}


def korona_matches(store: EventStore) -> Matches:
    """Korona's matches on `store`, through the port (one process's fold cache)."""
    return PortMatches(store, house_disciplines()).of("korona")


def execute(service: Matches, match_id: uuid.UUID, command, version: int):
    return service.execute(
        match_id, command, expected_version=version, command_id=uuid.uuid4(), meta=META
    )


def new_match(service: Matches) -> tuple[uuid.UUID, int]:
    match_id = uuid.uuid4()
    create = rc.CreateMatch(match_id=str(match_id), side_a=["a"], side_b=["b"], ruleset="EKML")
    events = created(create, MatchScheduled(table=1))
    result = service.create(match_id, events, command_id=uuid.uuid4(), meta=META)
    return match_id, result.last_version


def play(service: Matches, match_id: uuid.UUID, version: int, n: int, rng) -> int:
    for _ in range(n):
        view = service.streams.at_least(match_id, version).value
        command = simulate.next_command(view.state, rng)
        if command is None:  # the match is over and signed
            break
        version = execute(service, match_id, command, version).last_version
    return version
