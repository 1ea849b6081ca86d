"""Remarks (EKML §26, §9(11); NOVUS08 19), the third remark (§22(5)), conduct warnings (§22(1))."""

from __future__ import annotations

from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona.batch import Batch
from tableside.disciplines.korona.commands import GiveRemark, GiveWarning
from tableside.disciplines.korona.errors import RuleViolation
from tableside.disciplines.korona.match import end_match
from tableside.disciplines.korona.pairs import penalty_recipient
from tableside.disciplines.korona.rulesets import names_no_sanction
from tableside.disciplines.korona.state import MatchState
from tableside.disciplines.korona.vocabulary import index, other


def check_match_running(b: Batch, key: str) -> None:
    """Remarks and warnings belong to a match that has begun and not ended."""
    if not b.state.protocol_seats or b.state.ended:
        rule = b.rs.cite.get(key, b.rs.name)  # an unfilled LV has no card to cite
        raise RuleViolation(rule, "no match in progress", code="no_match_in_progress")


def remark(b: Batch, player: str, side: str, reason: str, rule: str) -> None:
    """One remark; a slow-play remark imposes the 30 s limit; the third loses the match's games."""
    if b.state.ended:
        return
    count = b.state.remarks[index(side)] + 1
    b.emit(ev.RemarkGiven(player=player, side=side, reason=reason, count=count, rule=rule))
    if reason == "slow_play" and not b.state.time_limit[index(side)]:
        rule = b.cite("slow_remark") + (f", {b.cite('time_limit_pairs')}" if b.pairs else "")
        b.emit(ev.TimeLimitImposed(side=side, rule=rule))
    if count == 3:
        third_remark(b, side)


def third_remark(b: Batch, side: str) -> None:
    """The current game and all remaining games are lost (EKML §22(5), §26(2); NOVUS08 19.1.11)."""
    rule = b.cite("third_remark")
    g = b.state.game
    if g.set_up and not g.over:
        b.emit(
            ev.GameEnded(game_no=g.game_no, winner=other(side), reason="third_remark", rule=rule)
        )
    remaining = b.state.games - b.state.games_played
    if remaining > 0:
        b.emit(ev.RemainingGamesLost(side=side, games=remaining, rule=rule))
    end_match(b, "third_remark", rule)


def give_remark(state: MatchState, cmd: GiveRemark) -> list[ev.Event]:
    """A judge's remark for a listed reason of the active ruleset."""
    b = Batch(state)
    check_match_running(b, "third_remark")
    side = b.side(cmd.player)
    rule = b.rs.remarks.get(cmd.reason)
    if rule is None:
        raise RuleViolation(
            b.rs.name,
            f"{cmd.reason} is not a remark under {b.rs.name}",
            "reason",
            code="not_in_ruleset",
        )
    if cmd.reason == "partner_advice_after_placing" and not b.pairs:
        raise RuleViolation(rule, "advice from a partner needs a pair", "reason", code="pairs_only")
    b.emit(
        ev.IncidentReported(kind="remark", code=cmd.reason, player=cmd.player, side=side, at=cmd.at)
    )
    if names_no_sanction(rule):  # LV 13.4/13.5 unfilled: forbidden, no remark counted
        b.emit(ev.OffenceDisregarded(player=cmd.player, code=cmd.reason, rule=rule))
        return b.events
    remark(b, cmd.player, side, cmd.reason, rule)
    if cmd.reason == "striker_pulled_back_far_side":  # a remark for both players
        opp = other(side)
        remark(b, penalty_recipient(b.state, opp), opp, cmd.reason, b.cite("remark_both"))
    return b.events


def lose_match(b: Batch, side: str, reason: str, rule: str, forfeit: bool = False) -> None:
    """`side` loses the match now."""
    if not b.state.ended:
        end_match(b, reason, rule, winner=other(side), forfeit=forfeit)


def _no_card(b: Batch) -> None:
    """NOVUS08 has the hoiatus instead; LV with its silences unfilled has no card at all."""
    if "no_yellow_card" in b.rs.cite:
        rule = b.rs.cite["no_yellow_card"]
        raise RuleViolation(
            rule, f"{b.rs.name} has no yellow card: give a remark", "card", code="no_yellow_card"
        )
    raise RuleViolation(f"{b.rs.name} is silent", "no card", "card", code="not_in_ruleset")


def give_warning(state: MatchState, cmd: GiveWarning) -> list[ev.Event]:
    """Conduct warning: a repeated yellow or a red removes the player (EKML §9(5), §22(1))."""
    b = Batch(state)
    check_match_running(b, "red")
    side = b.side(cmd.player)
    repeat = cmd.card == "yellow" and cmd.player in state.yellow
    key = "red" if cmd.card == "red" else "yellow_repeat" if repeat else "yellow"
    if key not in b.rs.cite:  # NOVUS08: no yellow card; its remark is the hoiatus (19.1)
        _no_card(b)
    b.emit(
        ev.IncidentReported(kind="warning", code=cmd.card, player=cmd.player, side=side, at=cmd.at)
    )
    b.emit(ev.WarningGiven(player=cmd.player, side=side, card=cmd.card, rule=b.cite(key)))
    if key != "yellow":
        b.emit(
            ev.PlayerRemoved(player=cmd.player, side=side, scope="competition", rule=b.cite(key))
        )
        lose_match(b, side, "conduct", b.cite(key))
    return b.events
