"""A match that ended away from the board, in .mat text (pure): how the export says it and how
the import carries it out again.

The export writes a header comment citing the paragraph and naming winner and loser (GNU
Backgammon keeps it as the match's comment and writes it back), then gives the winner what he
needed in the game in progress, or in one more game whose header carries the penalty points
already credited. The import reads the games as played, then records the ending with the
command a TD would have used: the expulsion, the lateness or slow-play penalty (the points
from that header), or the flag of the loser's clock (decision 0132).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon import state as st

# why a match ended away from the board, by the paragraph its end cites
ENDINGS = {
    "KSI 4.3.3": "time ran out",
    "KSI 2.2.4": "penalty points for lateness exceed half the match length",
    "KSI 2.3.1.2": "penalty points for slow play",
    "KSI 1.2.4": "expelled for conduct",
    "KSI 1.7.3": "expelled for aids or outside help",
    "KSI 1.2.3.2": "expelled for mistreating the equipment",
}
OTHER_RULES_MARK = "; Played under other rules (history from another event, not a KSI board)"
PENALTY = re.compile(
    r"^; (KSI [\d.]+): (\d+) penalty points? to (.+) \((start|pause|slow play), (\d+) minutes\) "
    r"(in|before) game (\d+)\s*$"
)
GROUNDS = {"KSI 1.2.4": "conduct", "KSI 1.7.3": "aids", "KSI 1.2.3.2": "equipment"}
COMMENT = re.compile(r"^; (KSI [\d.]+): (.*); (.+) wins the match against (.+?)\s*$")
LATE_MINUTES_A_POINT = 5  # KSI 2.2.4
FLAG_AT_MS = 24 * 3_600_000  # the flag is reported a day on: every clock has run out by then


class AwayEnding:
    """The ending a header comment cites: its paragraph, why, and the winner's name."""

    def __init__(self, rule: str, why: str, winner: str) -> None:
        self.rule, self.why, self.winner = rule, why, winner
        self.header: tuple[int, int] | None = None  # the score line of a game with no move


def comment(rule: str, why: str, winner: str, loser: str) -> str:
    return f"; {rule}: {why}; {winner} wins the match against {loser}"


def penalty_comment(e: ev.PenaltyPoints, name: str, where: str) -> str:
    """`; KSI 2.2.4: 3 penalty points to Ása (start, 15 minutes) before game 2`."""
    points = f"{e.points} penalty point{'s' if e.points != 1 else ''}"
    return f"; {e.rule}: {points} to {name} ({e.reason}, {e.minutes} minutes) {where}"


def penalties(lines: list[str]) -> dict[tuple[str, int], list[tuple[str, str, int, int]]]:
    """The penalty points a header comment lists, by (in|before, game number): (name, reason,
    points, minutes) each."""
    found: dict[tuple[str, int], list[tuple[str, str, int, int]]] = {}
    for line in lines:
        if m := PENALTY.match(line):
            key = (m.group(6), int(m.group(7)))
            found.setdefault(key, []).append(
                (m.group(3), m.group(4), int(m.group(2)), int(m.group(5)))
            )
    return found


def penalty_command(side: str, reason: str, points: int, minutes: int) -> c.Command:
    """The TD's command that credits the penalty points again."""
    if reason == "slow play":
        return c.PenaliseSlowPlay(side=side, points=points)
    return c.RecordLateness(side=side, minutes=minutes, reason=reason)


def find(lines: list[str]) -> AwayEnding | None:
    """The away ending a .mat text's header comment cites (None: it ended at the board)."""
    for line in lines:
        m = COMMENT.match(line)
        if m and m.group(1) in ENDINGS:
            return AwayEnding(m.group(1), m.group(2), m.group(3))
    return None


def carry_out(
    state: Callable[[], st.MatchState], apply: Callable[[c.Command], None], ending: AwayEnding
) -> None:
    """Record the ending through the engine with the TD's commands, after the games as read."""
    now = state()
    winner = "AB"[now.players.index(ending.winner)] if ending.winner in now.players else ""
    if not winner or now.over:
        return
    loser = st.other(winner)
    if ending.rule in GROUNDS:
        apply(c.Expel(side=loser, reason=ending.why, ground=GROUNDS[ending.rule]))
    elif ending.rule == "KSI 2.2.4":
        apply(
            c.RecordLateness(
                side=loser, minutes=LATE_MINUTES_A_POINT * _credited(now, ending, winner)
            )
        )
    elif ending.rule == "KSI 2.3.1.2":
        need = now.length - now.score["AB".index(winner)]
        apply(c.PenaliseSlowPlay(side=loser, points=_credited(now, ending, winner) or need))
    else:  # the loser's clock runs until it is out (KSI 4.3.3)
        apply(c.StartClock(at_ms=0))
        timer = state().timer
        if timer and timer.running != loser:
            apply(c.PressClock(side=winner, at_ms=0))
        apply(c.ReportFlag(at_ms=FLAG_AT_MS))


def _credited(state: st.MatchState, ending: AwayEnding, winner: str) -> int:
    """Penalty points the last header credited to the winner beyond the games' score."""
    if ending.header is None:
        return 0
    i = "AB".index(winner)
    return max(0, ending.header[i] - state.score[i])
