"""The board after an event, as a plain document: what a replay or a spectator shows."""

from __future__ import annotations

from tableside.disciplines.backgammon import board
from tableside.disciplines.backgammon.state import MatchState


def board_doc(state: MatchState) -> dict:
    """Position (each side in its own numbering), pips, cube, score, turn, dice and clocks."""
    g = state.game
    a, b = g.position
    timer = state.timer
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
        "clock": None
        if timer is None
        else {
            "remaining_ms": {"A": timer.remaining[0], "B": timer.remaining[1]},
            "running": timer.running,
            "stopped": timer.stopped,
        },
        "over": state.over,
        "winner": state.winner,
        "dispute": state.dispute,
    }
