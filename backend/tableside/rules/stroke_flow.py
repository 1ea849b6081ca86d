"""decide for RecordStroke: validate, classify, restore pucks, penalise, end or pass the turn."""

from __future__ import annotations

from tableside.rules import events as ev
from tableside.rules.batch import Batch
from tableside.rules.commands import RecordStroke, StrokeFacts, ZoneSurvey
from tableside.rules.errors import RuleViolation
from tableside.rules.game_end import annul, game_in_play, lose, win
from tableside.rules.pairs import penalty_recipient
from tableside.rules.penalties import award, place_debts
from tableside.rules.state import MatchState, side_of
from tableside.rules.stroke import Verdict, classify, direct_hit_foul, over_restored
from tableside.rules.turns import cleared, end_turn
from tableside.rules.vocabulary import other

_COUNTS = (
    "own_pocketed",
    "opponent_pocketed",
    "own_over",
    "opponent_over",
    "own_locked_out",
    "own_locked_out_pocketed",
    "locked_hit_moved",
    "opponent_locked_out",
    "opponent_into_centre",
    "opponent_into_zone",
)


def check_turn(b: Batch, player: str) -> str:
    """The player may shoot: a game is in play and he has the turn (EKML §23(1)8)."""
    if not game_in_play(b):
        raise RuleViolation(b.cite("no_turn"), "no game is in play", "player")
    side = b.side(player)
    if b.state.game.turn != player:
        raise RuleViolation(
            b.cite("no_turn"),
            f"{player} does not have the turn ({b.state.game.turn} has); report shot_without_right",
            "player",
        )
    return side


def _validate(b: Batch, side: str, f: StrokeFacts) -> None:
    for name in _COUNTS:
        if getattr(f, name) < 0:
            raise RuleViolation(b.cite("legal"), "counts are never negative", f"facts.{name}")
    if f.own_pocketed > b.pucks(side).on_board:
        raise RuleViolation(
            b.cite("win"), "more own pucks pocketed than on the board", "facts.own_pocketed"
        )
    if f.opponent_pocketed > b.pucks(other(side)).on_board:
        raise RuleViolation(
            b.cite("win"),
            "more opponent pucks pocketed than on the board",
            "facts.opponent_pocketed",
        )
    if f.own_locked_out_pocketed > min(f.own_locked_out, f.own_pocketed):
        raise RuleViolation(
            b.cite("own_locked_restored"),
            "pocketed locked pucks exceed those knocked out",
            "facts.own_locked_out_pocketed",
        )
    for p in f.rows_moved:
        if side_of(b.state, p) is None:
            raise RuleViolation(
                b.cite("pairs_debt"), f"{p!r} does not play here", "facts.rows_moved"
            )


def _rows(b: Batch, player: str, f: StrokeFacts, v: Verdict) -> None:
    if not b.pairs:
        return
    moved = set(f.rows_moved)
    if f.kind == "direct" and f.first_contact == "own_open" and not v.contact_fouls:
        moved.add(player)  # a correct first stroke hits the shooter's own start row
    for p in sorted(moved - set(b.state.game.rows_moved)):
        b.emit(ev.RowMoved(player=p, rule=b.cite("pairs_debt")))


def _restore(b: Batch, side: str, f: StrokeFacts, v: Verdict) -> None:
    opp, foul = other(side), bool(v.contact_fouls)
    if f.own_locked_out and foul:
        b.emit(
            ev.PucksRestored(
                side=side,
                count=f.own_locked_out,
                from_pocket=f.own_locked_out_pocketed,
                what="own_locked",
                rule=b.cite("own_locked_restored"),
            )
        )
    if f.opponent_locked_out:
        b.emit(
            ev.OpponentPucksLeft(
                side=opp,
                count=f.opponent_locked_out,
                what="opponent_locked",
                rule=b.cite("opponent_locked_stays"),
            )
        )
    _into_lock(b, opp, f, foul)
    if f.opponent_over and over_restored(f, b.rs, v):
        b.emit(
            ev.PucksRestored(
                side=opp, count=f.opponent_over, what="over", rule=b.cite("over_restored")
            )
        )
    elif f.opponent_over:
        b.emit(
            ev.PucksToCentre(
                side=opp,
                count=f.opponent_over,
                first_touched=f.over_first_touched == opp,
                rule=b.cite("over_to_centre"),
            )
        )
    if f.own_over:
        b.emit(
            ev.PucksToCentre(
                side=side,
                count=f.own_over,
                first_touched=f.over_first_touched == side,
                rule=b.cite("over_to_centre"),
            )
        )


