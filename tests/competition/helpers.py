"""Given/when/then helpers for competition tests: build events through decide itself."""

import random

from tableside.competition.rules import commands as cmd
from tableside.competition.rules.decide import decide
from tableside.competition.rules.entrants import Person
from tableside.competition.rules.evolve import evolve
from tableside.competition.rules.guide import Guide
from tableside.competition.rules.matches import open_matches
from tableside.competition.rules.results import MatchResult
from tableside.competition.rules.state import Competition

AT = "2026-05-01T10:00:00+00:00"


class Run:
    """A competition driven command by command, keeping every event in order."""

    def __init__(self, guide: Guide) -> None:
        self.state = Competition()
        self.events: list = []
        self.do(cmd.CreateCompetition(guide, AT))

    def do(self, command) -> tuple:
        """Decide and apply one command; return its events."""
        new = decide(self.state, command)
        for event in new:
            self.state = evolve(self.state, event)
        self.events.extend(new)
        return new

    def enter(self, n: int, prefix: str = "p", sex: str = "M") -> list[str]:
        """Register, approve and check in n single players."""
        ids = [f"{prefix}{i:02d}" for i in range(1, n + 1)]
        for i in ids:
            self.enter_one(i, (Person(f"Player {i}", 1980, sex),))
        return ids

    def enter_one(self, entrant_id: str, members, team=None) -> None:
        """Register, approve and check in one entrant."""
        self.do(cmd.RegisterEntrant(entrant_id, entrant_id, members, AT, team))
        self.do(cmd.ApproveEntrant(entrant_id))
        self.do(cmd.CheckInEntrant(entrant_id, AT))

    def play_open(self, rng: random.Random, games: int = 4, draws: bool = True) -> int:
        """Record a random result for every match ready to play; return how many."""
        called = [m for m in self.state.calls if m not in self.state.results]
        ready = called + [m for m, _ in open_matches(self.state)]
        for match_id in ready:
            self.do(cmd.RecordResult(match_id, random_result(rng, games, draws), AT))
        return len(ready)

    def play_all(self, rng: random.Random, games: int = 4) -> None:
        """Play every match as it becomes ready until none is left."""
        while self.play_open(rng, games):
            pass


def played_out(guide: Guide, entrants: int, seed: int, games: int = 1) -> Run:
    """A competition drawn from `seed` and played to the end with random results."""
    run = Run(guide)
    run.enter(entrants)
    run.do(cmd.MakeDraw(seed, AT))
    run.play_all(random.Random(seed), games)
    return run


def random_result(rng: random.Random, games: int, draws: bool = True) -> MatchResult:
    """A plausible result of a match stopped once decided (EKML §32(1))."""
    need = games // 2 + 1
    outcomes = ["a", "b", "draw"] if draws and games % 2 == 0 else ["a", "b"]
    won = rng.choice(outcomes)
    if won == "draw":
        return MatchResult(games // 2, games // 2, a_pucks_diff=rng.randint(-5, 5))
    loser = rng.randint(0, min(need - 1, games - need))
    pucks = rng.randint(1, 12)
    if won == "a":
        return MatchResult(need, loser, a_pucks_diff=pucks)
    return MatchResult(loser, need, a_pucks_diff=-pucks)
