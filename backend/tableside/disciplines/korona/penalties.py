"""Penalty pucks: one per stroke, placement side (EKML §24(3)), debts (§24(4)-(8), §28(5)-(6))."""

from __future__ import annotations

from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona.batch import Batch
from tableside.disciplines.korona.commands import ZoneSurvey
from tableside.disciplines.korona.state import full_set
from tableside.disciplines.korona.vocabulary import Spot


def _pick(nearer: str, own: list[int], total: list[int], stroke_side: str, tiebreak: bool) -> int:
    if nearer != "equal":
        return 0 if nearer == "left" else 1
    if own[0] != own[1]:
        return 0 if own[0] < own[1] else 1
    if total[0] != total[1]:
        return 0 if total[0] < total[1] else 1
    if tiebreak and stroke_side:
        return 0 if stroke_side == "left" else 1
    return 0  # the originals leave this tie to the judge; left is our fixed choice


def choose_spots(zone: ZoneSurvey, count: int, tiebreak: bool) -> list[Spot]:
    """Where `count` penalty pucks go, in order (EKML §24(3); NOVUS08 17.3, LV 15.2 tie-break)."""
    spots: list[Spot] = []
    centre_free, nearer = zone.centre_free, zone.nearer
    own, total = [zone.own_left, zone.own_right], [zone.total_left, zone.total_right]
    for _ in range(count):
        if centre_free:
            spots.append("centre_line")
            centre_free, nearer = False, "equal"
            continue
        i = _pick(nearer, own, total, zone.stroke_side, tiebreak)
        own[i] += 1
        total[i] += 1
        spots.append("left" if i == 0 else "right")
        nearer = "right" if i == 0 else "left"  # the next nearest free spot is on the other side
    return spots


def room(b: Batch, side: str, player: str) -> int:
    """How many penalty pucks can go down now: never above the start count (EKML §24(4), §24(7)).

    In pairs only once the punished player's opposite start row has moved (EKML §28(6)).
    """
    if b.pairs and player not in b.state.game.rows_moved:
        return 0
    p = b.pucks(side)
    return max(0, full_set(b.state) - p.on_board)


def award(b: Batch, side: str, player: str, zone: ZoneSurvey, rule: str) -> None:
    """One penalty puck for `side`, to `player`'s opposite zone, placed now or owed as a debt.

    In pairs `player` is the side's player with (or next to have) the turn (EKML §28(5))."""
    if b.pairs:
        rule = f"{rule}, {b.cite('pairs_recipient')}"
    b.emit(ev.PenaltyAwarded(side=side, player=player, rule=rule))
    if room(b, side, player) > 0:
        spot = choose_spots(zone, 1, b.rs.stroke_side_tiebreak)[0]
        b.emit(ev.PenaltyPuckPlaced(side=side, player=player, spot=spot, rule=b.cite("placement")))
    else:
        key = "pairs_debt" if b.pairs and player not in b.state.game.rows_moved else "debt_full"
        b.emit(ev.DebtRecorded(side=side, player=player, rule=b.cite(key)))


def place_debts(b: Batch, side: str, player: str, zone: ZoneSurvey, key: str) -> None:
    """Put owed penalty pucks down together, as many as fit; the rest stays debt (§24(7)).

    In pairs the debt is the pair's and goes down opposite `player`, the one who has (or next
    gets) the turn when it is placed, whichever partner it was recorded for: §28(5) puts every
    penalty puck opposite "the player with the right to shoot", §28(6) keeps it a debt only
    "initially" (esialgselt), under §24(4)-(6), and asks the row of the player punished now."""
    debt = b.pucks(side).debt
    count = min(debt, room(b, side, player))
    if count <= 0:
        return
    rule = b.cite(key) + ("" if count == debt else f", {b.cite('debt_cap')}")
    if b.pairs:
        rule = f"{rule}, {b.cite('pairs_recipient')}"
    for spot in choose_spots(zone, count, b.rs.stroke_side_tiebreak):
        b.emit(ev.PenaltyPuckPlaced(side=side, player=player, spot=spot, from_debt=True, rule=rule))
