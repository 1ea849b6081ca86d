"""The demo's head judge, as pure decisions over a competition's state: the guide (each run
numbered), the setup commands, the match kept for a person at table 5, and the next command to
give (pair, call to a free simulated table, draw the play-off, finish) — each one the
competition domain accepts, or None while there is nothing to do."""

from __future__ import annotations

from datetime import datetime, timedelta

import msgspec

from tableside.competition.rules import commands as cmd
from tableside.competition.rules.decide import decide
from tableside.competition.rules.entrants import Person
from tableside.competition.rules.errors import CompetitionRuleError
from tableside.competition.rules.guide import Guide
from tableside.competition.rules.matches import callable_matches
from tableside.competition.rules.state import Competition

GUIDE = Guide(
    "Demo Swiss",
    format="swiss_playoff",
    rounds=3,
    games_per_match=1,
    women_in_mens=True,
    tie_breaks=("buchholz", "sonneborn_berger", "games_ratio"),
    playoff_size=4,
    playoff_games=3,
)


HOLD_SECONDS = 600  # a Swiss round's last board waits this long for a person at table 5


def run_guide(n: int) -> Guide:
    """The guide of the demo's n-th run: numbered, so two runs are told apart on every list."""
    return msgspec.structs.replace(GUIDE, name=f"{GUIDE.name} #{n}")


class Hold(msgspec.Struct, frozen=True):
    """The match kept for a person (table 5) and the instant its countdown ends."""

    match_id: str
    until: str


def held_for_person(state: Competition, paired_at: str, at: str, seconds: int) -> Hold | None:
    """The current Swiss round's last board, kept from the simulated tables for `seconds`
    after the round was paired, while nobody has called it (a newcomer who read the README
    first still finds it); None once it is called or its countdown has ended."""
    paired = state.rounds.get(state.current_round)
    if paired is None or not paired.pairings or not paired_at:
        return None
    last = paired.pairings[-1].match_id
    if last in state.calls or last in state.results:
        return None
    until = datetime.fromisoformat(paired_at) + timedelta(seconds=seconds)
    if datetime.fromisoformat(at) >= until:
        return None
    return Hold(last, until.isoformat())


def setup_commands(guide: Guide, people: list[tuple[str, Person]], seed: int, at: str) -> list:
    """Create, register, approve and check in everyone, then the draw (EKML §12(2)2)."""
    out: list = [cmd.CreateCompetition(guide, at)]
    for entrant_id, person in people:
        out += [
            cmd.RegisterEntrant(entrant_id, person.name, (person,), at),
            cmd.ApproveEntrant(entrant_id),
            cmd.CheckInEntrant(entrant_id, at),
        ]
    return [*out, cmd.MakeDraw(seed, at)]


def next_command(
    state: Competition, tables: tuple[int, ...], seed: int, at: str, held: Hold | None = None
):
    """The first of: call waiting matches to free tables (not the one held for a person),
    pair the next round, draw the play-off, finish — that the domain accepts now; None if
    none is."""
    busy = {t for m, t in state.calls.items() if m not in state.results}
    free = tuple(t for t in tables if t not in busy)
    candidates = [
        _call(state, free, at, held),
        cmd.PairNextRound(seed),
        cmd.DrawPlayoff(at),
        cmd.FinishCompetition(at),
    ]
    for command in candidates:
        if command is not None and _accepted(state, command):
            return command
    return None


def _call(state: Competition, free: tuple[int, ...], at: str, held: Hold | None):
    """All waiting matches to the free tables, or while one is held, the first other one."""
    if not free:
        return None
    if held is None:
        return cmd.CallNextMatches(free, at)
    other = next((m for m, _ in callable_matches(state) if m != held.match_id), None)
    return None if other is None else cmd.CallMatch(other, min(free), at)


def _accepted(state: Competition, command) -> bool:
    """Whether the domain would record something for this command now."""
    try:
        return bool(decide(state, command))
    except CompetitionRuleError:
        return False
