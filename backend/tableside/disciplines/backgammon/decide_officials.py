"""Deciders for officials and disputes: the TD called with the board frozen (KSI 5.1), the
appeal to a jury of three or five deciding by majority, final (KSI 5.2, 1.3.2), testimony
(KSI 5.4), the monitor and his report (KSI 1.3.3, 1.7.4), expulsion (KSI 1.2.4, 1.7.3,
1.2.3.2)."""

from __future__ import annotations

import unicodedata

from tableside.disciplines.backgammon import cite as k
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon import guards, timing
from tableside.disciplines.backgammon.errors import RuleViolation
from tableside.disciplines.backgammon.state import MatchState, other
from tableside.names import skeleton

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
        raise RuleViolation(
            k.DISPUTE,
            "the board is frozen until the dispute is decided",
            "type",
            code="bg_board_frozen",
        )


def _live(state: MatchState) -> None:
    if not state.created or state.over:
        raise RuleViolation(k.DISPUTE, "no match in progress", code="bg_no_match_in_progress")


def call_td(state: MatchState, cmd: c.CallTD) -> list[ev.Event]:
    _live(state)
    if state.dispute in FROZEN:
        raise RuleViolation(k.DISPUTE, "the TD has been called", "side", code="bg_td_called")
    if cmd.side not in ("", "A", "B"):
        raise RuleViolation(
            k.DISPUTE, "side must be A, B or empty", "side", code="bg_side_a_b_empty"
        )
    called = ev.TDCalled(side=cmd.side, reason=cmd.reason, rule=k.DISPUTE)
    clock = state.timer
    if clock is None or clock.stopped or not clock.running or not cmd.at_ms:
        return [called]
    if cmd.at_ms < clock.since:
        raise RuleViolation(k.RECORD, "device time runs forward", "at_ms", code="bg_time_backwards")
    left = timing.charge(clock, cmd.at_ms).remaining
    stop = ev.ClockStopped(case=4, at_ms=cmd.at_ms, remaining=left, rule=f"{k.CLOCK_STOP}.4")
    return [stop, called]


def give_ruling(state: MatchState, cmd: c.GiveRuling) -> list[ev.Event]:
    """The TD rules, having heard the players and the witnesses he asked (KSI 5.4)."""
    if state.dispute != "called":
        raise RuleViolation(
            k.DISPUTE, "no dispute waiting for a ruling", "text", code="bg_no_dispute"
        )
    if not cmd.text.strip():
        raise RuleViolation(
            k.DISPUTE, "a ruling says what was decided and why", "text", code="bg_ruling_empty"
        )
    rule = k.EVIDENCE if cmd.testimony else k.DISPUTE
    return [
        ev.RulingGiven(
            text=cmd.text, favours=cmd.favours, testimony=cmd.testimony, td=cmd.td, rule=rule
        )
    ]


def record_testimony(state: MatchState, cmd: c.RecordTestimony) -> list[ev.Event]:
    """The TD, referees and jury gather testimony and the players' arguments (KSI 5.4)."""
    if state.dispute not in ("called", "ruled", "appealed"):
        raise RuleViolation(
            k.EVIDENCE, "testimony is heard in a dispute", "witness", code="bg_testimony_in_dispute"
        )
    if not cmd.witness.strip() or not cmd.text.strip():
        raise RuleViolation(
            k.EVIDENCE, "who said it and what was said", "text", code="bg_testimony_empty"
        )
    return [ev.TestimonyRecorded(witness=cmd.witness, text=cmd.text, rule=k.EVIDENCE)]


def file_monitor_report(state: MatchState, cmd: c.FileMonitorReport) -> list[ev.Event]:
    """The monitor protects the players against breaches (KSI 1.3.3) for the rest of the
    match or game (KSI 1.7.4): what he saw is on the record."""
    if not state.created or not state.monitor:
        raise RuleViolation(
            k.MONITOR, "no monitor has been appointed to this match", "text", code="bg_no_monitor"
        )
    if not cmd.text.strip():
        raise RuleViolation(
            k.MONITOR, "a report says what the monitor saw", "text", code="bg_report_empty"
        )
    return [ev.MonitorReported(name=state.monitor, text=cmd.text, rule=k.MONITOR)]


