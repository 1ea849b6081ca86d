"""Deciding on a round paired elsewhere (imported CSV/XLSX): the same Swiss checks apply."""

from . import commands as cmd
from . import events as ev
from .decide_draw import next_round, swiss_entries
from .decide_entrants import SWISS_FORMATS, guide_of
from .errors import require

RULE = "EKML §12(2)2"


def import_round(state, c: cmd.ImportRound) -> tuple:
    """Record an imported Swiss round: eligible entrants once each, no repeat pairing
    (EKML §32), one bye at most (EKML §32(2) note 3)."""
    guide = guide_of(state)
    require(
        guide.format in SWISS_FORMATS,
        RULE,
        "only a Swiss round can be imported",
        "import_swiss_only",
    )
    number = next_round(state, guide.rounds)
    entries = {e.id: e for e in swiss_entries(state, number)}
    seen = [x for a, b, _ in c.boards for x in (a, b) if x is not None]
    require(len(seen) == len(set(seen)), RULE, "an entrant is paired twice", "paired_twice")
    require(
        set(seen) <= entries.keys(),
        "EKML §32(3)2",
        "an entrant cannot be paired",
        "cannot_be_paired",
    )
    for a, b, _ in c.boards:
        require(
            b is None or b not in entries[a].opponents,
            "EKML §32",
            f"{a}–{b} met before",
            "met_before",
            a=a,
            b=b,
        )
    byes = [a for a, b, _ in c.boards if b is None]
    require(len(byes) <= 1, "EKML §32(2) note 3", "one bye a round", "one_bye_a_round")
    pairings = tuple(
        ev.Pairing(f"R{number}-{i}", a, b, table)
        for i, (a, b, table) in enumerate(((a, b, t) for a, b, t in c.boards if b), 1)
    )
    out: list = []
    if not state.order:
        out.append(ev.DrawMade(0, tuple(seen), c.at))
    return (*out, ev.RoundPaired(number, pairings, byes[0] if byes else None, RULE))