def _into_lock(b: Batch, opp: str, f: StrokeFacts, foul: bool) -> None:
    centre, zone = f.opponent_into_centre, f.opponent_into_zone
    if not centre + zone:
        return
    if b.pairs and f.kind == "direct":
        if centre:
            b.emit(
                ev.PucksRestored(
                    side=opp, count=centre, what="into_centre", rule=b.cite("pairs_centre_restored")
                )
            )
        if zone:
            b.emit(
                ev.OpponentPucksLeft(
                    side=opp, count=zone, what="into_zone", rule=b.cite("pairs_zone_not_restored")
                )
            )
        return
    hit = direct_hit_foul(f) if not b.rs.restore_lock_on_any_foul else foul
    if hit:
        b.emit(
            ev.PucksRestored(
                side=opp, count=centre + zone, what="into_lock", rule=b.cite("into_lock_restored")
            )
        )
    else:
        b.emit(
            ev.OpponentPucksLeft(
                side=opp, count=centre + zone, what="into_lock", rule=b.cite("into_lock_legal")
            )
        )


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
    _validate(b, side, f)
    v = classify(f, b.rs, b.pairs)
    legal = not v.contact_fouls
    b.emit(
        ev.StrokeRecorded(
            player=cmd.player,
            side=side,
            facts=f,
            legal=legal,
            at=cmd.at,
            rule=v.legal_rule if legal else v.contact_fouls[0][1],
        )
    )
    _rows(b, cmd.player, f, v)
    for code, rule in (*v.fouls, *v.turn_losses):
        b.emit(ev.FoulCommitted(player=cmd.player, code=code, rule=rule))
    _restore(b, side, f, v)
    if v.game_loss:
        lose(b, side, "foul", v.game_loss)
        return b.events
    _consequences(b, cmd, side, v)
    return b.events


def _consequences(b: Batch, cmd: RecordStroke, side: str, v: Verdict) -> None:
    f = cmd.facts
    turn_rule = _turn_rule(b, f, v)
    if _last_together(b, side, f, v, turn_rule):
        return
    if v.fouls:
        award(b, side, penalty_recipient(b.state, side), cmd.zone, _penalty_rule(b, v))
    turn_lost = bool(v.fouls or turn_rule)
    _debts(b, side, f, turn_lost, cmd.zone)
    if b.pucks(side).on_board == 0 and not b.pucks(side).debt:
        cleared(b, cmd.player, side, turn_lost)
        return
    theirs = b.pucks(other(side))
    waiting = other(side) in b.state.game.cleared_first  # 8+8: the responder's series goes on
    if theirs.on_board == 0 and not theirs.debt and not waiting:
        win(b, other(side), "opponent_cleared", b.cite("win"))
        return
    if not turn_lost and b.pucks(side).on_board:
        keep = b.cite("another_stroke")
        if f.crossed_zone_line:
            keep += f", {b.cite('zone_line_locked')}"
        b.emit(ev.TurnKept(player=cmd.player, rule=keep))
        return
    stalled = f.only_centre and not f.first_contact.startswith("own")
    end_turn(
        b,
        cmd.player,
        b.cite("penalty_turn") if v.fouls else turn_rule or b.cite("debt_on_clear"),
        stalled,
    )
