"""The recorder's legal steps (`steps.move_orders`, served by GET …/plays) against the legal-play
generator on the GNU Backgammon corpus (rules of play, KSI 1.2.1): every order ends in a legal
position, every legal position is reached by some order, and each order is single-die moves
the engine records as a legal play."""

from __future__ import annotations

import json

from tableside.disciplines.backgammon.board import apply_play, legal_plays
from tableside.disciplines.backgammon.steps import move_orders

from .gnubg_oracle import CORPUS


def _rows() -> list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, int]]]:
    return [
        (tuple(r["me"]), tuple(r["opp"]), tuple(r["dice"])) for r in json.loads(CORPUS.read_text())
    ]


def test_ksi_1_2_1_orders_reach_exactly_the_legal_positions() -> None:
    rows = _rows()
    assert len(rows) >= 400
    for me, opp, dice in rows:
        legal = set(legal_plays(me, opp, dice))
        orders = move_orders(me, opp, dice)
        if (me, opp) in legal:  # no checker can move: the empty play, no orders
            assert orders == (), (me, opp, dice)
            continue
        reached = {apply_play(me, opp, order) for order in orders}
        assert reached == legal, (me, opp, dice)


def test_ksi_1_2_1_every_order_uses_the_dice_one_at_a_time_and_all_as_many() -> None:
    for me, opp, dice in _rows():
        orders = move_orders(me, opp, dice)
        if orders:  # as many dice as the legal plays use (a shorter order only where bearing
            # off with a larger die leaves the same position, which the engine counts as legal)
            best = {len(play) for play in legal_plays(me, opp, dice).values()}
            assert max(len(order) for order in orders) in best, (me, opp, dice)
        for order in orders:
            assert 1 <= len(order) <= (4 if dice[0] == dice[1] else 2)
            assert all(1 <= frm <= 25 and 0 <= to < frm for frm, to in order)
            exact = [frm - to for frm, to in order if to]  # bearing off may use a larger die
            assert all(step in dice for step in exact), (order, dice)
