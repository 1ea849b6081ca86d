"""Is a stroke correct? The first contact decides (EKML §21, §24(1); NOVUS08 11.4; LV 12.4)."""

from __future__ import annotations

from msgspec import Struct

from tableside.disciplines.korona.commands import StrokeFacts
from tableside.disciplines.korona.errors import RuleViolation
from tableside.disciplines.korona.rulesets import Ruleset

LOCKED = ("own_locked_zone", "own_locked_centre")
OPPONENT_FIRST = ("opponent", "own_and_opponent")


class Verdict(Struct):
    """What a stroke earns before the board is counted."""

    legal_rule: str  # the paragraph that makes the contact correct (or the "not punished" note)
    contact_fouls: list[tuple[str, str]]  # (code, rule) from the first contact
    fouls: list[tuple[str, str]]  # every penalty-puck offence of the stroke
    turn_losses: list[tuple[str, str]]  # (code, rule) that cost the turn without a penalty puck
    game_loss: str = ""  # the rule that loses the game, if any
    noted: list[tuple[str, str]] = []  # forbidden by the ruleset's text, no sanction named


def _direct(f: StrokeFacts) -> str:
    """A direct stroke must first touch an own open puck (EKML §21(1), §21(3))."""
    c = f.first_contact
    if c == "own_open":
        return ""
    if c in LOCKED:
        return "direct_own_locked"  # EKML §24(1)8; NOVUS08 17.1.8
    if c in OPPONENT_FIRST:
        return "direct_opponent_first"  # EKML §24(1)2; NOVUS08 17.1.2; LV 15.1.2
    if c == "none":  # EKML §24(1)1, or §24(1)6 when every own puck is locked
        return "direct_no_own" if f.own_open_before else "all_locked_bank_miss"
    return "invalid_direct"


def _bank_opposite(f: StrokeFacts) -> str:
    """Off the opposite cushion any own puck may be hit (EKML §21(2), §21(3)1)."""
    c = f.first_contact
    if c.startswith("own"):
        return ""
    if c == "opponent":  # EKML §24(1)3 only while an own open puck exists (§21(8)1)
        return "bank_opponent_first" if f.own_open_before else ""
    # EKML §21(5) → §24(1)1; with only locked pucks not punished (§24(1)6 märkus 1)
    return "bank_no_own" if f.own_open_before else ""


def _bank_side(f: StrokeFacts) -> str:
    """Off a side cushion: an own puck, the centre-circle locked puck, or the opposite cushion."""
    c = f.first_contact
    if c in ("own_open", "own_locked_centre", "own_and_opponent"):
        return ""  # EKML §21(3)5, §24(1)6 märkus 2
    if c == "own_locked_zone":
        return "side_bank_zone_first"  # EKML §24(1)11, §21(3)
    if c == "opposite_cushion" and not f.own_open_before:
        return ""
    # EKML §21(5) → §24(1)1 with open pucks; §24(1)6 (NOVUS08 17.1.9) with all locked
    return "bank_no_own" if f.own_open_before else "all_locked_side_miss"


def _legal_rule(f: StrokeFacts) -> str:
    if f.kind == "bank_opposite" and f.first_contact in ("none", "opposite_cushion"):
        return "not_punished_opposite"
    if f.kind == "bank_side" and f.first_contact == "own_locked_centre" and not f.own_open_before:
        return "not_punished_side_centre"
    return "legal"


_KINDS = {"direct": _direct, "bank_opposite": _bank_opposite, "bank_side": _bank_side}


def classify(f: StrokeFacts, rs: Ruleset, pairs: bool) -> Verdict:
    """The stroke's fouls, turn losses and game loss, each with its paragraph."""
    key = _KINDS[f.kind](f)
    if key == "invalid_direct":
        raise RuleViolation(
            rs.cite["legal"],
            "a direct stroke first touches a puck",
            "facts.first_contact",
            code="direct_touches_puck",
        )
    contact = [(key, rs.cite[key])] if key else []
    v = Verdict(rs.cite[_legal_rule(f)] if not key else "", contact, list(contact), [])
    if f.striker == "pocket":  # EKML §24(1)4
        v.fouls.append(("striker_pocket", rs.cite["striker_pocket"]))
    elif f.striker == "over":  # EKML §24(1)5
        v.fouls.append(("striker_over", rs.cite["striker_over"]))
    over_foul = "opponent_over_foul" in rs.cite  # not where LV's silence is left unfilled
    if f.opponent_over and over_foul and over_restored(f, rs, v):  # EKML §24(1)16; 17.1.16
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
                rs.name,
                f"{code} is not an offence under {rs.name}",
                "facts.offences",
                code="not_in_ruleset",
            )
        if outcome.consequence == "penalty":
            v.fouls.append((code, outcome.rule))
        elif outcome.consequence == "turn":
            v.turn_losses.append((code, outcome.rule))
        elif outcome.consequence == "noted":  # LV 13.2 with `fill_silences: none`
            v.noted.append((code, outcome.rule))
        else:
            v.game_loss = v.game_loss or outcome.rule


def _into_lock(f: StrokeFacts, rs: Ruleset, pairs: bool, v: Verdict) -> None:
    """Pairs: opponent pucks driven into a lock by a direct hit on them earn the penalty of
    EKML §28(3) (the rear zone, not restored) or §28(4) (the centre, restored).

    The same trigger as singles' §21(7) (`lock_hit`): §28(3) changes only what happens to the
    puck, so a legal stroke's puck stays without a penalty in pairs too (§21(8), decision 0185).
    In singles the hit is already a foul of the first contact (§21(7), §24(1)2)."""
    if not pairs or f.kind != "direct" or not lock_hit(f, rs, v):
        return
    if f.opponent_into_zone:
        v.fouls.append(("into_lock", rs.cite["pairs_zone_not_restored"]))
    if f.opponent_into_centre and "pairs_centre_restored" in rs.cite:
        v.fouls.append(("into_lock", rs.cite["pairs_centre_restored"]))


def lock_hit(f: StrokeFacts, rs: Ruleset, v: Verdict) -> bool:
    """Was an opponent's puck driven into a lock the forbidden way? A direct hit on it (EKML
    §21(7), §28(3): "otselöögiga"); NOVUS08 13.6 and LV 14.5: by any punishable stroke."""
    return bool(v.contact_fouls) if rs.restore_lock_on_any_foul else direct_hit_foul(f)


def _game_loss(f: StrokeFacts, rs: Ruleset, v: Verdict) -> None:
    locked_hit = f.first_contact in LOCKED
    if rs.locked_out_loses_on_end_foul:  # EKML §23(1)1, §23(1)4: a direct stroke at a locked puck
        by_locked = f.kind == "direct" and locked_hit
        out_loses = by_locked
    else:  # NOVUS08 16.1.1: any foul stroke, not a correct one that ends badly; 16.1.4
        by_locked = locked_hit or any(c == "own_zone_puck_first" for c in f.offences)
        out_loses = bool(v.contact_fouls) or by_locked
    if f.own_locked_out >= 2 and out_loses and "locked_out_2" in rs.cite:
        v.game_loss = v.game_loss or rs.cite["locked_out_2"]
    if f.locked_hit_moved >= 2 and by_locked and "locked_hit_moved_2" in rs.cite:
        v.game_loss = v.game_loss or rs.cite["locked_hit_moved_2"]
