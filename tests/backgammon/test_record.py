"""The record as it stands after undos (KSI 3.8): the kept events fold to the same match as
the whole stream, and the .mat export leaves undone plays out."""

from __future__ import annotations

import random

from tableside.disciplines.backgammon import RuleViolation, fold
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon.mat import export_mat
from tableside.disciplines.backgammon.record import kept
from tableside.disciplines.backgammon.simulate import next_command

from .test_scenario import Table


def _undo_points(table: Table) -> list[int]:
    """Versions an undo may return to: the current game's chain of states."""
    versions, s = [], table.state.prev
    while s is not None:
        versions.append(s.version)
        s = s.prev
    return versions


def _play_with_undos(seed: int) -> Table:
    rng, t = random.Random(seed), Table()
    t.do(c.CreateMatch(match_id="u", player_a="a", player_b="b", length=3))
    while not t.state.over:
        points = _undo_points(t) if rng.random() < 0.05 else []
        if points:
            try:
                t.do(c.UndoLast(to_version=rng.choice(points)))
                continue
            except RuleViolation:
                pass
        t.do(next_command(t.state, rng))
    return t


def test_ksi_3_8_the_kept_events_fold_to_the_same_match() -> None:
    undone = 0
    for seed in range(4):
        t = _play_with_undos(seed)
        events = [t.events[i] for i in kept(t.events)]
        undone += len(t.events) - len(events)
        assert not any(type(e) is ev.EntryUndone for e in events)
        again = fold(events)
        assert (again.score, again.winner, again.games) == (
            t.state.score,
            t.state.winner,
            t.state.games,
        )
        assert again.game.position == t.state.game.position and again.game.cube == t.state.game.cube
    assert undone > 0  # the seeds did undo something


def test_ksi_3_8_an_undone_play_leaves_the_mat_export() -> None:
    t = Table()
    for cmd in (
        c.CreateMatch(match_id="m", player_a="a", player_b="b", length=3),
        c.StartGame(),
        c.RollOpening(die_a=3, die_b=1),
        c.Play(side="A", moves=((8, 5), (6, 5))),
        c.UndoLast(to_version=3),
        c.Play(side="A", moves=((24, 21), (24, 23))),
    ):
        t.do(cmd)
    text = export_mat(t.events)
    assert "  1) 31: 24/21 24/23\n" in text and "8/5" not in text
