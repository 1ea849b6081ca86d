"""Deciding on draws: round robin (EKML §31(1)1), Swiss (§32), brackets (KUUSALU), play-off."""

from . import commands as cmd
from . import events as ev
from . import sports
from .berger import round_robin_pairings
from .brackets import bracket_size, double_elimination, playoff, single_elimination
from .decide_entrants import SWISS_FORMATS, guide_of
from .errors import require
from .records import records, totals
from .standings import StandingsView, standings
from .state import Competition
from .swiss import SwissEntry, drawn_order, pair_swiss


def make_draw(state: Competition, c: cmd.MakeDraw) -> tuple:
    """The head judge's draw from a recorded seed (EKML §12(2)2) over checked-in entrants."""
    guide = guide_of(state)
    require(not state.order and not state.bracket, "EKML §12(2)2", "the draw is made", "draw_made")
    early = guide.draw_at is not None and c.at < guide.draw_at
    require(
        not early or c.early,
        "EKML §3(4)11",
        f"the guide sets the draw for {guide.draw_at}",
        "draw_time_set",
        at=guide.draw_at,
    )
    ready = [e.id for e in state.entrants.values() if e.status == "checked_in"]
    require(
        len(ready) >= 2, "EKML §9(3)", "fewer than two entrants checked in", "too_few_checked_in"
    )
    order = drawn_order(ready, c.seed)
    made = ev.DrawMade(c.seed, order, c.at, early)
    if guide.format == "round_robin":
        return (made, *_round_robin(order))
    if guide.format in SWISS_FORMATS:
        entries = [SwissEntry(e, 0.0, i) for i, e in enumerate(order)]
        return (made, _swiss_round(1, entries, c.seed, guide.rounds))
    size = bracket_size(len(order), sports.of(guide).smallest_bracket)
    seeds = order + (None,) * (size - len(order))
    if guide.format == "double_elimination":
        return (made, ev.BracketDrawn(c.seed, double_elimination(seeds), "KUUSALU"))
    bracket = single_elimination(seeds, guide.consolation, guide.last_chance)
    return (made, ev.BracketDrawn(c.seed, bracket, "NOVUS08 22.1.2"))


def _round_robin(order: tuple[str, ...]) -> list[ev.RoundPaired]:
    """Every round at once from the Berger tables; the first-listed opens (EKML §31(1)1)."""
    paired = []
    for number, boards in enumerate(round_robin_pairings(order), start=1):
        real = [(a, b) for a, b in boards if b is not None]
        bye = next((a for a, b in boards if b is None), None)
        pairings = tuple(ev.Pairing(f"R{number}-{i}", a, b) for i, (a, b) in enumerate(real, 1))
        paired.append(ev.RoundPaired(number, pairings, bye, "EKML §31(1)1"))
    return paired


def _swiss_round(number: int, entries: list[SwissEntry], seed: int, rounds: int) -> ev.RoundPaired:
    """One Swiss round as an event (EKML §32(2) note 3; §31(1)2 opening), paired so that the
    guide's remaining rounds can still be paired."""
    paired = pair_swiss(entries, seed * 1000 + number, rounds - number)
    pairings = tuple(
        ev.Pairing(f"R{number}-{i}", a, b) for i, (a, b) in enumerate(paired.boards, 1)
    )
    return ev.RoundPaired(number, pairings, paired.bye, "EKML §32(2)")


def pair_next_round(state: Competition, c: cmd.PairNextRound) -> tuple:
    """Pair the next Swiss round once the last is complete; withdrawn entrants are not
    paired (EKML §32(3)2), late entrants join from the round after they came (guide)."""
    guide = guide_of(state)
    require(
        guide.format in SWISS_FORMATS,
        "EKML §32",
        "only a Swiss pairs round by round",
        "swiss_only_round_by_round",
    )
    require(bool(state.order), "EKML §12(2)2", "make the draw first", "draw_first")
    number = next_round(state, guide.rounds)
    return (_swiss_round(number, swiss_entries(state, number), c.seed, guide.rounds),)


def next_round(state: Competition, rounds: int) -> int:
    """The number of the round to pair next: within the guide's rounds (EKML §3(4)6), once
    the last one is complete (EKML §12(2)4)."""
    number = state.current_round + 1
    require(
        number <= rounds,
        "EKML §3(4)6",
        f"the guide has {rounds} rounds",
        "guide_rounds",
        rounds=rounds,
    )
    require(
        round_complete(state),
        "EKML §12(2)4",
        "the last round is not complete",
        "last_round_incomplete",
    )
    return number


def round_complete(state: Competition) -> bool:
    """Whether every match of the last round has a result."""
    last = state.rounds.get(state.current_round)
    return last is None or all(p.match_id in state.results for p in last.pairings)


def swiss_entries(state: Competition, number: int) -> list[SwissEntry]:
    """The Swiss view of every entrant eligible for this round."""
    recs = records(state)
    tot = totals(recs)
    return [
        _entry(state, e.id, recs.get(e.id, []), tot.get(e.id, 0.0))
        for e in state.entrants.values()
        if e.status == "checked_in" and e.joined_round <= number
    ]


def _entry(state: Competition, entrant: str, games, score: float) -> SwissEntry:
    """One entrant's score, opponents, bye and openings so far."""
    opened = [n for n, r in state.rounds.items() for p in r.pairings if p.a == entrant]
    played = [n for n, r in state.rounds.items() for p in r.pairings if entrant in (p.a, p.b)]
    return SwissEntry(
        entrant,
        score,
        _rank(state, entrant),
        opponents=frozenset(g.opponent for g in games if g.opponent),
        had_bye=any(g.kind == "bye" for g in games),
        openings=len(opened),
        opened_last=bool(played) and max(played) in opened,
        played=len(played),
    )


def _rank(state: Competition, entrant_id: str) -> int:
    """Starting number; late entrants rank after the drawn field in registration order."""
    if entrant_id in state.order:
        return state.order.index(entrant_id)
    return len(state.order) + list(state.entrants).index(entrant_id)


def draw_playoff(state: Competition, c: cmd.DrawPlayoff) -> tuple:
    """After the Swiss preliminary, its top 4 (1v4, 2v3) or 8 go to the play-off (guide)."""
    guide = guide_of(state)
    require(
        guide.format == "swiss_playoff",
        "guide play-off",
        "no play-off in this format",
        "no_playoff_in_format",
    )
    require(state.playoff is None, "guide play-off", "the play-off is drawn", "playoff_drawn")
    done = state.current_round == guide.rounds and round_complete(state)
    require(done, "guide play-off", "the Swiss preliminary is not finished", "swiss_unfinished")
    rows = standings(StandingsView(state))
    ranked = tuple(r.entrant for r in rows if state.entrants[r.entrant].status != "withdrawn")
    ranked = ranked[: guide.playoff_size]
    return (ev.PlayoffDrawn(playoff(ranked), "guide play-off"),)