def appeal(state: MatchState, cmd: c.Appeal) -> list[ev.Event]:
    """At once: before anything else is played after the ruling (KSI 5.2)."""
    guards.side(cmd.side)
    if state.dispute == "final":
        raise RuleViolation(k.APPEAL, "the jury's decision is final", "side", code="bg_jury_final")
    if state.dispute != "ruled":
        raise RuleViolation(
            k.APPEAL, "an appeal follows a ruling at once", "side", code="bg_appeal_after_ruling"
        )
    return [ev.AppealLodged(side=cmd.side, rule=k.APPEAL)]


# letters that do not decompose into a base letter and an accent
_BASE_LETTERS = str.maketrans(
    {"ð": "d", "þ": "th", "æ": "ae", "ø": "o", "œ": "oe", "đ": "d", "ł": "l"}
)


def person(name: str) -> str:
    """A name as people are told apart (KSI 1.3.2): letter case, spacing and accents do not
    make another person — "Asa  JONSDOTTIR" is Ása Jónsdóttir — nor do look-alike letters (the
    UTS #39 skeleton of `tableside.names`: a Cyrillic "а" is an "a")."""
    folded = unicodedata.normalize("NFKD", " ".join(name.split()).casefold())
    bare = "".join(ch for ch in folded if not unicodedata.combining(ch)).translate(_BASE_LETTERS)
    return skeleton(bare)


def check_jury(state: MatchState, jury: tuple[str, ...], td: str) -> None:
    """Three or five different people; neither a player nor the TD who ruled (KSI 1.3.2)."""
    people = [person(j) for j in jury]
    if len(people) not in (3, 5) or len(set(people)) != len(people) or "" in people:
        raise RuleViolation(
            k.JURY, "a jury is three or five different people", "jury", code="bg_jury_size"
        )
    barred = {person(p) for p in (*state.players, state.ruled_by, td) if p.strip()}
    if barred & set(people):
        raise RuleViolation(
            k.JURY,
            "neither the TD nor a player sits on the jury",
            "jury",
            code="bg_jury_not_neutral",
        )


def jurors_of_event(jury: tuple[str, ...], people: list[str]) -> tuple[str, ...]:
    """Each juror one of the event's people — its officials and its players (KSI 1.3.2: "neutral
    backgammon players" of the event, chosen under 5.2) — told apart as people (`person`), and
    named as the event knows him; a name the event does not know is refused with it."""
    known = {person(p): p for p in people if p.strip()}
    for juror in jury:
        if person(juror) not in known:
            raise RuleViolation(
                k.JURY,
                f"{juror.strip()} is neither an official nor a player of this event",
                "jury",
                code="bg_juror_not_of_event",
                params={"name": juror.strip()},
            )
    return tuple(known[person(j)] for j in jury)


def decide_appeal(state: MatchState, cmd: c.DecideAppeal) -> tuple[list[ev.Event], ev.Event]:
    """Three or five neutral players, not the TD; a majority overturns (KSI 1.3.2, 5.2).
    (the events returning the board to the call when overturned, the decision itself); the
    engine puts what the decision orders between them."""
    if state.dispute != "appealed":
        raise RuleViolation(k.APPEAL, "no appeal to decide", "jury", code="bg_no_appeal")
    check_jury(state, cmd.jury, cmd.td)
    if not 0 <= cmd.overturn_votes <= len(cmd.jury):
        raise RuleViolation(
            k.APPEAL, "votes within the jury's size", "overturn_votes", code="bg_votes_range"
        )
    overturned = 2 * cmd.overturn_votes > len(cmd.jury)
    if cmd.remedy is not None and not overturned:
        raise RuleViolation(
            k.APPEAL,
            "the ruling stands: there is nothing to carry out",
            "remedy",
            code="bg_ruling_stands",
        )
    decided = ev.AppealDecided(
        jury=cmd.jury,
        overturn_votes=cmd.overturn_votes,
        overturned=overturned,
        reasons=cmd.reasons.strip(),
        rule=k.APPEAL,
    )
    if not overturned or state.called_at < 0:
        return [], decided
    return [ev.RulingOverturned(to_version=state.called_at, rule=k.APPEAL)], decided


