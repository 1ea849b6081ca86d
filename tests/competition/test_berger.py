"""Round robin by the published Berger tables (FIDE Handbook C.05 Annex 1), EKML §31(1)1."""

import pytest
from tableside.competition.rules.berger import berger_rounds, round_robin_pairings

# FIDE C.05 Annex 1, "Berger Tables for Round-Robin Tournaments", typed in from the published
# text; an odd field uses the next even table and the highest number is the bye.
PUBLISHED = {
    4: """1-4, 2-3 / 4-3, 1-2 / 2-4, 3-1""",
    6: """1-6, 2-5, 3-4 / 6-4, 5-3, 1-2 / 2-6, 3-1, 4-5 / 6-5, 1-4, 2-3 / 3-6, 4-2, 5-1""",
    8: """1-8, 2-7, 3-6, 4-5 / 8-5, 6-4, 7-3, 1-2 / 2-8, 3-1, 4-7, 5-6 / 8-6, 7-5, 1-4, 2-3 /
          3-8, 4-2, 5-1, 6-7 / 8-7, 1-6, 2-5, 3-4 / 4-8, 5-3, 6-2, 7-1""",
    10: """1-10, 2-9, 3-8, 4-7, 5-6 / 10-6, 7-5, 8-4, 9-3, 1-2 / 2-10, 3-1, 4-9, 5-8, 6-7 /
           10-7, 8-6, 9-5, 1-4, 2-3 / 3-10, 4-2, 5-1, 6-9, 7-8 / 10-8, 9-7, 1-6, 2-5, 3-4 /
           4-10, 5-3, 6-2, 7-1, 8-9 / 10-9, 1-8, 2-7, 3-6, 4-5 / 5-10, 6-4, 7-3, 8-2, 9-1""",
    12: """1-12, 2-11, 3-10, 4-9, 5-8, 6-7 / 12-7, 8-6, 9-5, 10-4, 11-3, 1-2 /
           2-12, 3-1, 4-11, 5-10, 6-9, 7-8 / 12-8, 9-7, 10-6, 11-5, 1-4, 2-3 /
           3-12, 4-2, 5-1, 6-11, 7-10, 8-9 / 12-9, 10-8, 11-7, 1-6, 2-5, 3-4 /
           4-12, 5-3, 6-2, 7-1, 8-11, 9-10 / 12-10, 11-9, 1-8, 2-7, 3-6, 4-5 /
           5-12, 6-4, 7-3, 8-2, 9-1, 10-11 / 12-11, 1-10, 2-9, 3-8, 4-7, 5-6 /
           6-12, 7-5, 8-4, 9-3, 10-2, 11-1""",
    14: """1-14, 2-13, 3-12, 4-11, 5-10, 6-9, 7-8 / 14-8, 9-7, 10-6, 11-5, 12-4, 13-3, 1-2 /
           2-14, 3-1, 4-13, 5-12, 6-11, 7-10, 8-9 / 14-9, 10-8, 11-7, 12-6, 13-5, 1-4, 2-3 /
           3-14, 4-2, 5-1, 6-13, 7-12, 8-11, 9-10 / 14-10, 11-9, 12-8, 13-7, 1-6, 2-5, 3-4 /
           4-14, 5-3, 6-2, 7-1, 8-13, 9-12, 10-11 / 14-11, 12-10, 13-9, 1-8, 2-7, 3-6, 4-5 /
           5-14, 6-4, 7-3, 8-2, 9-1, 10-13, 11-12 / 14-12, 13-11, 1-10, 2-9, 3-8, 4-7, 5-6 /
           6-14, 7-5, 8-4, 9-3, 10-2, 11-1, 12-13 / 14-13, 1-12, 2-11, 3-10, 4-9, 5-8, 6-7 /
           7-14, 8-6, 9-5, 10-4, 11-3, 12-2, 13-1""",
    16: """1-16, 2-15, 3-14, 4-13, 5-12, 6-11, 7-10, 8-9 /
           16-9, 10-8, 11-7, 12-6, 13-5, 14-4, 15-3, 1-2 /
           2-16, 3-1, 4-15, 5-14, 6-13, 7-12, 8-11, 9-10 /
           16-10, 11-9, 12-8, 13-7, 14-6, 15-5, 1-4, 2-3 /
           3-16, 4-2, 5-1, 6-15, 7-14, 8-13, 9-12, 10-11 /
           16-11, 12-10, 13-9, 14-8, 15-7, 1-6, 2-5, 3-4 /
           4-16, 5-3, 6-2, 7-1, 8-15, 9-14, 10-13, 11-12 /
           16-12, 13-11, 14-10, 15-9, 1-8, 2-7, 3-6, 4-5 /
           5-16, 6-4, 7-3, 8-2, 9-1, 10-15, 11-14, 12-13 /
           16-13, 14-12, 15-11, 1-10, 2-9, 3-8, 4-7, 5-6 /
           6-16, 7-5, 8-4, 9-3, 10-2, 11-1, 12-15, 13-14 /
           16-14, 15-13, 1-12, 2-11, 3-10, 4-9, 5-8, 6-7 /
           7-16, 8-6, 9-5, 10-4, 11-3, 12-2, 13-1, 14-15 /
           16-15, 1-14, 2-13, 3-12, 4-11, 5-10, 6-9, 7-8 /
           8-16, 9-7, 10-6, 11-5, 12-4, 13-3, 14-2, 15-1""",
}


def parse(table: str) -> tuple:
    """'1-4, 2-3 / 4-3, 1-2' → ((1, 4), (2, 3)), ((4, 3), (1, 2))."""
    rounds = []
    for rnd in table.split("/"):
        pairs = [p.strip() for p in rnd.replace("\n", " ").split(",") if p.strip()]
        rounds.append(tuple(tuple(int(x) for x in p.split("-")) for p in pairs))
    return tuple(rounds)


@pytest.mark.parametrize("players", range(4, 17), ids=lambda n: f"ekml_31_1_1_{n}_players")
def test_berger_rounds_equal_the_published_tables(players):
    published = parse(PUBLISHED[players + players % 2])
    assert berger_rounds(players) == published


def test_every_pair_meets_once_and_the_odd_field_has_a_bye_each_round():
    order = tuple(f"e{i}" for i in range(1, 8))
    rounds = round_robin_pairings(order)
    met = [frozenset(p) for rnd in rounds for p in rnd if p[1] is not None]
    byes = [p[0] for rnd in rounds for p in rnd if p[1] is None]
    assert len(met) == len(set(met)) == 21
    assert sorted(byes) == sorted(order)


def test_first_listed_opens_round_one_by_hand():
    # 4 players: round 1 of the table is 1-4, 2-3 — number 1 and number 2 open (EKML §31(1)1).
    assert round_robin_pairings(("a", "b", "c", "d"))[0] == (("a", "d"), ("b", "c"))
