"""Random but legal matches through the engine: next_command(state, rng) and play_match(...)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from tableside.disciplines.korona import commands as c
from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona.engine import decide
from tableside.disciplines.korona.fold import apply, entry_span, refold
from tableside.disciplines.korona.rulesets_variants import ruleset_for
from tableside.disciplines.korona.simulate_facts import stroke_facts, zone_survey
from tableside.disciplines.korona.state import MatchState, initial_state, players, side_of
from tableside.disciplines.korona.vocabulary import index, other

MAX_COMMANDS = 20_000  # a safety net: a simulated match that never ends is a bug


def new_match(rng: random.Random, ruleset: str = "EKML", pairs: bool = False, games: int = 1):
    """The CreateMatch command of a simulated match."""
    n = rng.randrange(10**9)
    names = ("a1", "a2", "b1", "b2") if pairs else ("a1", "b1")
    half = len(names) // 2
    return c.CreateMatch(
        match_id=f"sim-{n}",
        side_a=names[:half],
        side_b=names[half:],
        ruleset=ruleset,
        fmt="pairs" if pairs else "singles",
        games=games,
    )


def _last_entry(state: MatchState) -> tuple[int, object] | None:
    return next(((v, e) for v, e in reversed(state.window) if type(e) in ev.ENTRY_TYPES), None)


def _stroke(state: MatchState, rng: random.Random, player: str) -> c.RecordStroke:
    side = side_of(state, player)
    g = state.game
    mine, theirs = g.pucks[index(side)].on_board, g.pucks[index(other(side))].on_board
    rs = ruleset_for(state.ruleset, state.fill_silences)
    f = stroke_facts(
        rng, rs, mine, theirs, g.strokes > 150, g.seats if state.fmt == "pairs" else ()
    )
    return c.RecordStroke(player=player, facts=f, zone=zone_survey(rng))


def _correction(state: MatchState, rng: random.Random) -> c.Command | None:
    last = _last_entry(state)
    if last is None or type(last[1]) in (ev.MatchCreated, ev.CorrectionRecorded, ev.ProtocolSigned):
        return None
    if type(last[1]) is not ev.StrokeRecorded or rng.random() < 0.5:
        return c.UndoLastEntry(reason="entered_by_mistake")
    start, _ = entry_span(state.window, last[0])
    before = refold(state, state.window[:start])
    return c.CorrectDecision(
        corrects_version=last[0],
        reason="head judge ruling",
        replacement=_stroke(before, rng, last[1].player),
    )


def _side_command(state: MatchState, rng: random.Random, turn: str) -> c.Command | None:
    side = side_of(state, turn)
    i, r = index(side), rng.random()
    rs = ruleset_for(state.ruleset, state.fill_silences)
    if r < 0.01:
        return _correction(state, rng)
    if r < 0.015 and rs.remarks:  # LV with its silences unfilled has none
        reasons = [
            k for k in rs.remarks if state.fmt == "pairs" or k != "partner_advice_after_placing"
        ]
        return c.GiveRemark(player=turn, reason=rng.choice(reasons))
    if r < 0.018 and state.slow_remarks[i]:
        return c.ReportTimeExceeded(player=turn, limit=rng.choice(("5s", "30s")))
    if r < 0.021:
        opp = players(state, other(side))[0]
        return c.ReportIncident(
            code="moved_puck_in_opponent_turn", player=opp, zone=zone_survey(rng)
        )
    if r < 0.023:
        return c.DeclineTurn(player=turn)
    if r < 0.024 and rs.debt_forgetting and state.game.pucks[i].debt:
        return c.ForgetDebt(side=side)
    if r < 0.025:
        return c.KnockTable(player=turn, pucks_moved=rng.choice((0, 0, 1, 2)))
    if r < 0.0255 and "yellow" in rs.cite:  # NOVUS08 has no yellow card
        return c.GiveWarning(player=turn, card="yellow")
    return None


def next_command(state: MatchState, rng: random.Random) -> c.Command | None:
    """A legal next command, or None once the match is over and its protocol signed."""
    if not state.created:
        return new_match(rng)
    if not state.protocol_seats:
        if state.opening == "listing":  # the guide's round robin: the first-listed opens
            return c.AssignOpeningShot(method="listing")
        return c.AssignOpeningShot(method="lot", lot_winner=rng.choice(("A", "B")))
    if state.ended:
        return None if state.signed else c.SignProtocol(judge="sim-judge")
    turn = state.game.turn
    side = side_of(state, turn)
    if state.game.pucks[index(side)].on_board == 0:
        return c.DeclineTurn(player=turn)
    return _side_command(state, rng, turn) or _stroke(state, rng, turn)


def play_match(
    rng: random.Random, ruleset: str = "EKML", pairs: bool = False, games: int = 1
) -> Iterator[ev.Event]:
    """Every event of one simulated match, in order."""
    state = initial_state()
    command: c.Command | None = new_match(rng, ruleset, pairs, games)
    for _ in range(MAX_COMMANDS):
        if command is None:
            return
        for event in decide(state, command):
            state = apply(state, event, state.version + 1)
            yield event
        command = next_command(state, rng)
    raise RuntimeError("simulated match did not end")
