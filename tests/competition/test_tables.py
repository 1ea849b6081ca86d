"""Calling matches to tables: the lowest free tables, in calling order (decision 0100)."""

from tableside.competition.rules.tables import assign_tables


def test_lowest_free_table_when_no_history():
    calls = assign_tables([("m1", ("a", "b")), ("m2", ("c", "d"))], [3, 1, 2])
    assert calls == (("m1", 1), ("m2", 2))


def test_call_next_takes_the_lowest_free_table_in_round_two():
    # Issue 34: round 2 skipped the free table 1 (its player had sat there) and used 2 and 3.
    calls = assign_tables([("m1", ("a", "b")), ("m2", ("c", "d"))], [1, 2, 3])
    assert calls == (("m1", 1), ("m2", 2))


def test_more_matches_than_tables_waits():
    calls = assign_tables([("m1", ("a", "b")), ("m2", ("c", "d"))], [5])
    assert calls == (("m1", 5),)
