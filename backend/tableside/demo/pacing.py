"""How fast the demo's simulated tables play (issue 45): at their pace, except while a Swiss
round's last board is kept for a visitor at table 5 (decision 0137). The round cannot be paired
on before that board is played, so matches of one game (20-60 s) left tables 1-4 "final ·
signed" and idle for nine minutes of the ten: a visitor saw no play. While a board is kept,
each simulated table spreads its match's strokes over the countdown instead, at most one stroke
every STRETCH paces (20 s at the default pace, about a real player's stroke), so a visitor finds
tables 1-4 playing. Pure: the runner gives the state, the countdown and the drawn pace.
"""

from __future__ import annotations

from datetime import datetime

from tableside.disciplines.korona.state import MatchState, full_set

STRETCH = 10  # the longest wait between strokes, in the pace's longest waits (2 s → 20 s)
# Commands a simulated one-game singles match has left, per puck still on the board of the
# side nearer to clearing, and besides (measured: 300 simulated matches, 6-63 commands, mean
# 24; the remaining mean is 3.0 per puck + 2 from any count of pucks left).
PER_PUCK, BESIDES, PER_GAME = 3.0, 2.0, 24.0


def seconds_left(until: str, at: str) -> float:
    """Seconds from `at` to `until` (ISO instants), never below 0; 0 without a countdown."""
    if not until:
        return 0.0
    return max(0.0, (datetime.fromisoformat(until) - datetime.fromisoformat(at)).total_seconds())


def commands_left(state: MatchState) -> float:
    """About how many commands the simulated match has to its signature."""
    if state.ended:
        return 1.0
    on_board = min(p.on_board for p in state.game.pucks) * 8 / full_set(state)
    games_after = max(0, state.games - state.games_played - 1)
    return BESIDES + PER_PUCK * on_board + PER_GAME * games_after


def stroke_wait(drawn: float, longest: float, kept_s: float, state: MatchState) -> float:
    """Seconds before a simulated table's next command: the drawn pace; while a board is kept
    for `kept_s` more seconds, the countdown spread over the commands left, up to STRETCH of
    the pace's longest waits."""
    if kept_s <= 0:
        return drawn
    return max(drawn, min(kept_s / commands_left(state), STRETCH * longest))
