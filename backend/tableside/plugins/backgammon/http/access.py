"""Who may post which backgammon command: the TD (head judge or secretary) anything; the
device of the match's table (its table judge token, held by the players or the monitor,
KSI 1.3.3) what happens at the board — rolls, plays, the cube, the clock, pauses, calls for
the TD, appeals, the winner's report, the players' scoresheet confirmations and the monitor's
report — while the result is not yet confirmed. Rulings, testimony, penalties, corrections and
confirmations stay the TD's, and so does an undo that would take back one of the TD's entries.
"""

from __future__ import annotations

from collections.abc import Callable

from litestar.connection import ASGIConnection
from litestar.exceptions import PermissionDeniedException

from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon.state import MatchState
from tableside.web.auth import Principal, bearer, resolve
from tableside.web.context import context
from tableside.web.problems import coded

STAFF = ("head_judge", "secretary")
TABLE_DEVICE = "table_judge"
# who still sees a match whose spectators are barred (KSI 1.6.4): the staff, the jury's
# auditor and the table's device
BEHIND_THE_BAR = (*STAFF, "auditor", TABLE_DEVICE)
TD_ONLY = frozenset(
    {
        c.ResolveScoreDispute,  # KSI 4.7: the TD settles a scoresheet dispute
        c.RecordLateness,  # KSI 2.2.4
        c.PenaliseSlowPlay,  # KSI 2.3.1.2
        c.SetClock,  # KSI 3.7.2
        c.ConfirmResult,  # KSI 4.6: the TD confirms and publishes
        c.RuleGameOverClaim,  # KSI 4.3.2.8: the TD's finding
        c.GiveRuling,  # KSI 5.1
        c.DecideAppeal,  # KSI 5.2
        c.AppointMonitor,  # KSI 1.3.3
        c.BarSpectators,  # KSI 1.6.4: the TD grants a player's request
        c.AdmitSpectators,  # KSI 1.6.4
        c.Expel,  # KSI 1.7.3
        c.CorrectResult,  # KSI 4.6
        c.CorrectCubeValue,  # KSI 4.4.6: the TD corrects the cube
        c.RecordTestimony,  # KSI 5.4: the TD and the jury gather testimony
        c.LodgeObjection,  # KSI 5.5: the TD records the objection sent to KSI
    }
)
# what only the TD records: a table's device never undoes one of these
TD_EVENTS = (
    ev.RulingGiven,
    ev.AppealDecided,
    ev.RulingOverturned,
    ev.TestimonyRecorded,
    ev.ScoreSet,
    ev.PenaltyPoints,
    ev.TimeAdded,
    ev.ClockSet,
    ev.CubeValueCorrected,
    ev.MonitorAppointed,
    ev.SpectatorsBarred,
    ev.SpectatorsAdmitted,
    ev.PlayerExpelled,
    ev.ResultConfirmed,
    ev.ResultCorrected,
    ev.ObjectionLodged,
)


def roles_for(command: c.Command) -> tuple[str, ...]:
    """The roles that may post `command` (a clock imposed for slow play is the TD's)."""
    if type(command) in TD_ONLY or (isinstance(command, c.StartClock) and command.imposed):
        return STAFF
    return (*STAFF, TABLE_DEVICE)


def undo_checker(principal: Principal) -> Callable[[list[ev.Event]], None]:
    """A check on what an undo would take off the record: a table's device takes back its own
    slips, never the TD's entries (a ruling, a penalty, a correction)."""

    def check(removed: list[ev.Event]) -> None:
        if principal.role != TABLE_DEVICE:
            return
        theirs = sorted({type(e).__name__ for e in removed if isinstance(e, TD_EVENTS)})
        if theirs:
            raise PermissionDeniedException(
                "Only the TD undoes the TD's entries (a ruling, a penalty, a correction)",
                extra=coded("td_entries_td_undoes"),
            )

    return check


def authorizer(principal: Principal) -> Callable[[MatchState], None]:
    """A check on the match's fresh state: a table's device records only its table's match,
    and only until the TD has confirmed the result."""

    def authorize(state: MatchState) -> None:
        if principal.role != TABLE_DEVICE:
            return
        if not state.table or state.table != principal.table:
            raise PermissionDeniedException(
                f"This device records the match on table {principal.table}; this match is "
                + (f"on table {state.table}" if state.table else "on no table of the hall"),
                extra=coded("device_other_table", table=principal.table),
            )
        if state.confirmed:
            raise PermissionDeniedException(
                "The TD has confirmed this match's result (KSI 4.6)", extra=coded("td_confirmed")
            )

    return authorize


async def watchable(connection: ASGIConnection, state: MatchState) -> None:
    """A match whose spectators the TD barred at a player's request (KSI 1.6.4) is read only
    by the staff and the table's device (their bearer token); anyone else is refused, told
    why, and given nothing of it."""
    if not state.barred_by:
        return
    principal = await resolve(context(connection.app.state).pool, bearer(connection))
    if principal is not None and principal.role in BEHIND_THE_BAR:
        return
    raise PermissionDeniedException(
        "Spectators are barred from this match at a player's request (KSI 1.6.4)",
        extra=coded("bg_spectators_barred", rule="KSI 1.6.4"),
    )
