"""A match moved to another table before its first game (KSI 1.1: the rules are silent on
tables, the TD judges; decision 0207): its table changes; once a game has begun it does not."""

from __future__ import annotations

import pytest
from tableside.disciplines.backgammon import RuleViolation, decide, fold
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import events as ev

from .gwt import match, opened


def test_ksi_1_1_a_match_not_begun_moves_to_another_table() -> None:
    state = match(table=3)
    (moved,) = decide(state, c.MoveToTable(table=8))
    assert moved == ev.TableChanged(table=8, from_table=3, rule="KSI 1.1")
    assert fold((moved,), state).table == 8


def test_ksi_1_1_a_begun_match_stays_at_its_table() -> None:
    with pytest.raises(RuleViolation) as refused:
        decide(opened(table=3), c.MoveToTable(table=8))
    assert refused.value.code == "bg_match_begun" and refused.value.rule == "KSI 1.1"
