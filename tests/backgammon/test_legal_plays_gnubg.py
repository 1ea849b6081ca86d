"""The legal-play generator against GNU Backgammon, which we did not write (rules of play,
KSI 1.2.1): a recorded corpus (runs everywhere) and a live re-check when gnubg is installed."""

from __future__ import annotations

import json

import pytest

from .gnubg_oracle import CORPUS, GNUBG, gnubg_plays, our_count, our_positions, positions, sampled


def _rows() -> list[dict]:
    return json.loads(CORPUS.read_text())


def test_ksi_1_2_1_corpus_legal_play_counts_match_gnubg() -> None:
    rows = _rows()
    assert len(rows) >= 400
    assert len({r["gnubg"] for r in rows}) > 20  # a varied corpus, not one kind of position
    wrong = [r for r in rows if our_count(r["me"], r["opp"], r["dice"]) != r["gnubg"]]
    assert not wrong, wrong[:3]


def test_ksi_1_2_1_corpus_every_gnubg_play_is_ours_and_no_other() -> None:
    """gnubg's plays, read by our move parser, leave exactly the positions we generate."""
    wrong = [
        r
        for r in _rows()
        if positions(r["me"], r["opp"], r["plays"]) != our_positions(r["me"], r["opp"], r["dice"])
    ]
    assert not wrong, wrong[:1]


def test_ksi_1_2_1_corpus_positions_are_real() -> None:
    for r in _rows():
        me, opp = r["me"], r["opp"]
        assert sum(me) == 15 and sum(opp) == 15
        assert not any(me[p] and opp[25 - p] for p in range(1, 25))


@pytest.mark.skipif(GNUBG is None, reason="gnubg is not installed")
def test_ksi_1_2_1_fresh_positions_match_gnubg_live() -> None:
    cases = sampled(300, seed=2026)
    plays = gnubg_plays(cases)
    wrong = [
        (case, p)
        for case, p in zip(cases, plays, strict=True)
        if positions(case[0], case[1], p) != our_positions(*case)
    ]
    assert not wrong, wrong[:1]
