"""Every way a match ends exports a .mat with the right final score and the reason as a comment
citing its paragraph: a flag (KSI 4.3.3), an expulsion (KSI 1.2.4), lateness (KSI 2.2.4) —
which is also how a forfeit or a withdrawal's walkover is recorded — and slow-play penalty
points (KSI 2.3.1.2). Read back by GNU Backgammon where it is installed."""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path

import pytest
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon import fold, initial_state
from tableside.disciplines.backgammon.mat import export_mat
from tableside.plugins.backgammon.competition_flow import late_minutes

from .gnubg_oracle import GNUBG
from .test_mat import replay

MIN = 60_000
CREATE = c.CreateMatch(match_id="m", player_a="Ása", player_b="Bjarni", length=5, clock=True)
# game 1: Bjarni doubles, Ása drops (0:1); game 2 under way
PLAYED = [
    CREATE,
    c.StartGame(),
    c.RollOpening(die_a=3, die_b=1),
    c.Play(side="A", moves=((8, 5), (6, 5))),
    c.Double(side="B"),
    c.Drop(side="A"),
    c.StartGame(),
    c.RollOpening(die_a=6, die_b=2),
    c.Play(side="A", moves=((24, 18), (13, 11))),
]


ENDINGS = {
    "flag": (
        [*PLAYED, c.StartClock(at_ms=0), c.PressClock(side="A", at_ms=0),
         c.ReportFlag(at_ms=20 * MIN)],
        "KSI 4.3.3", "A", (5, 1),
    ),
    "expulsion in a game": (
        [*PLAYED, c.Expel(side="B", reason="abuse")], "KSI 1.2.4", "A", (5, 1),
    ),
    "expulsion between games": (
        [*PLAYED[:6], c.Expel(side="A", reason="outside help", ground="aids")],
        "KSI 1.7.3", "B", (0, 5),
    ),
    "lateness": (
        [CREATE, c.RecordLateness(side="A", minutes=15)], "KSI 2.2.4", "B", (0, 5),
    ),
    "forfeit": (
        [CREATE, c.RecordLateness(side="B", minutes=late_minutes(5))], "KSI 2.2.4", "A", (5, 0),
    ),
    "withdrawal after a game": (
        [*PLAYED[:6], c.RecordLateness(side="A", minutes=late_minutes(5))],
        "KSI 2.2.4", "B", (0, 5),
    ),
    "flag, a single's worth": (
        [*PLAYED[:6], c.PenaliseSlowPlay(side="B", points=2), *PLAYED[6:],
         c.StartClock(at_ms=0), c.PressClock(side="A", at_ms=0), c.ReportFlag(at_ms=20 * MIN)],
        "KSI 4.3.3", "A", (5, 1),
    ),
    "slow play": (
        [*PLAYED[:6], c.PenaliseSlowPlay(side="A", points=4)], "KSI 2.3.1.2", "B", (0, 5),
    ),
}  # fmt: skip


def _final(text: str) -> tuple[int, int]:
    """The final score as a reader takes it: the last game's score line, plus what that game's
    Wins line gives (left column A, right column B)."""
    score = [0, 0]
    for line in text.splitlines():
        if line.count(" : ") == 2:
            parts = line.split(" : ")
            score = [int(parts[1].split()[0]), int(parts[2])]
        elif "Wins" in line:
            points = int(line.split("Wins")[1].split()[0])
            score[0 if line.index("Wins") < 20 else 1] += points
    return score[0], score[1]


@pytest.mark.parametrize("ending", sorted(ENDINGS))
def test_every_ending_exports_its_reason_and_the_final_score(ending: str) -> None:
    commands, rule, winner, final = ENDINGS[ending]
    events = replay(commands)
    assert type(events[-1]) is ev.MatchEnded and events[-1].winner == winner, events[-1]
    text = export_mat(events)
    comments = [line for line in text.splitlines() if line.startswith(";")]
    assert len(comments) == 1 and comments[0].startswith(f"; {rule}: "), text
    assert ("Ása" if winner == "A" else "Bjarni") + " wins the match" in comments[0]
    assert _final(text) == final, text


def _gnubg_read(path: Path) -> dict:
    script = path.with_suffix(".py")
    script.write_text(
        "import gnubg, json\n"
        f"gnubg.command('import mat {path}')\n"
        "m = gnubg.match(0, 0, 0, 0)\n"
        "json.dump({'info': m['match-info'], 'games': [g['info'] for g in m['games']]},"
        " open('" + str(path) + ".json', 'w'))\n"
    )
    subprocess.run([GNUBG, "-t", "-q", "-p", str(script)], capture_output=True, timeout=300)
    return json.loads(Path(f"{path}.json").read_text())


def _representable(events: list[ev.Event]) -> bool:
    """gnubg takes a game's end as a resignation of 1, 2 or 3 times the cube, and only in a
    game with a move: an ending away from the board fits when what the winner needed does."""
    state = initial_state()
    for e in events[:-1]:
        state = fold([e], state)
    end = events[-1]
    need = state.length - state.score["AB".index(end.winner)]
    g = state.game
    moved = g.phase not in ("over", "opening")
    return moved and need % g.cube == 0 and need // g.cube <= 3


@pytest.mark.skipif(GNUBG is None, reason="gnubg is not installed")
@pytest.mark.parametrize("ending", sorted(ENDINGS))
def test_gnubg_reads_each_ending_with_its_reason_and_where_it_can_the_final_score(
    ending: str,
) -> None:
    commands, rule, _winner, final = ENDINGS[ending]
    events = replay(commands)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "m.mat"
        path.write_text(export_mat(events))
        read = _gnubg_read(path)
    assert read["info"]["match-length"] == 5
    assert rule in read["info"].get("comment", ""), read["info"]
    if not _representable(events):
        pytest.xfail("gnubg: a resignation is 1-3 x the cube, in a game with a move")
    last = read["games"][-1]
    after = [last["score-X"], last["score-O"]]
    after[0 if last["winner"] == "X" else 1] += last["points-won"]
    assert tuple(after) == final, (ending, last)
