"""The season's ranking list by its documented method (decision 0170), on a fixed example
worked out by hand here: two events of one season, twelve players P01…P12.

The points table: BASE (25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1; later 1) × the
level (championship 3, ranking 2, open 1); a shared place scores its first place's points.
The rating: Weng & Lin (2011) Algorithm 4 for two sides of one player, written out from the
paper's formulas (not the library) in `support/ranking_by_hand.py`."""

from __future__ import annotations

import math

import pytest
from support.ranking_by_hand import BETA, SIGMA, TAU, hand_ratings
from tableside.federation.ranking.rules.board_order import check_board_order
from tableside.federation.ranking.rules.points import place_points
from tableside.federation.ranking.rules.results import EventResult, Placing, RatedMatch
from tableside.federation.ranking.rules.season import season_list


def _p(n: int) -> str:
    return f"P{n:02d}"


def _placings(*rows: tuple[int, tuple[int, ...]]) -> tuple[Placing, ...]:
    return tuple(Placing(place, (_p(n),)) for place, players in rows for n in players)


def _m(match_id: str, a: int, b: int, winner: str) -> RatedMatch:
    return RatedMatch(match_id, (_p(a),), (_p(b),), winner)


# Event 1, a championship, all twelve: 1. P01, 2. P02, 3. P03, 4. P04, 5.–8. P05–P08, 9.–12.
# P09–P12. Its matches: round 1 between fresh players, then P01 v P02.
SPRING = EventResult(
    event_id="e1",
    name="Spring championship",
    held_on="2026-03-14",
    level="championship",
    placings=_placings(
        (1, (1,)), (2, (2,)), (3, (3,)), (4, (4,)), (5, (5, 6, 7, 8)), (9, (9, 10, 11, 12))
    ),
    matches=(
        _m("e1-m1", 1, 12, "a"),
        _m("e1-m2", 2, 11, "a"),
        _m("e1-m3", 3, 10, "a"),
        _m("e1-m4", 4, 9, "a"),
        _m("e1-m5", 5, 8, "draw"),
        _m("e1-m6", 6, 7, "b"),
        _m("e1-m7", 1, 2, "a"),
    ),
)
# Event 2, a ranking event, eight of them: 1. P02, 2. P01, 3. P03, 4. P12, 5.–8. P04–P07.
MAY = EventResult(
    event_id="e2",
    name="May grand prix",
    held_on="2026-05-09",
    level="ranking",
    placings=_placings((1, (2,)), (2, (1,)), (3, (3,)), (4, (12,)), (5, (4, 5, 6, 7))),
    matches=(_m("e2-m1", 2, 1, "a"), _m("e2-m2", 12, 3, "a")),
)

# The points by hand: event 1 × 3 → 75, 60, 48, 39, 33 (5.–8.), 21 (9.–12.);
# event 2 × 2 → 50, 40, 32, 26, 22 (5.–8.).
HAND_POINTS = {
    "P01": 75 + 40,  # 115
    "P02": 60 + 50,  # 110
    "P03": 48 + 32,  # 80
    "P04": 39 + 22,  # 61
    "P05": 33 + 22,  # 55
    "P06": 33 + 22,  # 55
    "P07": 33 + 22,  # 55
    "P12": 21 + 26,  # 47
    "P08": 33,
    "P09": 21,
    "P10": 21,
    "P11": 21,
}
# place, player: equal points share a place, listed by id
HAND_POINTS_LIST = [
    (1, "P01"),
    (2, "P02"),
    (3, "P03"),
    (4, "P04"),
    (5, "P05"),
    (5, "P06"),
    (5, "P07"),
    (8, "P12"),
    (9, "P08"),
    (10, "P09"),
    (10, "P10"),
    (10, "P11"),
]


def _hand_ratings(events: list[EventResult]) -> dict[str, tuple[float, float]]:
    return hand_ratings((m.a[0], m.b[0], m.winner) for e in events for m in e.matches)


def test_the_points_table_is_placing_times_level() -> None:
    assert [place_points(p, "championship") for p in (1, 2, 3, 4, 5, 9, 16, 17, 40)] == [
        75,
        60,
        48,
        39,
        33,
        21,
        3,
        3,
        3,
    ]
    assert [place_points(p, "open") for p in (1, 16, 17)] == [25, 1, 1]


