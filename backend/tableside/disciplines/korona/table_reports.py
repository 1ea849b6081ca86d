"""Judge reports tied to the turn: a pass, time exceeded, a knocked table, a forgotten debt."""

from __future__ import annotations

from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona.batch import Batch
from tableside.disciplines.korona.commands import (
    DeclineTurn,
    ForgetDebt,
    KnockTable,
    ReportTimeExceeded,
    ZoneSurvey,
)
from tableside.disciplines.korona.errors import RuleViolation
from tableside.disciplines.korona.game_end import game_in_play, lose
from tableside.disciplines.korona.penalties import award, place_debts
from tableside.disciplines.korona.state import MatchState
from tableside.disciplines.korona.stroke_checks import check_turn
from tableside.disciplines.korona.turns import end_turn
from tableside.disciplines.korona.vocabulary import index


def in_play(b: Batch, rule: str) -> None:
    """A game is set up and not over, or the report is refused under `rule`."""
    if not game_in_play(b):
        raise RuleViolation(rule, "no game is in play", code="no_game_in_play")


def own_turn_penalty(b: Batch, side: str, rule: str, zone: ZoneSurvey) -> None:
    """Penalty puck and loss of the turn for the side that has it (EKML §25(1)7)."""
    shooter = b.state.game.turn
    award(b, side, shooter, zone, rule)
    place_debts(b, side, shooter, zone, "debt_after_turn")
    end_turn(b, shooter, b.cite("penalty_turn"), False)


def knock_table(state: MatchState, cmd: KnockTable) -> list[ev.Event]:
    """Before the start: restore (EKML §20(24)); in play 2+ pucks lose (§23(1)2; NOVUS08 any)."""
    b = Batch(state)
    in_play(b, b.cite("table_knock"))
    side = b.side(cmd.player)
    b.emit(
        ev.IncidentReported(
            kind="table_knock",
            code="knocked",
            player=cmd.player,
            side=side,
            pucks_moved=cmd.pucks_moved,
            at=cmd.at,
        )
    )
    if not b.state.game.started:
        b.emit(
            ev.StartPositionRestored(
                game_no=b.state.game.game_no, rule=b.cite("knock_before_start")
            )
        )
    elif cmd.pucks_moved >= b.rs.knock_threshold:
        lose(b, side, "table_knocked", b.cite("table_knock"))
    elif cmd.pucks_moved:
        b.emit(
            ev.PucksRestored(
                side=side, count=cmd.pucks_moved, what="knocked", rule=b.cite("knock_minor")
            )
        )
    return b.events


def decline_turn(state: MatchState, cmd: DeclineTurn) -> list[ev.Event]:
    """A tactical pass earns a penalty puck (EKML §24(1)7); where the ruleset's text is
    silent and its guide leaves it so (LV, `fill_silences: none`) the turn only passes."""
    b = Batch(state)
    side = check_turn(b, cmd.player)
    b.emit(ev.IncidentReported(kind="pass", code="pass", player=cmd.player, side=side, at=cmd.at))
    if "pass" not in b.rs.cite:
        end_turn(b, cmd.player, f"{b.rs.name} is silent", False)
        return b.events
    b.emit(ev.FoulCommitted(player=cmd.player, code="pass", rule=b.cite("pass")))
    own_turn_penalty(b, side, b.cite("pass"), cmd.zone)
    return b.events


def time_exceeded(state: MatchState, cmd: ReportTimeExceeded) -> list[ev.Event]:
    """Slow play: after the remark 5 s or lose the turn; past 30 s a penalty (§26(4), §24(1)18)."""
    b = Batch(state)
    side = check_turn(b, cmd.player)
    i = index(side)
    slow = b.state.slow_remarks[i]
    if not slow:
        raise RuleViolation(
            b.cite("slow_remark"),
            "no slow-play remark was given",
            "limit",
            code="no_slow_play_remark",
        )
    b.emit(
        ev.IncidentReported(kind="time", code=cmd.limit, player=cmd.player, side=side, at=cmd.at)
    )
    penalty = cmd.limit == "30s" and slow >= b.rs.slow_play_remarks_for_penalty
    if penalty and b.state.time_limit[i]:
        b.emit(ev.FoulCommitted(player=cmd.player, code="time_30s", rule=b.cite("time_30s")))
        own_turn_penalty(b, side, b.cite("time_30s"), cmd.zone)
    else:
        end_turn(b, cmd.player, b.cite("slow_5s"), False)
    return b.events


def forget_debt(state: MatchState, cmd: ForgetDebt) -> list[ev.Event]:
    """A debt forgotten while play went on is cancelled (EKML §24(6) märkus; NOVUS08 17.4)."""
    b = Batch(state)
    if not b.rs.debt_forgetting:
        raise RuleViolation(
            b.cite("debt_full"),
            f"{b.rs.name} has no forgotten-debt rule",
            "side",
            code="no_forgotten_debt",
        )
    in_play(b, b.cite("debt_forgotten"))
    debt = b.pucks(cmd.side).debt
    if not debt:
        raise RuleViolation(
            b.cite("debt_forgotten"), "this side owes no penalty puck", "side", code="owes_no_debt"
        )
    b.emit(
        ev.IncidentReported(kind="debt_forgotten", code="debt_forgotten", side=cmd.side, at=cmd.at)
    )
    b.emit(ev.DebtCancelled(side=cmd.side, count=debt, rule=b.cite("debt_forgotten")))
    return b.events
