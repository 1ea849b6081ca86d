"""Deciders for officials and disputes: the TD called with the board frozen (KSI 5.1), the
appeal to a jury of three or five deciding by majority, final (KSI 5.2, 1.3.2), the monitor
(KSI 1.3.3, 1.7.4), expulsion (KSI 1.7.3)."""

from __future__ import annotations

from tableside.disciplines.backgammon import cite as k
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon import guards
from tableside.disciplines.backgammon.errors import RuleViolation
from tableside.disciplines.backgammon.state import MatchState, other

FROZEN = ("called", "appealed")
# commands that touch the board, the dice, the cube or the score: refused while frozen (5.1)
BOARD_COMMANDS = (
    c.StartGame,
    c.RollOpening,
    c.Roll,
    c.RequireReroll,
    c.Play,
    c.AcceptIllegalPlay,
    c.CorrectIllegalPlay,
    c.ReportWrongSetup,
    c.Double,
    c.Take,
    c.Drop,
    c.Concede,
    c.AnswerConcession,
    c.ResolveScoreDispute,
    c.RecordLateness,
    c.TakePause,
)


def frozen(state: MatchState, command: c.Command) -> None:
    """Everything stays untouched while the TD (or the jury) decides (KSI 5.1)."""
    if state.dispute in FROZEN and isinstance(command, BOARD_COMMANDS):
        raise RuleViolation(k.DISPUTE, "the board is frozen until the dispute is decided", "type")


def _live(state: MatchState) -> None:
    if not state.created or state.over:
        raise RuleViolation(k.DISPUTE, "no match in progress")


def call_td(state: MatchState, cmd: c.CallTD) -> list[ev.Event]:
    _live(state)
    if state.dispute in FROZEN:
        raise RuleViolation(k.DISPUTE, "the TD has been called", "side")
    if cmd.side not in ("", "A", "B"):
        raise RuleViolation(k.DISPUTE, "side must be A, B or empty", "side")
    return [ev.TDCalled(side=cmd.side, reason=cmd.reason, rule=k.DISPUTE)]


def give_ruling(state: MatchState, cmd: c.GiveRuling) -> list[ev.Event]:
    """The TD rules, having heard the players and the witnesses he asked (KSI 5.4)."""
    if state.dispute != "called":
        raise RuleViolation(k.DISPUTE, "no dispute waiting for a ruling", "text")
    if not cmd.text.strip():
        raise RuleViolation(k.DISPUTE, "a ruling says what was decided and why", "text")
    rule = k.EVIDENCE if cmd.testimony else k.DISPUTE
    return [ev.RulingGiven(text=cmd.text, favours=cmd.favours, testimony=cmd.testimony, rule=rule)]


def appeal(state: MatchState, cmd: c.Appeal) -> list[ev.Event]:
    """At once: before anything else is played after the ruling (KSI 5.2)."""
    guards.side(cmd.side)
    if state.dispute == "final":
        raise RuleViolation(k.APPEAL, "the jury's decision is final", "side")
    if state.dispute != "ruled":
        raise RuleViolation(k.APPEAL, "an appeal follows a ruling at once", "side")
    return [ev.AppealLodged(side=cmd.side, rule=k.APPEAL)]


def decide_appeal(state: MatchState, cmd: c.DecideAppeal) -> list[ev.Event]:
    """Three or five neutral players, not the TD; a majority overturns (KSI 1.3.2, 5.2)."""
    if state.dispute != "appealed":
        raise RuleViolation(k.APPEAL, "no appeal to decide", "jury")
    if len(cmd.jury) not in (3, 5) or len(set(cmd.jury)) != len(cmd.jury):
        raise RuleViolation(k.JURY, "a jury is three or five different people", "jury")
    if (cmd.td and cmd.td in cmd.jury) or set(cmd.jury) & set(state.players):
        raise RuleViolation(k.JURY, "neither the TD nor a player sits on the jury", "jury")
    if not 0 <= cmd.overturn_votes <= len(cmd.jury):
        raise RuleViolation(k.APPEAL, "votes within the jury's size", "overturn_votes")
    overturned = 2 * cmd.overturn_votes > len(cmd.jury)
    return [
        ev.AppealDecided(
            jury=cmd.jury, overturn_votes=cmd.overturn_votes, overturned=overturned, rule=k.APPEAL
        )
    ]


def appoint_monitor(state: MatchState, cmd: c.AppointMonitor) -> list[ev.Event]:
    """By the TD, on his own initiative or at a player's request (KSI 1.3.3, 1.7.4)."""
    _live(state)
    if cmd.requested_by not in ("", "A", "B") or not cmd.name.strip():
        raise RuleViolation(k.MONITOR, "a monitor's name; requested by A, B or the TD", "name")
    rule = k.MONITOR_REQUEST if cmd.requested_by else k.MONITOR
    return [ev.MonitorAppointed(name=cmd.name, requested_by=cmd.requested_by, rule=rule)]


def expel(state: MatchState, cmd: c.Expel) -> list[ev.Event]:
    """Expelled from the tournament (KSI 1.7.3): the opponent wins the match."""
    _live(state)
    guards.side(cmd.side)
    if not cmd.reason.strip():
        raise RuleViolation(k.EXPULSION, "the reasons are reported to KSI (1.7.5)", "reason")
    return [
        ev.PlayerExpelled(side=cmd.side, reason=cmd.reason, rule=k.EXPULSION),
        ev.MatchEnded(winner=other(cmd.side), score=state.score, rule=k.EXPULSION),
    ]


def federation_report(events: list[ev.Event]) -> list[dict]:
    """What the TD and the jury report to KSI after the event: every ruling with its reasons
    and appeal, every expulsion (KSI 5.6, 1.7.5)."""
    report: list[dict] = []
    for e in events:
        if type(e) is ev.RulingGiven:
            report.append({"kind": "ruling", "text": e.text, "testimony": list(e.testimony)})
        elif type(e) is ev.AppealDecided and report:
            report[-1]["appeal"] = {"jury": list(e.jury), "overturned": e.overturned}
        elif type(e) is ev.PlayerExpelled:
            report.append({"kind": "expulsion", "side": e.side, "reason": e.reason})
    return report