def test_the_list_recomputed_from_two_events_equals_the_hand_computation() -> None:
    editions = season_list([MAY, SPRING])  # handed out of order: the season orders them
    assert [(e.number, e.published_on, e.event_id) for e in editions] == [
        (1, "2026-03-14", "e1"),
        (2, "2026-05-09", "e2"),
    ]
    latest = editions[-1]
    assert [(row.place, row.player) for row in latest.points] == HAND_POINTS_LIST
    assert {row.player: row.points for row in latest.points} == HAND_POINTS
    assert {row.player: row.events for row in latest.points}["P01"] == 2
    hand = _hand_ratings([SPRING, MAY])
    for row in latest.rating:
        mu, sigma = hand[row.player]
        assert row.mu == pytest.approx(mu, abs=1e-9), row.player
        assert row.sigma == pytest.approx(sigma, abs=1e-9), row.player
        assert row.ordinal == pytest.approx(mu - 3 * sigma, abs=1e-9)
    ordinals = [row.ordinal for row in latest.rating]
    assert ordinals == sorted(ordinals, reverse=True)


def test_a_fresh_win_moves_both_by_the_same_amount() -> None:
    """The smallest hand case: two new players, one win. σ² = (25/3)² + (1/12)², c =
    √(2σ² + 2β²), p = ½: μ = 25 ± σ²/(2c)."""
    first = season_list([SPRING])[0]
    sigma2 = SIGMA**2 + TAU**2
    c = math.sqrt(2 * sigma2 + 2 * BETA**2)
    rows = {row.player: row for row in first.rating}
    assert rows["P04"].mu == pytest.approx(25 + sigma2 / (2 * c), abs=1e-9)
    assert rows["P09"].mu == pytest.approx(25 - sigma2 / (2 * c), abs=1e-9)
    assert rows["P05"].mu == pytest.approx(25, abs=1e-9)  # a draw of equals moves no μ
    assert rows["P05"].sigma == pytest.approx(rows["P04"].sigma, abs=1e-9)


def test_each_change_names_the_place_and_the_matches_that_moved_it() -> None:
    second = season_list([SPRING, MAY])[1]
    changes = {c.player: c for c in second.changes}
    assert set(changes) == {"P01", "P02", "P03", "P04", "P05", "P06", "P07", "P12"}
    p12 = changes["P12"]
    assert (p12.place, p12.points_before, p12.points_after, p12.matches) == (4, 21, 47, ("e2-m2",))
    assert p12.ordinal_after > p12.ordinal_before
    assert changes["P04"].matches == ()  # placed, not rated: its rating did not move
    assert changes["P04"].ordinal_before == changes["P04"].ordinal_after


def test_pairs_score_each_player_the_pairs_points() -> None:
    pairs = EventResult(
        "e3",
        "Pairs cup",
        "2026-06-01",
        "open",
        (Placing(1, ("P01", "P02")), Placing(2, ("P03", "P04"))),
        (RatedMatch("e3-m1", ("P01", "P02"), ("P03", "P04"), "a"),),
    )
    only = season_list([pairs])[0]
    assert {row.player: row.points for row in only.points} == {
        "P01": 25,
        "P02": 25,
        "P03": 20,
        "P04": 20,
    }
    rows = {row.player: row for row in only.rating}
    assert rows["P01"].mu == rows["P02"].mu > 25 > rows["P03"].mu == rows["P04"].mu


def test_ekml_29_2_board_order_checked_against_the_list() -> None:
    places = {row.player: row.place for row in season_list([SPRING, MAY])[-1].points}
    assert check_board_order(["P01", "P03", "P12"], places) == ()
    (finding,) = check_board_order(["P03", "P01", "P12"], places)
    assert (
        finding.rule,
        finding.board,
        finding.player,
        finding.later_board,
        finding.later_player,
    ) == ("EKML §29(2)", 1, "P03", 2, "P01")
    (unlisted,) = check_board_order(["P99", "P12"], places)
    assert (unlisted.place, unlisted.later_place) == (0, 8)
