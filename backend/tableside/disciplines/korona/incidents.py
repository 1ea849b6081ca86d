"""Judge reports outside a stroke: offences, a knocked table, a pass, time, forgotten debts."""

from __future__ import annotations

from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona.batch import Batch
from tableside.disciplines.korona.commands import (
    ReportIncident,
    ZoneSurvey,
)
from tableside.disciplines.korona.errors import RuleViolation
from tableside.disciplines.korona.game_end import lose
from tableside.disciplines.korona.pairs import penalty_recipient
from tableside.disciplines.korona.penalties import award
from tableside.disciplines.korona.remarks import lose_match, remark
from tableside.disciplines.korona.state import MatchState, side_of
from tableside.disciplines.korona.table_reports import in_play, own_turn_penalty


def _penalty_incident(
    b: Batch, side: str, player: str, code: str, rule: str, zone: ZoneSurvey
) -> None:
    in_play(b, rule)
    shooting = side_of(b.state, b.state.game.turn) == side
    if code == "moved_puck_in_opponent_turn" and shooting:
        raise RuleViolation(
            rule,
            "it is this side's own turn: report touched_puck_handling",
            "code",
            code="own_side_turn",
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
    in_play(b, rule)
    g = b.state.game
    if cmd.code == "left_table_between_games" and g.started:
        raise RuleViolation(rule, "only between games", "code", code="only_between_games")
    if cmd.code == "wrong_order" and not b.pairs:
        raise RuleViolation(rule, "stroke order is a pairs rule", "code", code="pairs_only")
    if cmd.code == "ignored_stop" and b.rs.knock_threshold > 1 and cmd.pucks_moved < 2:
        raise RuleViolation(
            rule, "the game is lost only if 2+ pucks moved", "pucks_moved", code="needs_two_pucks"
        )
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
        raise RuleViolation(
            rule, "a no-show is before the first game", "code", code="no_show_before_first_game"
        )
    if cmd.code == "unsporting" and b.rs.unsporting_needs_confirmation and not cmd.confirmed:
        raise RuleViolation(
            rule, "the head judge must confirm", "confirmed", code="head_judge_confirms"
        )
    if consequence in ("disqualified", "removed"):
        b.emit(ev.PlayerRemoved(player=cmd.player, side=side, scope="competition", rule=rule))
    lose_match(b, side, cmd.code, rule, forfeit=cmd.code in ("no_show", "withdrew"))


def _check(b: Batch, cmd: ReportIncident) -> tuple[str, str, str]:
    outcome = b.rs.incidents.get(cmd.code)
    if outcome is None:
        raise RuleViolation(
            b.rs.name,
            f"{cmd.code} is not an offence under {b.rs.name}",
            "code",
            code="not_in_ruleset",
        )
    side = b.side(cmd.player) if cmd.player else cmd.side
    late = b.state.ended and cmd.code != "handshake_refused"
    if not side or not b.state.created or late:
        raise RuleViolation(
            outcome.rule,
            "needs a player of a match in progress",
            "player",
            code="no_match_in_progress",
        )
    return side, outcome.consequence, outcome.rule


def report_incident(state: MatchState, cmd: ReportIncident) -> list[ev.Event]:
    """An offence outside a stroke, decided by the active ruleset's incident table."""
    b = Batch(state)
    side, kind, rule = _check(b, cmd)
    b.emit(
        ev.IncidentReported(
            kind="incident",
            code=cmd.code,
            player=cmd.player,
            side=side,
            pucks_moved=cmd.pucks_moved,
            at=cmd.at,
            confirmed_by=cmd.confirmed_by if cmd.confirmed else "",
        )
    )
    if cmd.code == "moved_pucks":
        _moved_pucks(b, side, cmd, rule)
    elif kind == "penalty":
        _penalty_incident(b, side, cmd.player, cmd.code, rule, cmd.zone)
    elif kind == "game":
        _game_incident(b, side, cmd, rule)
    elif kind == "remark":
        in_play(b, rule)
        remark(b, cmd.player, side, cmd.code, rule)
    else:
        _match_incident(b, side, cmd, kind, rule)
    return b.events