def lodge_objection(state: MatchState, cmd: c.LodgeObjection) -> list[ev.Event]:
    """After a jury's decision, in the match or after it, a player may object to its findings
    in writing to KSI with his grounds (KSI 5.5); the decision itself stays final (KSI 5.2)."""
    guards.side(cmd.side)
    if not state.created or state.final_at <= 0:
        raise RuleViolation(
            k.OBJECTION,
            "an objection follows a jury's decision",
            "side",
            code="bg_objection_after_jury",
        )
    if not cmd.grounds.strip():
        raise RuleViolation(
            k.OBJECTION, "an objection states its grounds", "grounds", code="bg_objection_grounds"
        )
    return [ev.ObjectionLodged(side=cmd.side, grounds=cmd.grounds.strip(), rule=k.OBJECTION)]


def appoint_monitor(state: MatchState, cmd: c.AppointMonitor) -> list[ev.Event]:
    """By the TD, on his own initiative or at a player's request (KSI 1.3.3, 1.7.4)."""
    _live(state)
    if cmd.requested_by not in ("", "A", "B") or not cmd.name.strip():
        raise RuleViolation(
            k.MONITOR,
            "a monitor's name; requested by A, B or the TD",
            "name",
            code="bg_monitor_request",
        )
    rule = k.MONITOR_REQUEST if cmd.requested_by else k.MONITOR
    return [ev.MonitorAppointed(name=cmd.name, requested_by=cmd.requested_by, rule=rule)]


def bar_spectators(state: MatchState, cmd: c.BarSpectators) -> list[ev.Event]:
    """A player may ask the TD to bar spectators from watching the match (KSI 1.6.4); the TD
    granting it records it, naming who asked."""
    _live(state)
    guards.side(cmd.requested_by)
    if state.barred_by:
        raise RuleViolation(
            k.SPECTATORS_BARRED,
            "spectators are already barred from this match",
            "requested_by",
            code="bg_spectators_already_barred",
        )
    return [ev.SpectatorsBarred(requested_by=cmd.requested_by, rule=k.SPECTATORS_BARRED)]


def admit_spectators(state: MatchState, cmd: c.AdmitSpectators) -> list[ev.Event]:
    """The TD lifts the bar of KSI 1.6.4: the match is public again."""
    if not state.barred_by:
        raise RuleViolation(
            k.SPECTATORS_BARRED,
            "spectators are not barred from this match",
            "type",
            code="bg_spectators_not_barred",
        )
    return [ev.SpectatorsAdmitted(rule=k.SPECTATORS_BARRED)]


EXPULSION_GROUNDS = {
    "conduct": k.EXPULSION,  # a breach of 1.2.1-1.2.3 (KSI 1.2.4)
    "aids": k.EXPULSION_AIDS,  # aids, signals, outside help (KSI 1.7.3)
    "equipment": k.EXPULSION_EQUIPMENT,  # equipment mistreated (KSI 1.2.3.2)
}


def expel(state: MatchState, cmd: c.Expel) -> list[ev.Event]:
    """Expelled from the tournament: the opponent wins the match. The paragraph is the
    ground's: conduct (KSI 1.2.4), aids or outside help (KSI 1.7.3), equipment (KSI 1.2.3.2)."""
    _live(state)
    guards.side(cmd.side)
    rule = EXPULSION_GROUNDS.get(cmd.ground)
    if rule is None:
        raise RuleViolation(
            k.EXPULSION, "conduct, aids or equipment", "ground", code="bg_expulsion_ground"
        )
    if not cmd.reason.strip():
        raise RuleViolation(
            rule, "the reasons are reported to KSI", "reason", code="bg_reasons_to_ksi"
        )
    return [
        ev.PlayerExpelled(side=cmd.side, reason=cmd.reason, ground=cmd.ground, rule=rule),
        ev.MatchEnded(winner=other(cmd.side), score=state.score, rule=rule),
    ]


def federation_report(events: list[ev.Event]) -> list[dict]:
    """What the TD and the jury report to KSI after the event: every ruling with its reasons
    and appeal, every expulsion (KSI 5.6, 1.7.5)."""
    report: list[dict] = []
    for e in events:
        if type(e) is ev.RulingGiven:
            report.append({"kind": "ruling", "text": e.text, "testimony": list(e.testimony)})
        elif type(e) is ev.AppealDecided and report:
            report[-1]["appeal"] = {
                "jury": list(e.jury),
                "overturn_votes": e.overturn_votes,
                "overturned": e.overturned,
                "reasons": e.reasons,  # KSI 5.6; "" where the jury gave none
            }
        elif type(e) is ev.PlayerExpelled:
            report.append({"kind": "expulsion", "side": e.side, "reason": e.reason})
    return report
