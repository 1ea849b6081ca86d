"""`Entries.matching`: what the protocol picks out of a match's entries, kept per list so a
longer list answers from its predecessor — and always equal to a walk of the whole list."""

from __future__ import annotations

import random

from tableside.plugins.korona.folding import Entries


class A:
    pass


class B:
    pass


def _walk(entries: Entries, types: frozenset) -> tuple:
    return tuple((i, v, e) for i, (v, e) in enumerate(entries) if type(e) in types)


def test_matching_equals_a_walk_at_every_length_and_after_a_rebuilt_list():
    rng, wanted, other = random.Random(5), frozenset({A}), frozenset({B})
    entries, lists = Entries(), []
    for version in range(1, 400):
        entries = entries.plus((version, rng.choice([A(), B(), B(), B()])))
        lists.append(entries)
        if version % 37 == 0:  # asked now and then, as the projection does per batch
            assert entries.matching(wanted) == _walk(entries, wanted)
    for entries in rng.sample(lists, 40):  # older lists, asked out of order
        assert entries.matching(wanted) == _walk(entries, wanted)
        assert entries.matching(other) == _walk(entries, other)  # another question
        assert entries.matching(wanted) == _walk(entries, wanted)
    rebuilt = Entries.of(lists[-1].as_tuple()[:250])  # a correction rebuilds the list
    assert rebuilt.matching(wanted) == _walk(rebuilt, wanted)
    assert Entries().matching(wanted) == ()
