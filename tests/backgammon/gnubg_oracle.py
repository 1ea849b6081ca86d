"""GNU Backgammon as an independent oracle for legal plays (Debian's `gnubg`, when installed).

    .venv/bin/python -m tests.backgammon.gnubg_oracle      # rewrites data/gnubg_legal_plays.json

The corpus: positions from simulated matches (fixed seed) plus hand-picked edge cases, each
with the number of legal plays GNU Backgammon lists (`hint` at 0 ply lists every distinct
resulting position). The corpus test reads the file and needs no gnubg.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from tableside.disciplines.backgammon import board
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import state as st
from tableside.disciplines.backgammon.engine import decide
from tableside.disciplines.backgammon.evolve import evolve
from tableside.disciplines.backgammon.mat import parse_moves
from tableside.disciplines.backgammon.simulate import next_command

CORPUS = Path(__file__).parent / "data" / "gnubg_legal_plays.json"
GNUBG = shutil.which("gnubg") or next(
    (p for p in ("/usr/games/gnubg", "/usr/bin/gnubg") if Path(p).exists()), None
)

# the tests that ask gnubg: skipped where it is not installed, failing under CI (make installs it)
needs_gnubg = pytest.mark.skipif(
    GNUBG is None and not os.environ.get("CI"), reason="gnubg is not installed"
)

SCRIPT = """
import gnubg, json
gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
gnubg.command("new game")
gnubg.command("set evaluation chequerplay evaluation plies 0")
cases = json.load(open(%(src)r))
out = []
for me, opp, dice in cases:
    b = (tuple(opp[1:26]), tuple(me[1:26]))
    gnubg.command("set board %%s" %% gnubg.positionid(b))
    gnubg.command("set dice %%d %%d" %% tuple(dice))
    try:
        out.append([m["move"] for m in gnubg.hint(100000)["hint"]])
    except Exception:
        out.append([])
json.dump(out, open(%(dst)r, "w"))
"""


def _run(script: str, given: object) -> object:
    """Run a gnubg Python script on `given` (its `src`, JSON) and read what it wrote (`dst`)."""
    with tempfile.TemporaryDirectory() as tmp:
        src, dst, path = (Path(tmp) / n for n in ("in.json", "out.json", "s.py"))
        src.write_text(json.dumps(given))
        path.write_text(script % {"src": str(src), "dst": str(dst)})
        subprocess.run(
            [GNUBG, "-t", "-q", "-p", str(path)],
            check=True,
            capture_output=True,
            timeout=600,
            cwd=tmp,
        )
        return json.loads(dst.read_text()) if dst.exists() else None


def gnubg_plays(cases: list[tuple[list[int], list[int], list[int]]]) -> list[list[str]]:
    """The legal plays GNU Backgammon lists (its notation) for (mover, opponent, dice) cases."""
    return _run(SCRIPT, cases)


def positions(me: list[int], opp: list[int], plays: list[str]) -> set:
    """The positions gnubg's plays leave, by our move parser and checker mover."""
    out = set()
    for text in plays:
        out.add(board.apply_play(tuple(me), tuple(opp), parse_moves(text)))
    return out


def our_positions(me: list[int], opp: list[int], dice: list[int]) -> set:
    plays = board.legal_plays(tuple(me), tuple(opp), (dice[0], dice[1]))
    return set() if list(plays.values()) == [()] else set(plays)


def our_count(me: list[int], opp: list[int], dice: list[int]) -> int:
    plays = board.legal_plays(tuple(me), tuple(opp), (dice[0], dice[1]))
    return 0 if list(plays.values()) == [()] else len(plays)


