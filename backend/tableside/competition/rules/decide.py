"""decide(state, command) -> events: every competition command, each rule cited."""

from collections.abc import Callable
from typing import Any

from . import commands as cmd
from . import (
    decide_draw,
    decide_entrants,
    decide_import,
    decide_move,
    decide_play,
    decide_published,
    decide_review,
)
from .errors import CompetitionRuleError
from .state import Competition

_DECIDERS: dict[type, Callable[[Competition, Any], tuple]] = {
    cmd.CreateCompetition: decide_entrants.create,
    cmd.AmendGuide: decide_entrants.amend_guide,
    cmd.RemoveCompetition: decide_entrants.remove,
    cmd.RegisterEntrant: decide_entrants.register,
    cmd.RenameEntrant: decide_entrants.rename,
    cmd.ApproveEntrant: decide_entrants.approve,
    cmd.CheckInEntrant: decide_entrants.check_in,
    cmd.WithdrawEntrant: decide_review.withdraw,
    cmd.MakeDraw: decide_draw.make_draw,
    cmd.PairNextRound: decide_draw.pair_next_round,
    cmd.ImportRound: decide_import.import_round,
    cmd.DrawPlayoff: decide_draw.draw_playoff,
    cmd.CallMatch: decide_play.call_match,
    cmd.CallNextMatches: decide_play.call_next,
    cmd.MoveMatch: decide_move.move_match,
    cmd.ReportNoShow: decide_play.report_no_show,
    cmd.ConfirmForfeit: decide_review.confirm_forfeit,
    cmd.RecordResult: decide_play.record_result,
    cmd.RecordBoardResult: decide_play.record_board,
    cmd.RuleAtTimeCap: decide_play.rule_at_time_cap,
    cmd.FileProtest: decide_review.file_protest,
    cmd.DecideProtest: decide_review.decide_protest,
    cmd.CorrectResult: decide_review.correct_result,
    cmd.CorrectBoardResult: decide_review.correct_board,
    cmd.FinishCompetition: decide_review.finish,
    cmd.CorrectPublished: decide_published.correct_published,
    cmd.SetTableCount: decide_entrants.set_table_count,
}


def decide(state: Competition, command: object) -> tuple:
    """The events a command leads to, or a CompetitionRuleError citing the paragraph."""
    decider = _DECIDERS.get(type(command))
    if decider is None:
        raise CompetitionRuleError(
            "EKML §12(3)",
            f"unknown command {type(command).__name__}",
            code="unknown_command",
            params={"command": type(command).__name__},
        )
    return decider(state, command)
