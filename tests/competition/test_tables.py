"""Calling matches to tables: not the same table twice in a row when avoidable."""

from tableside.competition.rules.tables import assign_tables


def test_lowest_free_table_when_no_history():
    calls = assign_tables([("m1", ("a", "b")), ("m2", ("c", "d"))], [3, 1, 2], {})
    assert calls == (("m1", 1), ("m2", 2))


def test_avoids_each_players_last_table():
    calls = assign_tables([("m1", ("a", "b")), ("m2", ("c", "d"))], [1, 2], {"a": 1, "d": 2})
    assert calls == (("m1", 2), ("m2", 1))


def test_swaps_when_a_greedy_choice_forced_a_repeat():
    # m1 takes table 1 greedily (a sat at 2), leaving m2 (c sat at 2) only table 2; a swap
    # would give m1 table 2 — a repeat for a — so the swap must not happen.
    calls = assign_tables([("m1", ("a", "b")), ("m2", ("c", "d"))], [1, 2], {"a": 2, "c": 2})
    assert dict(calls)["m1"] == 1


def test_repeat_only_when_unavoidable():
    calls = assign_tables([("m1", ("a", "b"))], [4], {"a": 4})
    assert calls == (("m1", 4),)


def test_more_matches_than_tables_waits():
    calls = assign_tables([("m1", ("a", "b")), ("m2", ("c", "d"))], [5], {})
    assert calls == (("m1", 5),)
