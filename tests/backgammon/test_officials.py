"""Officials and disputes: the TD called with the board frozen (KSI 5.1), evidence (KSI 5.4),
the appeal to a jury of three or five, majority, final (KSI 5.2, 1.3.2), the monitor (KSI 1.3.3,
1.7.4), expulsion (KSI 1.7.3) and the report to the federation (KSI 5.6)."""

from __future__ import annotations

from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon import fold
from tableside.disciplines.backgammon.decide_officials import federation_report

from .gwt import given, opened, refused, then

JURY = ("dora", "egill", "freyja")
RULED = [c.CallTD(side="B", reason="cocked die?"), c.GiveRuling(text="the roll stands")]


def test_ksi_5_1_the_board_is_frozen_while_the_td_is_called() -> None:
    s = opened(3, 1)
    s = fold(then(s, c.CallTD(side="B", reason="dispute"), (ev.TDCalled, {"rule": "KSI 5.1"})), s)
    refused(s, c.Play(side="A", moves=((8, 5), (6, 5))), "KSI 5.1")
    refused(s, c.Double(side="B"), "KSI 5.1")
    refused(s, c.CallTD(side="A"), "KSI 5.1")
    s = fold(then(s, c.GiveRuling(text="play on"), (ev.RulingGiven, {"rule": "KSI 5.1"})), s)
    then(s, c.Play(side="A", moves=((8, 5), (6, 5))), (ev.PlayRecorded, {"legal": True}))


def test_ksi_5_1_a_ruling_needs_a_call_and_a_text() -> None:
    refused(opened(), c.GiveRuling(text="x"), "KSI 5.1")
    refused(given(opened(), [c.CallTD(side="A")]), c.GiveRuling(text=" "), "KSI 5.1")


def test_ksi_5_4_testimony_heard_is_recorded_with_the_ruling() -> None:
    s = given(opened(), [c.CallTD(side="A")])
    then(
        s,
        c.GiveRuling(text="the cube was at 2", testimony=("spectator kari",)),
        (ev.RulingGiven, {"testimony": ("spectator kari",), "rule": "KSI 5.4"}),
    )


def test_ksi_5_2_appeal_at_once_majority_overturns_and_it_is_final() -> None:
    s = given(opened(), RULED)
    s = fold(then(s, c.Appeal(side="A"), (ev.AppealLodged, {"rule": "KSI 5.2"})), s)
    refused(s, c.Play(side="A", moves=((8, 5), (6, 5))), "KSI 5.1")  # frozen for the jury
    events = then(
        s,
        c.DecideAppeal(jury=JURY, overturn_votes=2, td="tom"),
        (ev.AppealDecided, {"overturned": True, "rule": "KSI 5.2"}),
    )
    s = fold(events, s)
    refused(s, c.Appeal(side="B"), "KSI 5.2")
    then(s, c.Play(side="A", moves=((8, 5), (6, 5))), (ev.PlayRecorded, {}))
    five = given(opened(), [*RULED, c.Appeal(side="A")])
    then(
        five,
        c.DecideAppeal(jury=(*JURY, "gunna", "hildur"), overturn_votes=2),
        (ev.AppealDecided, {"overturned": False}),
    )


def test_ksi_5_2_no_appeal_once_play_went_on() -> None:
    s = given(opened(3, 1), [*RULED, c.Play(side="A", moves=((8, 5), (6, 5)))])
    refused(s, c.Appeal(side="B"), "KSI 5.2")
    refused(opened(), c.Appeal(side="B"), "KSI 5.2")


def test_ksi_1_3_2_jury_of_three_or_five_without_the_td_or_a_player() -> None:
    s = given(opened(), [*RULED, c.Appeal(side="A")])
    refused(s, c.DecideAppeal(jury=("dora", "egill"), overturn_votes=2), "KSI 1.3.2")
    refused(
        s, c.DecideAppeal(jury=("dora", "egill", "tom"), overturn_votes=2, td="tom"), "KSI 1.3.2"
    )
    refused(s, c.DecideAppeal(jury=("dora", "egill", "ann"), overturn_votes=2), "KSI 1.3.2")
    refused(s, c.DecideAppeal(jury=JURY, overturn_votes=4), "KSI 5.2")


def test_ksi_1_3_3_td_appoints_a_monitor() -> None:
    s = opened()
    events = then(s, c.AppointMonitor(name="ingi"), (ev.MonitorAppointed, {"rule": "KSI 1.3.3"}))
    assert fold(events, s).monitor == "ingi"


def test_ksi_1_7_4_monitor_at_a_players_request() -> None:
    then(
        opened(),
        c.AppointMonitor(name="ingi", requested_by="B"),
        (ev.MonitorAppointed, {"requested_by": "B", "rule": "KSI 1.7.4"}),
    )


def test_ksi_1_2_4_expulsion_for_conduct_ends_the_match_for_the_opponent() -> None:
    s = opened()
    refused(s, c.Expel(side="A", reason=""), "KSI 1.2.4")
    events = then(
        s,
        c.Expel(side="A", reason="abused the opponent"),
        (ev.PlayerExpelled, {"rule": "KSI 1.2.4", "ground": "conduct"}),
        (ev.MatchEnded, {"winner": "B", "rule": "KSI 1.2.4"}),
    )
    assert fold(events, s).over


def test_ksi_1_7_3_expulsion_for_aids_or_outside_help_cites_1_7_3() -> None:
    then(
        opened(),
        c.Expel(side="A", reason="a phone with an engine", ground="aids"),
        (ev.PlayerExpelled, {"rule": "KSI 1.7.3"}),
        (ev.MatchEnded, {"winner": "B", "rule": "KSI 1.7.3"}),
    )


def test_ksi_1_2_3_2_expulsion_for_mistreated_equipment_cites_1_2_3_2() -> None:
    then(
        opened(),
        c.Expel(side="B", reason="threw the board", ground="equipment"),
        (ev.PlayerExpelled, {"rule": "KSI 1.2.3.2"}),
    )


def test_ksi_5_6_rulings_appeals_and_expulsions_reported_to_the_federation() -> None:
    s = opened()
    events = []
    for cmd in (
        *RULED,
        c.Appeal(side="A"),
        c.DecideAppeal(jury=JURY, overturn_votes=1),
        c.Expel(side="B", reason="abuse"),
    ):
        batch = list(then(s, cmd))
        events += batch
        s = fold(batch, s)
    report = federation_report(events)
    assert report == [
        {
            "kind": "ruling",
            "text": "the roll stands",
            "testimony": [],
            "appeal": {"jury": list(JURY), "overturn_votes": 1, "overturned": False, "reasons": ""},
        },
        {"kind": "expulsion", "side": "B", "reason": "abuse"},
    ]
