"""Random but legal matches through the engine: next_command(state, rng) and play_match(...).

Takes a random.Random in; mostly ordinary play, now and then a double, a drop, an invalid roll,
an illegal play (accepted or corrected), a concession once contact is gone.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from tableside.disciplines.backgammon import board
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import state as st
from tableside.disciplines.backgammon.engine import decide
from tableside.disciplines.backgammon.events import Event
from tableside.disciplines.backgammon.evolve import evolve
from tableside.disciplines.backgammon.state import MatchState, initial_state, other

MAX_COMMANDS = 100_000  # a safety net: a simulated match that never ends is a bug


def _dice(rng: random.Random) -> tuple[int, int]:
    return (rng.randint(1, 6), rng.randint(1, 6))


def _roll(state: MatchState, rng: random.Random) -> c.Command:
    g = state.game
    need = state.length - max(state.score)
    may_double = g.phase == st.ROLL and g.owner in ("", g.turn) and g.cube < need
    if g.crawford and rng.random() < 0.01:
        return c.Double(side=g.turn)  # voided (KSI 4.4.4)
    may_double = may_double and not g.crawford
    if may_double and rng.random() < 0.08:
        return c.Double(side=g.turn)
    if rng.random() < 0.02:
        return c.Roll(side=g.turn, invalid="cocked")
    return c.Roll(side=g.turn, dice=_dice(rng))


def _play(state: MatchState, rng: random.Random) -> c.Command:
    g = state.game
    me, opp = st.mine(state, g.turn)
    plays = list(board.legal_plays(me, opp, g.dice).values())
    if rng.random() < 0.01 and any(plays):
        return c.Play(side=g.turn, moves=())  # an illegal play: not moving at all
    return c.Play(side=g.turn, moves=rng.choice(plays))


def _out_of_turn(state: MatchState, rng: random.Random) -> c.Command | None:
    """While the mover moves: the opponent rolls early (KSI 4.1.5.1) or doubles prematurely
    (KSI 4.4.5); an early roll may be sent back."""
    g = state.game
    waiting = other(g.turn)
    if g.early_roll:
        return c.RequireReroll(side=waiting) if rng.random() < 0.5 else None
    if g.early_dice != (0, 0) or g.early_double or rng.random() > 0.04:
        return None
    need = state.length - max(state.score)
    if rng.random() < 0.5 and not g.crawford and g.owner in ("", waiting) and g.cube < need:
        return c.Double(side=waiting)
    return c.Roll(side=waiting, dice=_dice(rng))


def _concession(state: MatchState, rng: random.Random) -> c.Command | None:
    g = state.game
    if g.concession[0]:
        return c.AnswerConcession(side=other(g.concession[0]), accept=rng.random() < 0.7)
    if g.phase == st.ROLL and rng.random() < 0.05 and not board.contact(*st.mine(state, g.turn)):
        return c.Concede(side=g.turn, kind="single")
    return None


def next_command(state: MatchState, rng: random.Random) -> c.Command:
    """A legal next command for a match in progress."""
    g = state.game
    if g.phase == st.OVER:
        return c.StartGame()
    if g.phase == st.OPENING:
        return c.RollOpening(die_a=rng.randint(1, 6), die_b=rng.randint(1, 6))
    if g.illegal and g.phase == st.ROLL:
        fix = c.CorrectIllegalPlay if rng.random() < 0.5 else c.AcceptIllegalPlay
        return fix(side=g.turn)
    if g.phase == st.DOUBLED:
        answer = c.Take if rng.random() < 0.7 else c.Drop
        return answer(side=other(g.turn))
    conceded = _concession(state, rng)
    if conceded:
        return conceded
    if g.phase == st.MOVE:
        return _out_of_turn(state, rng) or _play(state, rng)
    return _roll(state, rng)


def play_match(rng: random.Random, length: int = 7) -> Iterator[Event]:
    """The events of one whole random match to `length` points."""
    state = initial_state()
    create = c.CreateMatch(
        match_id=f"sim-{rng.randrange(10**9)}", player_a="a", player_b="b", length=length
    )
    cmd: c.Command = create
    for _ in range(MAX_COMMANDS):
        for event in decide(state, cmd):
            state = evolve(state, event)
            yield event
        if state.over:
            return
        cmd = next_command(state, rng)
    raise RuntimeError("a simulated match did not end")
