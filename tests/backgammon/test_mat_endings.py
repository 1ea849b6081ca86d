"""Every way a match ends exports a .mat with the right final score and the reason as a comment
citing its paragraph: a flag (KSI 4.3.3), an expulsion (KSI 1.2.4), lateness (KSI 2.2.4) —
which is also how a forfeit or a withdrawal's walkover is recorded — and slow-play penalty
points (KSI 2.3.1.2). Read back by GNU Backgammon where it is installed."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon import fold, initial_state
from tableside.disciplines.backgammon.mat import export_mat, import_mat
from tableside.plugins.backgammon.competition_flow import late_minutes

from .gnubg_oracle import gnubg_final, gnubg_read_mats, gnubg_reexport, needs_gnubg
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
    assert comments[-1].startswith(f"; {rule}: "), text
    assert ("Ása" if winner == "A" else "Bjarni") + " wins the match" in comments[-1]
    assert _final(text) == final, text


def test_every_ending_reads_back_as_it_was_recorded() -> None:
    """Our import of our export ends the match the same way (paragraph, winner, score), and
    exports the same text again."""
    for ending, (commands, rule, winner, _final_score) in ENDINGS.items():
        events = replay(commands)
        text = export_mat(events)
        again = replay(import_mat(text, "again"))
        assert again[-1] == events[-1], ending
        assert (again[-1].rule, again[-1].winner) == (rule, winner)
        assert export_mat(again) == text, ending


@needs_gnubg
def test_every_ending_round_trips_through_gnubg() -> None:
    """GNU Backgammon reads each ending with its paragraph, and the final score wherever a
    resignation can carry it (1 to 3 times the cube, decision 0132); what it writes back
    imports as the match that was recorded — paragraph, winner and final score."""
    with tempfile.TemporaryDirectory() as tmp:
        paths, recorded = [], []
        for ending in sorted(ENDINGS):
            events = replay(ENDINGS[ending][0])
            path = Path(tmp) / f"{len(paths)}.mat"
            path.write_text(export_mat(events))
            paths.append(path)
            recorded.append(events)
        read = gnubg_read_mats(paths)
        written = gnubg_reexport(paths)
    for ending, events, gnubg, text in zip(sorted(ENDINGS), recorded, read, written, strict=True):
        _commands, rule, winner, final = ENDINGS[ending]
        assert gnubg["length"] == 5 and rule in gnubg["comment"], (ending, gnubg)
        assert _winner_in(gnubg["comment"]) == winner, (ending, gnubg["comment"])  # gnubg's own
        held = gnubg_final(gnubg)
        if _carried_by_a_resignation(events):  # a finished match, the winner at the length
            assert held == final and held["AB".index(winner)] == 5, (ending, gnubg)
        else:  # what the format cannot carry (decision 0182): never another winner ahead
            assert held["AB".index(winner)] >= held["BA".index(winner)], (ending, held)
        again = replay(import_mat(text, "gnubg"))
        assert again[-1] == events[-1], (ending, text)
        assert (again[-1].winner, again[-1].rule) == (winner, rule)  # finished, the winner


def _winner_in(comment: str) -> str:
    """The side GNU Backgammon's match comment names as the winner ("Ása wins the match")."""
    names = {"Ása": "A", "Bjarni": "B"}
    return next(side for name, side in names.items() if f"{name} wins the match" in comment)


def _carried_by_a_resignation(events: list[ev.Event]) -> bool:
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
