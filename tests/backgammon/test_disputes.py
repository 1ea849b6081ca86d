"""A KSI event's dispute path: a jury's decision is final and takes effect (KSI 5.2), who may
sit on a jury (KSI 1.3.2), testimony (KSI 5.4), the monitor's report (KSI 1.3.3), the
scoresheets of a score dispute (KSI 4.7)."""

from __future__ import annotations

from msgspec.structs import replace
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon import fold, initial_state
from tableside.disciplines.backgammon.record import kept

from .gwt import given, match, opened, refused, then

JURY = ("Dóra", "Egill", "Freyja")


def _early_roll_disputed() -> object:
    """A plays 3-1 while B rolls early (6-4); A wants a reroll (KSI 4.1.5.1), B disputes it:
    the TD is called and rules that the roll stands; A appeals."""
    s = given(
        opened(3, 1),
        [
            c.Roll(side="B", dice=(6, 4)),  # before A finished: early
            c.Play(side="A", moves=((8, 5), (6, 5))),
            c.CallTD(side="A", reason="B rolled before I finished"),
            c.GiveRuling(text="the roll stands", favours="B", td="Tómas"),
            c.Appeal(side="A"),
        ],
    )
    assert s.game.early_roll and s.dispute == "appealed"
    return s


def test_ksi_5_2_an_overturned_roll_stands_ruling_leads_to_the_reroll() -> None:
    s = _early_roll_disputed()
    decide = c.DecideAppeal(jury=JURY, overturn_votes=2, remedy=c.RequireReroll(side="A"))
    events = then(
        s,
        decide,
        (ev.RulingOverturned, {"rule": "KSI 5.2"}),
        (ev.RerollRequired, {"side": "B", "rule": "KSI 4.1.5.1"}),
        (ev.AppealDecided, {"overturned": True, "overturn_votes": 2, "rule": "KSI 5.2"}),
    )
    after = fold(events, s)
    assert after.game.dice == (0, 0) and after.game.turn == "B" and after.dispute == "final"
    then(after, c.Roll(side="B", dice=(2, 1)), (ev.DiceRolled, {"dice": (2, 1)}))


def test_ksi_5_2_a_ruling_that_stands_has_nothing_to_carry_out() -> None:
    s = _early_roll_disputed()
    refused(
        s, c.DecideAppeal(jury=JURY, overturn_votes=1, remedy=c.RequireReroll(side="A")), "KSI 5.2"
    )
    events = then(s, c.DecideAppeal(jury=JURY, overturn_votes=1), (ev.AppealDecided, {}))
    assert not any(type(e) is ev.RulingOverturned for e in events)


def test_ksi_5_2_an_overturn_restores_board_dice_and_clock_as_at_the_call() -> None:
    """The TD ruled a reroll and it was carried out; the jury overturns: the early roll is
    back on the board, and the clock shows what it showed at the call."""
    s = given(
        opened(3, 1, clock=True),
        [c.StartClock(at_ms=0), c.PressClock(side="B", at_ms=0)],
    )
    s = given(
        s,
        [
            c.Roll(side="B", dice=(6, 4)),
            c.Play(side="A", moves=((8, 5), (6, 5))),
            c.PressClock(side="A", at_ms=20_000),
            c.CallTD(side="B", reason="reroll?", at_ms=30_000),
        ],
    )
    at_call = (s.game, s.timer)
    assert s.timer.stopped  # KSI 4.3.2.4: stopped at the call
    s = given(
        s,
        [
            c.GiveRuling(text="reroll", favours="A", td="Tómas"),
            c.RequireReroll(side="A"),
            c.Appeal(side="B"),
        ],
    )
    assert s.game.dice == (0, 0)
    events = then(s, c.DecideAppeal(jury=JURY, overturn_votes=3), (ev.RulingOverturned, {}))
    after = fold(events, s)
    assert (after.game, after.timer) == at_call
    assert after.game.dice == (6, 4) and after.dispute == "final"


