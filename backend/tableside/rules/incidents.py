"""Judge reports outside a stroke: offences, a knocked table, a pass, time, forgotten debts."""

from __future__ import annotations

from tableside.rules import events as ev
from tableside.rules.batch import Batch
from tableside.rules.commands import (
    DeclineTurn,
    ForgetDebt,
    KnockTable,
    ReportIncident,
    ReportTimeExceeded,
    ZoneSurvey,
)
from tableside.rules.errors import RuleViolation
from tableside.rules.game_end import game_in_play, lose
from tableside.rules.pairs import penalty_recipient
from tableside.rules.penalties import award, place_debts
from tableside.rules.remarks import lose_match, remark
from tableside.rules.state import MatchState, side_of
from tableside.rules.stroke_flow import check_turn
from tableside.rules.turns import end_turn
from tableside.rules.vocabulary import index


def _in_play(b: Batch, rule: str) -> None:
    if not game_in_play(b):
        raise RuleViolation(rule, "no game is in play")


def own_turn_penalty(b: Batch, side: str, rule: str, zone: ZoneSurvey) -> None:
    """Penalty puck and loss of the turn for the side that has it (EKML §25(1)7)."""
    shooter = b.state.game.turn
    award(b, side, shooter, zone, rule)
    place_debts(b, side, shooter, zone, "debt_after_turn")
    end_turn(b, shooter, b.cite("penalty_turn"), False)


def _penalty_incident(
    b: Batch, side: str, player: str, code: str, rule: str, zone: ZoneSurvey
) -> None:
    _in_play(b, rule)
    shooting = side_of(b.state, b.state.game.turn) == side
    if code == "moved_puck_in_opponent_turn" and shooting:
        raise RuleViolation(
            rule, "it is this side's own turn: report touched_puck_handling", "code"
        )
    b.emit(ev.FoulCommitted(player=player, code=code, rule=rule))
    if code == "moved_puck_in_opponent_turn":
        b.emit(ev.PucksRestored(side=side, count=1, what="moved_puck", rule=rule))
    if shooting:
        own_turn_penalty(b, side, rule, zone)
        return
    recipient = penalty_recipient(b.state, side)  # EKML §28(5) example 2
    award(b, side, recipient, zone, f"{rule}, {b.cite('during_opponent')}")
    g = b.state.game
    if side in g.cleared_first and b.pucks(side).on_board <= 1:
        return  # the waiting 8+8 opener gets the turn after the opponent's first series
    b.emit(ev.NextTurnForfeited(player=recipient, rule=b.cite("during_opponent")))


def _game_incident(b: Batch, side: str, cmd: ReportIncident, rule: str) -> None:
    _in_play(b, rule)
    g = b.state.game
    if cmd.code == "left_table_between_games" and g.started:
        raise RuleViolation(rule, "only between games", "code")
    if cmd.code == "wrong_order" and not b.pairs:
        raise RuleViolation(rule, "stroke order is a pairs rule", "code")
    if cmd.code == "ignored_stop" and b.rs.knock_threshold > 1 and cmd.pucks_moved < 2:
        raise RuleViolation(rule, "the game is lost only if 2+ pucks moved", "pucks_moved")
    if cmd.code == "wrong_opening" and g.strokes >= b.rs.wrong_opening_stands_after:
        b.emit(
            ev.OffenceDisregarded(
                player=cmd.player, code=cmd.code, rule=b.cite("wrong_opening_stands")
            )
        )
        return
    if cmd.code == "wrong_order" and b.rs.wrong_order_stands and cmd.wrong_order_strokes >= 2:
        b.emit(
            ev.OffenceDisregarded(
                player=cmd.player, code=cmd.code, rule=b.cite("wrong_order_stands")
            )
        )
        return
    lose(b, side, cmd.code, rule)


