"""Who may post which command to which match: roles by command, tables for judge tokens."""

from __future__ import annotations

from uuid import UUID

import msgspec
from litestar.exceptions import PermissionDeniedException

from tableside.disciplines.korona.commands import ReportIncident
from tableside.plugins.korona.commands import HEAD_JUDGE_ONLY, STAFF_ONLY
from tableside.plugins.korona.folding import MatchView
from tableside.web.auth import Principal
from tableside.web.problems import coded


def roles_for(command: object) -> tuple[str, ...]:
    """Corrections: head judge; calls: head judge or secretary; reports: also the table judge."""
    if type(command) in HEAD_JUDGE_ONLY:
        return ("head_judge",)
    if type(command) in STAFF_ONLY:
        return ("head_judge", "secretary")
    return ("head_judge", "table_judge")


def confirmed_by_caller(command: object, principal: Principal) -> object:
    """A head judge's confirmation (EKML §22(4)) is the caller's own: a head judge's confirmed
    report records who confirmed; anyone else's `confirmed` is dropped, so the engine refuses
    it as unconfirmed (`head_judge_confirms`), in the reader's words."""
    if not isinstance(command, ReportIncident) or not command.confirmed:
        return command
    if principal.role == "head_judge":
        return msgspec.structs.replace(command, confirmed_by=principal.name)
    return msgspec.structs.replace(command, confirmed=False, confirmed_by="")


def authorizer(principal: Principal, current: tuple[UUID, int] | None):
    """A check run on the match's fresh view: a judge token only for its table's current match."""

    def authorize(view: MatchView) -> None:
        if principal.role != "table_judge":
            return
        if view.table != principal.table:
            raise PermissionDeniedException(
                f"This token records for table {principal.table}",
                extra=coded("token_other_table", table=principal.table),
            )
        # What this process has followed may lag: a match scheduled after the one it knows
        # is the current one.
        if current and current[0] != view.match_id and current[1] > view.scheduled_position:
            raise PermissionDeniedException(
                "Not the match this table is playing now", extra=coded("not_table_match")
            )

    return authorize
