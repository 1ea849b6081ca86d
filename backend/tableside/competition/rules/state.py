"""A competition's state: everything decide needs, built only by folding its events."""

import msgspec

from .brackets import Bracket
from .entrants import Entrant
from .events import BoardCall, Pairing
from .guide import Guide
from .results import MatchResult


class Recorded(msgspec.Struct, frozen=True):
    """A result as recorded for its participants at the time (brackets check they still fit)."""

    a: str
    b: str
    result: MatchResult
    at: str


class PairedRound(msgspec.Struct, frozen=True):
    """One round of a round robin or Swiss: its pairings and the bye."""

    pairings: tuple[Pairing, ...]
    bye: str | None = None


class Protest(msgspec.Struct, frozen=True):
    """A written protest (EKML §9(7)) and, once decided, the head judge's answer."""

    match_id: str
    by: str
    rule_cited: str
    decided: bool = False
    upheld: bool = False


class Withdrawal(msgspec.Struct, frozen=True):
    """How a withdrawal was ruled (EKML §32(3), NOVUS08 3.2)."""

    played: int
    total: int
    results_stand: bool
    rule: str = ""  # the paragraph that ruled it (EKML §32(3), §9(4), NOVUS08 3.2)
    at: str = ""  # when: the public standings and the PDF say it (issue 45)


class Correction(msgspec.Struct, frozen=True):
    """A published event's correction: the edition it made, what it changed, who and why."""

    edition: int
    entrant_id: str
    was_name: str
    name: str
    reason: str
    by: str
    at: str


class Competition(msgspec.Struct, frozen=True):
    """The competition aggregate's state."""

    guide: Guide | None = None
    entrants: dict[str, Entrant] = {}
    order: tuple[str, ...] = ()
    seed: int = 0
    rounds: dict[int, PairedRound] = {}
    bracket: Bracket | None = None
    playoff: Bracket | None = None
    results: dict[str, Recorded] = {}
    boards: dict[str, dict[int, MatchResult]] = {}
    calls: dict[str, int] = {}
    board_calls: dict[str, tuple[BoardCall, ...]] = {}  # a team match's tables, one per board
    called_at: dict[str, str] = {}
    called_sides: dict[str, tuple[str, str]] = {}
    no_shows: dict[str, str] = {}
    protests: dict[str, Protest] = {}
    withdrawals: dict[str, Withdrawal] = {}
    finished: bool = False
    removed: bool = False  # taken off the list before anyone entered (CompetitionRemoved)
    corrections: tuple[Correction, ...] = ()  # of the published event, oldest first
    tables: int = 0  # the hall's tables as the TD set them (0: never set; the console's 8)

    @property
    def the_guide(self) -> Guide:
        """The guide CompetitionCreated set: every stored competition has one (a bug else)."""
        if self.guide is None:
            raise ValueError("a competition before CompetitionCreated has no guide")
        return self.guide

    @property
    def edition(self) -> int:
        """The published results' edition (1 when published, +1 per correction; 0 before)."""
        return len(self.corrections) + 1 if self.finished else 0

    @property
    def current_round(self) -> int:
        """The last paired round (0 before the first)."""
        return max(self.rounds, default=0)


def round_of(match_id: str) -> int:
    """The round a round-robin or Swiss match id belongs to (`R3-2` → 3)."""
    return int(match_id[1:].split("-")[0])
