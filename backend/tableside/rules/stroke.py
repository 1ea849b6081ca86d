"""Is a stroke correct? The first contact decides (EKML §21, §24(1); NOVUS08 11.4; LV 12.4)."""

from __future__ import annotations

from msgspec import Struct

from tableside.rules.commands import StrokeFacts
from tableside.rules.errors import RuleViolation
from tableside.rules.rulesets import Ruleset

LOCKED = ("own_locked_zone", "own_locked_centre")
OPPONENT_FIRST = ("opponent", "own_and_opponent")


class Verdict(Struct):
    """What a stroke earns before the board is counted."""

    legal_rule: str  # the paragraph that makes the contact correct (or the "not punished" note)
    contact_fouls: list[tuple[str, str]]  # (code, rule) from the first contact
    fouls: list[tuple[str, str]]  # every penalty-puck offence of the stroke
    turn_losses: list[tuple[str, str]]  # (code, rule) that cost the turn without a penalty puck
    game_loss: str = ""  # the rule that loses the game, if any


def _direct(f: StrokeFacts) -> tuple[str, str] | None:
    c = f.first_contact
    if c == "own_open":
        return None
    if c in LOCKED:
        return ("direct_own_locked", "direct_own_locked")
    if c in OPPONENT_FIRST:
        return ("direct_opponent_first", "direct_opponent_first")
    if c == "none":
        key = "direct_no_own" if f.own_open_before else "all_locked_bank_miss"
        return (key, key)
    raise RuleViolation(
        "EKML §21(1)", "a direct stroke first touches a puck", "facts.first_contact"
    )


def _bank_opposite(f: StrokeFacts) -> tuple[str, str] | None:
    c = f.first_contact
    if c.startswith("own"):
        return None
    if c == "opponent":
        return ("bank_opponent_first", "bank_opponent_first") if f.own_open_before else None
    return ("bank_no_own", "bank_no_own") if f.own_open_before else None


def _bank_side(f: StrokeFacts) -> tuple[str, str] | None:
    c = f.first_contact
    if c in ("own_open", "own_locked_centre", "own_and_opponent"):
        return None
    if c == "own_locked_zone":
        return ("side_bank_zone_first", "side_bank_zone_first")
    if c == "opposite_cushion" and not f.own_open_before:
        return None
    return ("bank_no_own", "bank_no_own") if f.own_open_before else ("all_locked_side_miss",) * 2


def _legal_rule(f: StrokeFacts) -> str:
    if f.kind == "bank_opposite" and f.first_contact in ("none", "opposite_cushion"):
        return "not_punished_opposite"
    if f.kind == "bank_side" and f.first_contact == "own_locked_centre" and not f.own_open_before:
        return "not_punished_side_centre"
    return "legal"


def classify(f: StrokeFacts, rs: Ruleset, pairs: bool) -> Verdict:
    """The stroke's fouls, turn losses and game loss, each with its paragraph."""
    rule = {"direct": _direct, "bank_opposite": _bank_opposite, "bank_side": _bank_side}[f.kind](f)
    contact = [(rule[0], rs.cite[rule[1]])] if rule else []
    v = Verdict(rs.cite[_legal_rule(f)] if not rule else "", contact, list(contact), [])
    if f.striker == "pocket":
        v.fouls.append(("striker_pocket", rs.cite["striker_pocket"]))
    elif f.striker == "over":
        v.fouls.append(("striker_over", rs.cite["striker_over"]))
    if f.opponent_over and over_restored(f, rs, v):
        v.fouls.append(("opponent_over_foul", rs.cite["opponent_over_foul"]))
    _judge_offences(f, rs, v)
    _into_lock(f, rs, pairs, v)
    _game_loss(f, rs, v)
    return v


def direct_hit_foul(f: StrokeFacts) -> bool:
    """A direct stroke whose striker hit an opponent's puck first (EKML §21(7), §21(9))."""
    return f.kind == "direct" and f.first_contact in OPPONENT_FIRST


def over_restored(f: StrokeFacts, rs: Ruleset, v: Verdict) -> bool:
    """Opponent pucks over the cushion are put back after a foul direct hit (EKML §21(9));
    NOVUS08 17.1.16 after any foul stroke."""
    return direct_hit_foul(f) or (rs.over_restored_on_any_foul and bool(v.contact_fouls))


def _judge_offences(f: StrokeFacts, rs: Ruleset, v: Verdict) -> None:
    for code in f.offences:
        outcome = rs.stroke_offences.get(code)
        if outcome is None:
            raise RuleViolation(
                rs.name, f"{code} is not an offence under {rs.name}", "facts.offences"
            )
        if outcome.consequence == "penalty":
            v.fouls.append((code, outcome.rule))
        elif outcome.consequence == "turn":
            v.turn_losses.append((code, outcome.rule))
        else:
            v.game_loss = v.game_loss or outcome.rule


def _into_lock(f: StrokeFacts, rs: Ruleset, pairs: bool, v: Verdict) -> None:
    """Pairs: opponent pucks a direct stroke drove into a lock earn a penalty (EKML §28(3)-(4)).

    In singles the same is already a foul of the first contact (§21(7), §24(1)2)."""
    if f.kind != "direct" or not pairs:
        return
    if f.opponent_into_zone:
        v.fouls.append(("into_lock", rs.cite["pairs_zone_not_restored"]))
    if f.opponent_into_centre:
        v.fouls.append(("into_lock", rs.cite["pairs_centre_restored"]))


def _game_loss(f: StrokeFacts, rs: Ruleset, v: Verdict) -> None:
    locked_hit = f.first_contact in LOCKED
    if rs.locked_out_loses_on_end_foul:  # EKML §23(1)1, §23(1)4: a direct stroke at a locked puck
        by_locked = f.kind == "direct" and locked_hit
        out_loses = by_locked
    else:  # NOVUS08 16.1.1: any foul stroke, not a correct one that ends badly; 16.1.4
        by_locked = locked_hit or any(c == "own_zone_puck_first" for c in f.offences)
        out_loses = bool(v.contact_fouls) or by_locked
    if f.own_locked_out >= 2 and out_loses:
        v.game_loss = v.game_loss or rs.cite["locked_out_2"]
    if f.locked_hit_moved >= 2 and by_locked:
        v.game_loss = v.game_loss or rs.cite["locked_hit_moved_2"]
