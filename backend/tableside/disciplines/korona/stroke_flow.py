"""decide for RecordStroke: validate, classify, restore pucks, penalise, end or pass the turn."""

from __future__ import annotations

from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona.batch import Batch
from tableside.disciplines.korona.commands import RecordStroke, StrokeFacts, ZoneSurvey
from tableside.disciplines.korona.game_end import annul, lose, win
from tableside.disciplines.korona.pairs import penalty_recipient
from tableside.disciplines.korona.penalties import award, place_debts
from tableside.disciplines.korona.restore import restore
from tableside.disciplines.korona.state import MatchState
from tableside.disciplines.korona.stroke import Verdict, classify
from tableside.disciplines.korona.stroke_checks import check_turn, rows_moved, validate
from tableside.disciplines.korona.turns import cleared, end_turn
from tableside.disciplines.korona.vocabulary import other


def _turn_rule(b: Batch, f: StrokeFacts, v: Verdict) -> str:
    """Why a stroke without a penalty puck still costs the turn (EKML §25(1)), or ""."""
    if v.turn_losses:
        return v.turn_losses[0][1]
    if f.own_over or f.opponent_over:
        return b.cite("puck_over")
    if f.crossed_zone_line and not f.own_locked_before:
        return b.cite("zone_line")
    if f.own_pocketed == 0:
        return b.cite("no_own_pocketed")
    return b.cite("opponent_with_own") if f.opponent_pocketed else ""


def _last_together(b: Batch, side: str, f: StrokeFacts, v: Verdict, turn_rule: str) -> bool:
    """Own last and opponent's last puck in one stroke (EKML §27(4); NOVUS08 20.5; LV 17.2)."""
    mine, theirs = b.pucks(side), b.pucks(other(side))
    if not (
        f.opponent_pocketed
        and mine.on_board == 0 == theirs.on_board
        and not mine.debt + theirs.debt
    ):
        return False
    rule = b.cite("last_together")
    other_loss = turn_rule and turn_rule != b.cite("opponent_with_own")
    if v.fouls or (b.rs.last_together_turn_loss_loses and other_loss):
        lose(b, side, "last_together", rule)
    else:
        annul(b, "last_together", rule)
    return True


def _penalty_rule(b: Batch, v: Verdict) -> str:
    first = v.fouls[0][1]
    return first if len(v.fouls) == 1 else f"{first}, {b.cite('one_per_stroke')}"


def _debts(b: Batch, side: str, f: StrokeFacts, turn_lost: bool, zone: ZoneSurvey) -> None:
    opp = other(side)
    theirs = b.pucks(opp)
    if theirs.debt and (
        theirs.on_board == 0 or (b.rs.debt_when_opponent_pockets and f.opponent_pocketed)
    ):
        key = "debt_opponent_pockets" if b.rs.debt_when_opponent_pockets else "debt_after_turn"
        place_debts(b, opp, penalty_recipient(b.state, opp), ZoneSurvey(), key)
    mine = b.pucks(side)
    if mine.debt and turn_lost and b.rs.debt_after_turn_loss:
        place_debts(b, side, penalty_recipient(b.state, side), zone, "debt_after_turn")
    elif mine.debt and mine.on_board == 0 and (not b.pairs or b.rs.debt_on_clear_in_pairs):
        place_debts(b, side, penalty_recipient(b.state, side), zone, "debt_on_clear")


def record_stroke(state: MatchState, cmd: RecordStroke) -> list[ev.Event]:
    """All consequences of one stroke, each citing its paragraph."""
    b = Batch(state)
    side = check_turn(b, cmd.player)
    f = cmd.facts
    validate(b, side, f)
    v = classify(f, b.rs, b.pairs)
    legal = not v.contact_fouls
    rule = v.legal_rule if legal else v.contact_fouls[0][1]
    b.emit(
        ev.StrokeRecorded(player=cmd.player, side=side, facts=f, legal=legal, at=cmd.at, rule=rule)
    )
    rows_moved(b, cmd.player, f, v)
    for code, why in (*v.fouls, *v.turn_losses):
        b.emit(ev.FoulCommitted(player=cmd.player, code=code, rule=why))
    for code, why in v.noted:  # forbidden, no sanction named: recorded, not counted
        b.emit(ev.OffenceDisregarded(player=cmd.player, code=code, rule=why))
    restore(b, side, f, v)
    if v.game_loss:
        lose(b, side, "foul", v.game_loss)
    else:
        _consequences(b, cmd, side, v)
    return b.events


def _consequences(b: Batch, cmd: RecordStroke, side: str, v: Verdict) -> None:
    f = cmd.facts
    turn_rule = _turn_rule(b, f, v)
    if _last_together(b, side, f, v, turn_rule):
        return
    if v.fouls:
        award(b, side, penalty_recipient(b.state, side), cmd.zone, _penalty_rule(b, v))
    mine = b.pucks(side)
    pairs_hold = b.pairs and not b.rs.debt_on_clear_in_pairs  # EKML §24(6) "v.a. paarismängus"
    if pairs_hold and not turn_rule and mine.debt and mine.on_board == 0:
        turn_rule = b.cite("debt_on_clear")  # the series ends; the debt goes down after it
    turn_lost = bool(v.fouls or turn_rule)
    _debts(b, side, f, turn_lost, cmd.zone)
    if b.pucks(side).on_board == 0 and not b.pucks(side).debt:
        cleared(b, cmd.player, side, turn_lost)
    elif _opponent_cleared(b, side):
        win(b, other(side), "opponent_cleared", b.cite("win"))
    elif not turn_lost and b.pucks(side).on_board:
        zone_note = f", {b.cite('zone_line_locked')}" if f.crossed_zone_line else ""
        b.emit(ev.TurnKept(player=cmd.player, rule=b.cite("another_stroke") + zone_note))
    else:
        why = b.cite("penalty_turn") if v.fouls else turn_rule or b.cite("debt_on_clear")
        end_turn(b, cmd.player, why, f.only_centre and not f.first_contact.startswith("own"))


def _opponent_cleared(b: Batch, side: str) -> bool:
    """The shooter pocketed the opponent's last puck: it counts for its owner (EKML §27(3)).

    Not while the 8+8 responder is still in his first series (EKML §27(5))."""
    theirs = b.pucks(other(side))
    waiting = other(side) in b.state.game.cleared_first
    return theirs.on_board == 0 and not theirs.debt and not waiting
