"""The board after an event, as a plain document: what a replay or a spectator shows."""

from __future__ import annotations

from tableside.disciplines.backgammon import board
from tableside.disciplines.backgammon.state import MatchState
from tableside.disciplines.backgammon.timing import Clock


def board_doc(state: MatchState) -> dict:
    """Position (each side in its own numbering), pips, cube, score, turn, dice and clocks."""
    g = state.game
    a, b = g.position
    return {
        "version": state.version,
        "players": list(state.players),
        "length": state.length,
        "score": list(state.score),
        "game_no": g.game_no,
        "crawford": g.crawford,
        "phase": g.phase,
        "turn": g.turn,
        "dice": list(g.dice) if g.dice != (0, 0) else [],
        "position": {"A": list(a), "B": list(b)},
        "pips": {"A": board.pips(a), "B": board.pips(b)},
        "cube": {"value": g.cube, "owner": g.owner, "dead": g.crawford},
        "illegal_pending": bool(g.illegal),
        "early_roll": g.early_roll,  # the opponent may have the dice rolled again (4.1.5.1)
        "clock": _clock(state.timer),
        "over": state.over,
        "winner": state.winner,
        "dispute": state.dispute,
        "spectators_barred": bool(state.barred_by),  # at a player's request (KSI 1.6.4)
        "contact": board.contact(a, b),  # a resignation waits until none (KSI 4.5)
        "table": state.table,
        "sheets": list(g.sheets),  # whose scoresheet agreed after the game (KSI 4.7)
    }


def _clock(timer: Clock | None) -> dict | None:
    """Both sides' time at the last press; the recording device's time (ms) of that press and
    the delay left since, from which a face counts the running side's time down."""
    if timer is None:
        return None
    return {
        "remaining_ms": {"A": timer.remaining[0], "B": timer.remaining[1]},
        "running": timer.running,
        "stopped": timer.stopped,
        "since_ms": timer.since,
        "delay_left_ms": timer.delay_left,
    }