def _moved_pucks(b: Batch, side: str, cmd: ReportIncident, rule: str) -> None:
    """2+ pucks moved by hand, cue or striker lose the game; 1 if only 1 is left (§23(1)5)."""
    if cmd.pucks_moved >= 2 or (cmd.pucks_moved == 1 and b.pucks(side).on_board == 1):
        _game_incident(b, side, cmd, rule)
        return
    touch = b.rs.incidents["touched_puck_handling"].rule
    _penalty_incident(b, side, cmd.player, "touched_puck_handling", touch, cmd.zone)


def _match_incident(b: Batch, side: str, cmd: ReportIncident, consequence: str, rule: str) -> None:
    st = b.state
    if cmd.code == "no_show" and (st.games_played or st.game.started):
        raise RuleViolation(rule, "a no-show is before the first game", "code")
    if cmd.code == "unsporting" and b.rs.unsporting_needs_confirmation and not cmd.confirmed:
        raise RuleViolation(rule, "the head judge must confirm", "confirmed")
    if consequence in ("disqualified", "removed"):
        b.emit(ev.PlayerRemoved(player=cmd.player, side=side, scope="competition", rule=rule))
    lose_match(b, side, cmd.code, rule, forfeit=cmd.code in ("no_show", "withdrew"))


def report_incident(state: MatchState, cmd: ReportIncident) -> list[ev.Event]:
    """An offence outside a stroke, decided by the active ruleset's incident table."""
    b = Batch(state)
    outcome = b.rs.incidents.get(cmd.code)
    if outcome is None:
        raise RuleViolation(b.rs.name, f"{cmd.code} is not an offence under {b.rs.name}", "code")
    side = b.side(cmd.player) if cmd.player else cmd.side
    if not side or not state.created or (state.ended and cmd.code != "handshake_refused"):
        raise RuleViolation(outcome.rule, "needs a player of a match in progress", "player")
    b.emit(
        ev.IncidentReported(
            kind="incident",
            code=cmd.code,
            player=cmd.player,
            side=side,
            pucks_moved=cmd.pucks_moved,
            at=cmd.at,
        )
    )
    kind, rule = outcome.consequence, outcome.rule
    if cmd.code == "moved_pucks":
        _moved_pucks(b, side, cmd, rule)
    elif kind == "penalty":
        _penalty_incident(b, side, cmd.player, cmd.code, rule, cmd.zone)
    elif kind == "game":
        _game_incident(b, side, cmd, rule)
    elif kind == "remark":
        _in_play(b, rule)
        remark(b, cmd.player, side, cmd.code, rule)
    else:
        _match_incident(b, side, cmd, kind, rule)
    return b.events


def knock_table(state: MatchState, cmd: KnockTable) -> list[ev.Event]:
    """Before the start: restore (EKML §20(24)); in play 2+ pucks lose (§23(1)2; NOVUS08 any)."""
    b = Batch(state)
    _in_play(b, b.cite("table_knock"))
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
    """A tactical pass earns a penalty puck (EKML §24(1)7)."""
    b = Batch(state)
    side = check_turn(b, cmd.player)
    b.emit(ev.IncidentReported(kind="pass", code="pass", player=cmd.player, side=side, at=cmd.at))
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
        raise RuleViolation(b.cite("slow_remark"), "no slow-play remark was given", "limit")
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
        raise RuleViolation(b.cite("debt_full"), f"{b.rs.name} has no forgotten-debt rule", "side")
    _in_play(b, b.cite("debt_forgotten"))
    debt = b.pucks(cmd.side).debt
    if not debt:
        raise RuleViolation(b.cite("debt_forgotten"), "this side owes no penalty puck", "side")
    b.emit(
        ev.IncidentReported(kind="debt_forgotten", code="debt_forgotten", side=cmd.side, at=cmd.at)
    )
    b.emit(ev.DebtCancelled(side=cmd.side, count=debt, rule=b.cite("debt_forgotten")))
    return b.events
