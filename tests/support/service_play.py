"""Play simulated korona matches on the match service itself (the in-memory store, no HTTP)."""

from __future__ import annotations

import uuid

from tableside.disciplines.korona import commands as rc
from tableside.disciplines.korona import simulate
from tableside.match.events import MatchScheduled
from tableside.plugins.korona.service import MatchService

META = {"recorder": "test", "role": "head_judge"}


def anyone(view) -> None:
    return None


def execute(service: MatchService, match_id: uuid.UUID, command, version: int):
    return service.execute(
        match_id,
        command,
        expected_version=version,
        command_id=uuid.uuid4(),
        meta=META,
        authorize=anyone,
    )


def new_match(service: MatchService) -> tuple[uuid.UUID, int]:
    match_id = uuid.uuid4()
    create = rc.CreateMatch(match_id=str(match_id), side_a=["a"], side_b=["b"], ruleset="EKML")
    result = service.create(
        match_id, create, MatchScheduled(table=1), command_id=uuid.uuid4(), meta=META
    )
    return match_id, result.last_version


def play(service: MatchService, match_id: uuid.UUID, version: int, n: int, rng) -> int:
    for _ in range(n):
        view = service.streams.at_least(match_id, version).value
        command = simulate.next_command(view.state, rng)
        if command is None:  # the match is over and signed
            break
        version = execute(service, match_id, command, version).last_version
    return version
