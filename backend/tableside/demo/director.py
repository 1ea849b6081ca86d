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
# A kept board called to table 5 and judged there: taken over once nobody has judged it for
# this long after its countdown (a visitor still tapping is never raced; decision 0190).
QUIET_SECONDS = 60


def run_guide(n: int) -> Guide:
    """The guide of the demo's n-th run: numbered, so two runs are told apart on every list."""
    return msgspec.structs.replace(GUIDE, name=f"{GUIDE.name} #{n}")


class Hold(msgspec.Struct, frozen=True):
    """The match kept for a person (table 5), the instant its countdown ends, and whether it
    is called (to table 5) already."""

    match_id: str
    until: str
    called: bool = False


def _kept_board(state: Competition, paired_at: str) -> tuple[str, datetime] | None:
    """The current Swiss round's last board, unplayed, and when its countdown started."""
    paired = state.rounds.get(state.current_round)
    if paired is None or not paired.pairings or not paired_at:
        return None
    last = paired.pairings[-1].match_id
    return None if last in state.results else (last, datetime.fromisoformat(paired_at))


def held_for_person(state: Competition, paired_at: str, at: str, seconds: int) -> Hold | None:
    """The current Swiss round's last board, kept from the simulated tables for `seconds`
    after the round was paired (a newcomer who read the README first still finds it) — also
    once called, while unplayed: the countdown runs on, the other tables keep spreading their
    strokes over it (decision 0190); None once played or its countdown has ended."""
    kept = _kept_board(state, paired_at)
    if kept is None:
        return None
    until = kept[1] + timedelta(seconds=seconds)
    if datetime.fromisoformat(at) >= until:
        return None
    return Hold(kept[0], until.isoformat(), called=kept[0] in state.calls)


def left_at_table(
    state: Competition, paired_at: str, at: str, seconds: int, table: int
) -> str | None:
    """The kept board, called to the person's `table` and not played, once its countdown has
    ended: a simulated table takes it there (decision 0190; the runner asks as well that
    nobody has judged it for QUIET_SECONDS). None before the countdown's end, or elsewhere."""
    kept = _kept_board(state, paired_at)
    if kept is None or state.calls.get(kept[0]) != table:
        return None
    ended = datetime.fromisoformat(at) >= kept[1] + timedelta(seconds=seconds)
    return kept[0] if ended else None


def nobody_judging(last_judged: str | None, at: str) -> bool:
    """No command at the table since its match was put there, or none for QUIET_SECONDS."""
    if last_judged is None:
        return True
    quiet = datetime.fromisoformat(at) - datetime.fromisoformat(last_judged)
    return quiet >= timedelta(seconds=QUIET_SECONDS)


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
