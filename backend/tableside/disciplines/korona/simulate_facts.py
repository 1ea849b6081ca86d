"""Random but plausible stroke facts for the simulator (mostly correct strokes, some fouls)."""

from __future__ import annotations

import random

from tableside.disciplines.korona.commands import StrokeFacts, ZoneSurvey
from tableside.disciplines.korona.rulesets import Ruleset

_DIRECT_WRONG = ("opponent", "own_and_opponent", "own_locked_zone", "own_locked_centre", "none")
_BANK_OPP = ("own_open", "own_locked_zone", "own_locked_centre", "opponent", "none")
_BANK_SIDE = ("own_locked_centre", "opposite_cushion", "own_open", "opponent", "none")


def _contact(rng: random.Random, open_: bool) -> tuple[str, str]:
    if open_:
        kind = rng.choices(("direct", "bank_opposite", "bank_side"), (85, 10, 5))[0]
    else:
        kind = rng.choices(("bank_opposite", "bank_side"), (70, 30))[0]
    if kind == "direct":
        contact = "own_open" if rng.random() < 0.9 else rng.choice(_DIRECT_WRONG)
    elif kind == "bank_opposite":
        contact = rng.choice(_BANK_OPP if open_ else _BANK_OPP[1:3] * 3 + _BANK_OPP[3:])
    else:
        contact = rng.choice(_BANK_SIDE)
    return kind, contact


def _pocketed(rng: random.Random, mine: int, theirs: int, eager: bool) -> tuple[int, int]:
    own = 0
    if rng.random() < (0.8 if eager else 0.45):
        own = min(mine, rng.choices((1, 2, 3), (80, 17, 3))[0])
    opp = min(theirs, 1) if rng.random() < 0.05 else 0
    return own, opp


def _rare(rng: random.Random, kind: str, contact: str, own: int) -> dict:
    """The uncommon facts: knocked-out locked pucks, pucks into a lock, judge-seen offences."""
    r = rng.random
    knocked = rng.randint(0, 2) if kind == "direct" and contact.startswith("own_locked") else 0
    return {
        "own_locked_out": knocked,
        "own_locked_out_pocketed": min(knocked, own) if r() < 0.3 else 0,
        "locked_hit_moved": rng.randint(0, 2) if knocked else 0,
        "opponent_locked_out": 1 if r() < 0.01 else 0,
        "opponent_into_centre": 1 if r() < 0.01 else 0,
        "opponent_into_zone": 1 if r() < 0.01 else 0,
    }


def stroke_facts(
    rng: random.Random, rs: Ruleset, mine: int, theirs: int, eager: bool, players: tuple[str, ...]
) -> StrokeFacts:
    """One stroke's facts for a shooter with `mine` own and `theirs` opponent pucks on the board."""
    locked = rng.random() < 0.3
    open_ = mine > 0 and (not locked or rng.random() < 0.6)
    kind, contact = _contact(rng, open_)
    own, opp = _pocketed(rng, mine, theirs, eager)
    r = rng.random
    return StrokeFacts(
        kind=kind,
        first_contact=contact,
        own_pocketed=own,
        opponent_pocketed=opp,
        own_over=1 if r() < 0.02 else 0,
        opponent_over=1 if r() < 0.02 else 0,
        over_first_touched=rng.choice(("A", "B", "")),
        striker=rng.choices(("board", "pocket", "over"), (96, 3, 1))[0],
        crossed_zone_line=r() < 0.05,
        own_open_before=open_,
        own_locked_before=locked or not open_,
        rows_moved=tuple(p for p in players if r() < 0.1),
        only_centre=mine <= 2 and theirs <= 2 and r() < 0.3,
        offences=(rng.choice(tuple(rs.stroke_offences)),) if r() < 0.01 else (),
        **_rare(rng, kind, contact, own),
    )


def zone_survey(rng: random.Random) -> ZoneSurvey:
    """Usually an empty centre-line spot; sometimes a crowded zone."""
    if rng.random() < 0.8:
        return ZoneSurvey()
    return ZoneSurvey(
        centre_free=False,
        nearer=rng.choice(("equal", "left", "right")),
        own_left=rng.randint(0, 3),
        own_right=rng.randint(0, 3),
        total_left=rng.randint(0, 5),
        total_right=rng.randint(0, 5),
        stroke_side=rng.choice(("left", "right", "")),
    )
