"""Real match files from public sources: every file imports whole, each game's result is the
file's, the match ends as the file says (a match-deciding resignation included), and GNU
Backgammon reads our export of it with the same games and the same final score.

The files are not in this repository: public material is not committed here (the workplace's
rule for what its tools bring in); the corpus lives in the steering repository's shared/
(`../shared/mat-corpus/`, or wherever `TABLESIDE_MAT_CORPUS` points), and
`tests/backgammon/mat_corpus.md` lists the files, where each came from and under which
licence. Without it these tests skip and say so."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

import pytest
from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon.mat import export_mat, import_mat

from .gnubg_oracle import gnubg_final, gnubg_read_mats, needs_gnubg
from .test_mat import replay

_ROOT = Path(__file__).resolve().parents[2]
CORPUS_DIR = Path(os.environ.get("TABLESIDE_MAT_CORPUS") or _ROOT.parent / "shared" / "mat-corpus")
# Backgammon Galaxy's files the importer once refused or read otherwise (issue 53): their
# "Losses N point" beside the winner's line, matches that stop before the length
CORPUS = sorted(CORPUS_DIR.glob("*.mat")) + sorted((CORPUS_DIR / "galaxy-refused").glob("*.mat"))
pytestmark = pytest.mark.skipif(
    not CORPUS, reason=f"no real-match corpus at {CORPUS_DIR} (tests/backgammon/mat_corpus.md)"
)
HEADER = re.compile(r"^\s*\S.*?:\s*(\d+)\s+\S.*?:\s*(\d+)\s*$")
WINS = re.compile(r"Wins (\d+) points?( and the match)?")


def file_results(text: str) -> list[tuple[tuple[int, int], str, int, bool]]:
    """Each game as the file writes it, read without our importer: (score before the game,
    winner's column A/B, points, whether the line says "and the match")."""
    games, score = [], (0, 0)
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if re.match(r"^\s*Game \d+\s*$", line):
            m = HEADER.match(lines[i + 1])
            score = (int(m.group(1)), int(m.group(2)))
        elif m := WINS.search(line):
            games.append((score, "AB"[line.index("Wins") > 20], int(m.group(1)), bool(m.group(2))))
    return games


def test_the_corpus_is_real_and_varied() -> None:
    """At least 15 files, at least 3 of them decided by a resignation in the last game."""
    assert len(CORPUS) >= 15
    decided = 0
    for path in CORPUS:
        events = replay(import_mat(path.read_text(), path.stem))
        last = [e for e in events if type(e) is ev.GameEnded][-1]
        decided += last.by == "concession" and type(events[-1]) is ev.MatchEnded
    assert decided >= 3, decided


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_each_real_match_imports_with_the_files_results(path: Path) -> None:
    text = path.read_text()
    events = replay(import_mat(text, path.stem))
    started = [e.score for e in events if type(e) is ev.GameStarted]
    ended = [e for e in events if type(e) is ev.GameEnded]
    wanted = file_results(text)
    assert len(ended) == len(wanted) == len(started)
    created = events[0]
    for (score, winner, points, the_match), begun, game in zip(wanted, started, ended, strict=True):
        assert begun == score and game.winner == winner, (path.name, game)
        if the_match:  # a file may give only the points the winner needed, or (Galaxy) at
            need = created.length - score["AB".index(winner)]  # most the match's length
            fewer = points in (need, created.length) and points < game.points
            assert game.points == points or fewer, (path.name, game)
        else:
            assert game.points == points, (path.name, game)
    end, last = events[-1], ended[-1]
    assert all(p.legal for p in events if type(p) is ev.PlayRecorded)
    if not wanted[-1][3] and max(last.score) < created.length:  # stopped before the length:
        assert type(end) is ev.GameEnded, (path.name, end)  # an unfinished match, as gnubg
        return  # reads it (no winner invented)
    assert type(end) is ev.MatchEnded and end.winner == wanted[-1][1], (path.name, end)


@needs_gnubg
def test_gnubg_reads_our_export_of_every_real_match_with_the_same_score() -> None:
    stored = {}
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for path in CORPUS:
            events = replay(import_mat(path.read_text(), path.stem))
            stored[path.stem] = events
            out = Path(tmp) / path.name
            out.write_text(export_mat(events))
            paths.append(out)
        read = gnubg_read_mats(paths)
    for path, gnubg in zip(CORPUS, read, strict=True):
        events = stored[path.stem]
        started = [e.score for e in events if type(e) is ev.GameStarted]
        ended = [e.points for e in events if type(e) is ev.GameEnded]
        assert gnubg["length"] == events[0].length, path.name
        games = [(g["score-X"], g["score-O"], g["points-won"]) for g in gnubg["games"]]
        assert games == [(*s, p) for s, p in zip(started, ended, strict=True)], path.name
        assert gnubg_final(gnubg) == events[-1].score, path.name
