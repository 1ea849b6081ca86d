"""Shared checks and consequences of the deciders."""

from __future__ import annotations

from tableside.disciplines.backgammon import board
from tableside.disciplines.backgammon import cite as k
from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon import state as st
from tableside.disciplines.backgammon.errors import RuleViolation
from tableside.disciplines.backgammon.evolve import fold
from tableside.disciplines.backgammon.state import MatchState, index, other

KINDS = {1: "single", 2: "gammon", 3: "backgammon"}
MULTIPLIER = {"single": 1, "gammon": 2, "backgammon": 3}


def in_game(state: MatchState) -> None:
    """A game is in progress."""
    if not state.created:
        raise RuleViolation(k.RECORD, "no match has been created", code="bg_no_match_created")
    if state.over:
        raise RuleViolation(
            k.FINISH, "the match is over: it was played to its length", code="bg_match_over"
        )
    if state.game.phase == st.OVER:
        raise RuleViolation(k.RECORD, "no game is in progress", code="bg_no_game")


def side(value: str) -> None:
    if value not in ("A", "B"):
        why = f"side must be A or B, not {value!r}"
        raise RuleViolation(k.PLAY, why, "side", code="bg_side_a_b", params={"value": value})


def dice(values: tuple[int, ...], field: str = "dice") -> None:
    """Dice give numbers from 1 to 6 (KSI 4.1.1)."""
    if len(values) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in values):
        raise RuleViolation(
            k.RANDOM,
            f"dice show 1 to 6, not {values!r}",
            field,
            code="bg_dice_range",
            params={"dice": values},
        )


def end_game(state: MatchState, winner: str, kind: str, by: str, rule: str) -> list[ev.Event]:
    """The game's end, with the match's end when the winner reaches the length (KSI 4.5)."""
    cube = state.game.cube
    points = MULTIPLIER[kind] * cube
    score = list(state.score)
    score[index(winner)] += points
    after = (score[0], score[1])
    events: list[ev.Event] = [
        ev.GameEnded(
            winner=winner, kind=kind, by=by, cube=cube, points=points, score=after, rule=rule
        )
    ]
    if after[index(winner)] >= state.length:
        events.append(ev.MatchEnded(winner=winner, score=after, rule=k.FINISH))
    return events


def end_if_borne_off(state: MatchState, mover: str) -> list[ev.Event]:
    """The mover has borne off every checker: he wins single, gammon or backgammon."""
    me, opp = st.mine(state, mover)
    if not board.borne_off_all(me):
        return []
    return end_game(state, mover, KINDS[board.loss_kind(opp)], "play", k.PLAY)


def then(state: MatchState, events: list[ev.Event]) -> MatchState:
    """The state after events decided so far (to decide their consequences)."""
    return fold(events, state)


def accept_rule(state: MatchState) -> str:
    return k.ILLEGAL_CLOCK if state.clock else k.ILLEGAL_NO_CLOCK


def implicit_accept(state: MatchState, by: str) -> list[ev.Event]:
    """Rolling or doubling accepts the opponent's illegal play (KSI 4.2.3.2/4.2.3.3)."""
    g = state.game
    if not g.illegal or by != other(g.illegal[0]):
        return []
    me, _ = st.mine(state, g.illegal[0])
    if board.borne_off_all(me):
        raise RuleViolation(
            k.ILLEGAL,
            "the illegal play bore off the last checker: accept or correct it first",
            code="bg_illegal_bore_off_last",
        )
    return [ev.IllegalPlayAccepted(side=by, rule=accept_rule(state))]
