"""Which pucks go back after a stroke (EKML §20(14), §21(4)-(9), §28(3)-(4); NOVUS08 13; LV 14)."""

from __future__ import annotations

from tableside.disciplines.korona.batch import Batch
from tableside.disciplines.korona.commands import StrokeFacts
from tableside.disciplines.korona.stroke import Verdict, lock_hit, over_restored
from tableside.disciplines.korona.vocabulary import other


def restore(b: Batch, side: str, f: StrokeFacts, v: Verdict) -> None:
    """Own locked pucks knocked out, opponent locked pucks, pucks into a lock, over the cushion."""
    opp, foul = other(side), bool(v.contact_fouls)
    if f.own_locked_out and foul:  # EKML §21(4); NOVUS08 17.1.8
        b.restored(
            side, f.own_locked_out, "own_locked", "own_locked_restored", f.own_locked_out_pocketed
        )
    if f.opponent_locked_out:  # EKML §21(6) and its note
        b.left(opp, f.opponent_locked_out, "opponent_locked", "opponent_locked_stays")
    _into_lock(b, opp, f, v)
    if f.opponent_over and over_restored(f, b.rs, v):  # EKML §21(9)
        b.restored(opp, f.opponent_over, "over", "over_restored")
    elif f.opponent_over:
        b.to_centre(opp, f.opponent_over, f.over_first_touched == opp)
    if f.own_over:
        b.to_centre(side, f.own_over, f.over_first_touched == side)


def _into_lock(b: Batch, opp: str, f: StrokeFacts, v: Verdict) -> None:
    """A forbidden drive into a lock is put back (EKML §21(7)); in pairs the rear zone's
    stays (§28(3)) and the centre's goes back (§28(4)); a legal stroke's stays (§21(8))."""
    centre, zone = f.opponent_into_centre, f.opponent_into_zone
    if not centre + zone:
        return
    if not lock_hit(f, b.rs, v):  # EKML §21(8); NOVUS08 13.7; LV 14.5 a contrario
        b.left(opp, centre + zone, "into_lock", "into_lock_legal")
    elif b.pairs and f.kind == "direct":  # EKML §28(3)-(4); NOVUS08 17.1.20, 21.4; LV 18.2
        if centre:
            b.restored(opp, centre, "into_centre", "pairs_centre_restored")
        if zone:
            b.left(opp, zone, "into_zone", "pairs_zone_not_restored")
    else:  # EKML §21(7); NOVUS08 13.6; LV 14.5
        b.restored(opp, centre + zone, "into_lock", "into_lock_restored")
