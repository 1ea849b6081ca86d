"""KSI 1.6.4: a player may ask the TD to bar spectators from watching the match. The TD's grant
is an event of the match's stream citing the paragraph and naming who asked; the bar is lifted
by the TD; neither is undone by the table's device nor by a jury's overturn (the record of the
dispute's officials stays)."""

from __future__ import annotations

from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon import fold
from tableside.disciplines.backgammon.view import board_doc

from .gwt import given, match, opened, refused, then


def test_ksi_1_6_4_the_td_bars_spectators_at_a_players_request() -> None:
    s = opened()
    events = then(
        s,
        c.BarSpectators(requested_by="B"),
        (ev.SpectatorsBarred, {"requested_by": "B", "rule": "KSI 1.6.4"}),
    )
    barred = fold(events, s)
    assert barred.barred_by == "B"
    assert board_doc(barred)["spectators_barred"] is True
    assert board_doc(s)["spectators_barred"] is False


def test_ksi_1_6_4_the_bar_is_lifted_and_cited() -> None:
    s = given(opened(), [c.BarSpectators(requested_by="A")])
    events = then(s, c.AdmitSpectators(), (ev.SpectatorsAdmitted, {"rule": "KSI 1.6.4"}))
    assert fold(events, s).barred_by == ""


def test_ksi_1_6_4_refused_twice_or_without_a_bar_or_a_side() -> None:
    s = given(opened(), [c.BarSpectators(requested_by="A")])
    refused(s, c.BarSpectators(requested_by="B"), "KSI 1.6.4")
    refused(opened(), c.AdmitSpectators(), "KSI 1.6.4")
    refused(opened(), c.BarSpectators(requested_by="C"), "KSI 1.2.1")  # type: ignore[arg-type]


def test_ksi_1_6_4_a_bar_is_asked_for_a_match_in_progress() -> None:
    from tableside.disciplines.backgammon import initial_state

    refused(initial_state(), c.BarSpectators(requested_by="A"), "KSI 5.1")
    assert match().barred_by == ""