def test_ksi_5_2_a_jurys_decision_is_final_no_undo_removes_it() -> None:
    s = _early_roll_disputed()
    before = s.version
    s = given(s, [c.DecideAppeal(jury=JURY, overturn_votes=2, remedy=c.RequireReroll(side="A"))])
    for version in range(before - 3, s.version):
        refused(s, c.UndoLast(to_version=version), "KSI 5.2")
    refused(s, c.Appeal(side="B"), "KSI 5.2")
    s = given(s, [c.Roll(side="B", dice=(2, 1))])
    then(s, c.UndoLast(to_version=s.version - 1), (ev.EntryUndone, {}))  # a later slip is fine


def test_ksi_5_2_the_record_keeps_the_dispute_and_drops_what_the_overturn_reversed() -> None:
    s, events = initial_state(), []
    for cmd in (
        c.CreateMatch(match_id="m", player_a="ann", player_b="bob", length=7),
        c.StartGame(),
        c.RollOpening(die_a=3, die_b=1),
        c.Roll(side="B", dice=(6, 4)),
        c.Play(side="A", moves=((8, 5), (6, 5))),
        c.CallTD(side="B", reason="reroll?"),
        c.RecordTestimony(witness="Kári", text="A was still moving"),
        c.GiveRuling(text="reroll", favours="A"),
        c.RequireReroll(side="A"),
        c.Appeal(side="B"),
        c.DecideAppeal(jury=JURY, overturn_votes=2),
    ):
        batch = list(then(s, cmd))
        events += batch
        s = fold(batch, s)
    types = [type(events[i]) for i in kept(events)]
    assert ev.RerollRequired not in types and ev.DiceRolled in types
    want = [ev.TDCalled, ev.TestimonyRecorded, ev.RulingGiven, ev.AppealLodged]
    assert types[-6:] == [*want, ev.RulingOverturned, ev.AppealDecided]


def test_ksi_1_3_2_no_player_and_not_the_td_on_the_jury_whatever_the_letter_case() -> None:
    s = _early_roll_disputed()  # players ann and bob; ruled by Tómas
    for jury in (("Dóra", "Egill", "ANN"), ("Dóra", " bob ", "Egill"), ("tómas", "Dóra", "Egill")):
        refused(s, c.DecideAppeal(jury=jury, overturn_votes=2), "KSI 1.3.2")
    refused(s, c.DecideAppeal(jury=("Dóra", "Egill", "DÓRA"), overturn_votes=2), "KSI 1.3.2")
    refused(s, c.DecideAppeal(jury=JURY, overturn_votes=2, td="egill"), "KSI 1.3.2")


def test_ksi_5_4_testimony_is_recorded_in_a_dispute_only() -> None:
    refused(opened(), c.RecordTestimony(witness="Kári", text="saw it"), "KSI 5.4")
    s = given(opened(), [c.CallTD(side="A", reason="cocked die")])
    refused(s, c.RecordTestimony(witness=" ", text="saw it"), "KSI 5.4")
    then(
        s,
        c.RecordTestimony(witness="Kári", text="the die was cocked"),
        (ev.TestimonyRecorded, {"witness": "Kári", "rule": "KSI 5.4"}),
    )


def test_ksi_1_3_3_the_monitor_files_a_report() -> None:
    refused(opened(), c.FileMonitorReport(text="A touched the dice"), "KSI 1.3.3")
    s = given(opened(), [c.AppointMonitor(name="Ingi", requested_by="B")])
    refused(s, c.FileMonitorReport(text=""), "KSI 1.3.3")
    then(
        s,
        c.FileMonitorReport(text="A touched the dice before B finished"),
        (ev.MonitorReported, {"name": "Ingi", "rule": "KSI 1.3.3"}),
    )


def test_ksi_4_7_a_score_dispute_records_each_players_sheet() -> None:
    s = replace(match(5), score=(2, 0))
    then(
        s,
        c.ResolveScoreDispute(sheet_a=(2, 0), sheet_b=(1, 0)),
        (ev.ScoreSet, {"score": (1, 0), "sheet_a": (2, 0), "sheet_b": (1, 0)}),
    )
