"""A backgammon match stream as its commands see it (`Played`): the engine's state, its
events, and the command that stored each — what an undo of "the last entry" resolves against
(KSI 4.2.3) and what the reads show. The fold the port's service caches
(`Backgammon.fold`, `match/port_service.py`); `history` reads a match through it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from uuid import UUID

from tableside.disciplines.backgammon import EVENT_TYPES, evolve, initial_state
from tableside.disciplines.backgammon.events import Event
from tableside.disciplines.backgammon.state import MatchState, snapshot
from tableside.match.port_service import Matches

_TYPES = frozenset(EVENT_TYPES)


@dataclass(frozen=True)
class Played:
    state: MatchState
    events: tuple[Event, ...]  # the backgammon events
    commands: Mapping[int, UUID]  # version -> command_id of each backgammon event


def fold(folded: Played | None, rec) -> Played:
    """One more stored event of a backgammon stream (other events leave it as it is)."""
    folded = folded or Played(initial_state(), (), {})
    if type(rec.event) not in _TYPES:
        return folded
    commands = {**folded.commands, rec.version: rec.command_id}
    return Played(evolve(folded.state, rec.event), (*folded.events, rec.event), commands)


def history(matches: Matches, match_id: UUID) -> tuple[MatchState, int, list[Event]]:
    """(state, stream version, backgammon events) of a match; MatchNotFound if none."""
    folded = matches.current(match_id)
    return snapshot(folded.value.state), folded.version, list(folded.value.events)


def last_entry_start(state: MatchState, commands: dict[int, UUID], undone: set[int]) -> int:
    """The version before the last command still on the record (-1: none in this game)."""
    chain: list[int] = []
    s: MatchState | None = state
    while s is not None:
        if s.version not in undone:
            chain.append(s.version)
        s = s.prev
    last = commands.get(chain[0]) if chain else None
    return next((v for v in chain if commands.get(v) != last), -1)