def sampled(n: int, seed: int = 12) -> list[tuple[list[int], list[int], list[int]]]:
    """Positions with dice to play, from random matches (one in four decisions sampled)."""
    rng = random.Random(seed)
    cases: list = []
    while len(cases) < n:
        state = st.initial_state()
        cmd: c.Command = c.CreateMatch(match_id="o", player_a="a", player_b="b", length=5)
        while not state.over and len(cases) < n:
            for e in decide(state, cmd):
                state = evolve(state, e)
            g = state.game
            if g.phase == st.MOVE and rng.random() < 0.25:
                me, opp = st.mine(state, g.turn)
                if any(me[1:]) and any(opp[1:]):
                    cases.append((list(me), list(opp), list(g.dice)))
            cmd = next_command(state, rng)
    return cases


def edge_cases() -> list[tuple[list[int], list[int], list[int]]]:
    """Bar entries, closed boards, bear-offs with higher dice, only one die playable."""

    def s(points: dict[int, int]) -> list[int]:
        out = [0] * 26
        for p, k in points.items():
            out[p] = k
        out[0] = 15 - sum(out[1:])
        return out

    closed = s({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 24: 3})
    return [
        (list(board.STANDARD), list(board.STANDARD), [d1, d2])
        for d1 in range(1, 7)
        for d2 in range(1, d1 + 1)
    ] + [
        (s({25: 2, 13: 13}), closed, [6, 5]),
        (s({25: 1, 13: 14}), s({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 24: 5}), [6, 5]),
        (s({25: 3, 6: 12}), s({4: 3, 5: 2, 24: 10}), [4, 4]),
        (s({6: 1, 2: 1}), s({24: 15}), [5, 1]),
        (s({5: 2, 4: 2}), s({24: 15}), [6, 6]),
        (s({20: 1}), s({16: 2, 24: 13}), [6, 5]),
        (s({3: 1, 2: 1}), s({24: 15}), [6, 5]),
        (s({8: 1, 6: 2, 1: 3}), s({12: 15}), [6, 2]),
    ]


def main() -> None:
    if not GNUBG:
        raise SystemExit("gnubg is not installed (apt-get install gnubg)")
    cases = edge_cases() + sampled(400)
    plays = gnubg_plays(cases)
    rows = [
        {"me": m, "opp": o, "dice": d, "gnubg": len(p), "plays": p}
        for (m, o, d), p in zip(cases, plays, strict=True)
    ]
    CORPUS.write_text(json.dumps(rows, separators=(",", ":")) + "\n")
    print(f"{len(rows)} positions written to {CORPUS}")


if __name__ == "__main__":
    main()


READ_MATS = """
import gnubg, json
out = []
for path in json.load(open(%(src)r)):
    gnubg.command("import mat " + path)
    m = gnubg.match(0, 0, 0, 0)
    out.append({"length": m["match-info"]["match-length"],
                "comment": m["match-info"].get("comment", ""),
                "games": [g["info"] for g in m["games"]]})
json.dump(out, open(%(dst)r, "w"))
"""


def gnubg_read_mats(paths: list[Path]) -> list[dict]:
    """What GNU Backgammon reads from each .mat file (one gnubg process for them all): the
    match length, the match comment and each game's info (score-X left, score-O right,
    winner, points-won)."""
    return _run(READ_MATS, [str(p) for p in paths])


def gnubg_final(read: dict) -> tuple[int, int]:
    """The final score as gnubg holds it (left, right): the last game's score, plus its
    points to its winner."""
    last = read["games"][-1]
    after = [last["score-X"], last["score-O"]]
    if last.get("winner") in ("X", "O"):
        after["XO".index(last["winner"])] += last["points-won"]
    return after[0], after[1]


REEXPORT = """
import gnubg, json
for path in json.load(open(%(src)r)):
    gnubg.command("import mat " + path)
    gnubg.command("export match mat " + path + ".gnubg.mat")
"""


def gnubg_reexport(paths: list[Path]) -> list[str]:
    """Each .mat file as GNU Backgammon writes it back after importing it."""
    _run(REEXPORT, [str(p) for p in paths])
    return [Path(f"{p}.gnubg.mat").read_text() for p in paths]
