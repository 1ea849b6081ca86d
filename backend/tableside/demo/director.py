"""The demo's head judge, as pure decisions over a competition's state: the guide, the setup
commands, and the next command to give (pair, call to a free simulated table, draw the play-off,
finish) — each one the competition domain accepts, or None while there is nothing to do."""

from __future__ import annotations

from tableside.competition.rules import commands as cmd
from tableside.competition.rules.decide import decide
from tableside.competition.rules.entrants import Person
from tableside.competition.rules.errors import CompetitionRuleError
from tableside.competition.rules.guide import Guide
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


def next_command(state: Competition, tables: tuple[int, ...], seed: int, at: str):
    """The first of: call waiting matches to free tables, pair the next round, draw the
    play-off, finish — that the domain accepts now; None if none is."""
    busy = {t for m, t in state.calls.items() if m not in state.results}
    free = tuple(t for t in tables if t not in busy)
    candidates = [
        cmd.CallNextMatches(free, at) if free else None,
        cmd.PairNextRound(seed),
        cmd.DrawPlayoff(at),
        cmd.FinishCompetition(at),
    ]
    for command in candidates:
        if command is not None and _accepted(state, command):
            return command
    return None


def _accepted(state: Competition, command) -> bool:
    """Whether the domain would record something for this command now."""
    try:
        return bool(decide(state, command))
    except CompetitionRuleError:
        return False
