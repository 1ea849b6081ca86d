"""Contracts the service relies on: stable tags, JSON round trips, and a pure package."""

import ast
import operator
import pathlib
from functools import reduce

import msgspec
import pytest
import tableside.competition.rules as competition
from tableside.competition.rules.commands import COMMAND_TYPES
from tableside.competition.rules.events import EVENT_TYPES
from tableside.competition.rules.evolve import fold
from tableside.competition.rules.guide import Guide

from .helpers import played_out

FORBIDDEN = {"os", "socket", "time", "asyncpg", "psycopg", "litestar", "subprocess", "random"}
ALLOWED_RANDOM = {"swiss.py", "teams.py"}  # seeded draws: random.Random(recorded seed) only


def test_tags_are_unique_and_equal_the_type_names():
    for types in (EVENT_TYPES, COMMAND_TYPES):
        tags = [t.__struct_config__.tag for t in types]
        assert tags == [t.__name__ for t in types] and len(set(tags)) == len(tags)


def test_every_event_of_a_real_run_round_trips_through_json():
    run = played_out(Guide("DE", format="double_elimination", games_per_match=1), 12, 3)
    decoder = msgspec.json.Decoder(list[reduce(operator.or_, EVENT_TYPES)])
    restored = decoder.decode(msgspec.json.encode(run.events))
    assert restored == run.events
    assert fold(restored) == run.state


@pytest.mark.parametrize(
    "path",
    sorted(pathlib.Path(competition.__file__).parent.glob("*.py")),
    ids=lambda p: p.name,
)
def test_rules_are_pure_no_io_imports(path):
    tree = ast.parse(path.read_text())
    names = {
        a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
    }
    names |= {
        n.module.split(".")[0]
        for n in ast.walk(tree)
        if isinstance(n, ast.ImportFrom) and n.module and n.level == 0
    }
    bad = names & FORBIDDEN
    if path.name in ALLOWED_RANDOM:
        bad -= {"random"}
    assert not bad
