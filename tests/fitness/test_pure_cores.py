"""The pure cores stay pure (ARCHITECTURE, STYLE "fitness tests guard the floor plan"): each
imports nothing of the house outside itself, no I/O, clock or randomness (a simulator takes a
`random.Random` in), and its functions stay small. One test per core and property, so a new
discipline joins by one line in CORES."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

FORBIDDEN = frozenset(
    {
        "os",
        "io",
        "socket",
        "time",
        "datetime",
        "asyncpg",
        "psycopg",
        "litestar",
        "subprocess",
        "pathlib",
        "eventsourcing",
        "uuid",
        "threading",
        "asyncio",
    }
)
# core → (files that may import `random`, longest function in lines)
CORES = {
    "tableside.disciplines.korona": ({"simulate.py", "simulate_facts.py", "simulate_cli.py"}, 30),
    "tableside.disciplines.backgammon": ({"simulate.py"}, 32),
    "tableside.federation.ranking.rules": (set(), 30),
}


def _files(core: str) -> list[Path]:
    return sorted(Path(importlib.import_module(core).__file__).parent.glob("*.py"))


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


# The ground every core may stand on: the house's one rule error (decision 0077) and a
# person's name as stored (decision 0140).
SHARED = frozenset({"tableside.rule_error", "tableside.names"})


@pytest.mark.parametrize("module", sorted(SHARED))
def test_the_ground_is_pure_too(module: str) -> None:
    path = Path(importlib.import_module(module).__file__)
    tops = {n.split(".")[0] for n in _imports(path)}
    assert not tops & FORBIDDEN, (path.name, tops & FORBIDDEN)
    assert {n for n in _imports(path) if n.startswith("tableside.")} <= SHARED


@pytest.mark.parametrize("core", list(CORES))
def test_imports_nothing_of_the_house_outside_itself(core: str) -> None:
    for path in _files(core):
        outside = {
            n
            for n in _imports(path)
            if n.split(".")[0] == "tableside" and not n.startswith(core) and n not in SHARED
        }
        assert not outside, (path.name, outside)


@pytest.mark.parametrize("core", list(CORES))
def test_no_io_clock_or_randomness(core: str) -> None:
    random_allowed, _ = CORES[core]
    for path in _files(core):
        tops = {n.split(".")[0] for n in _imports(path)}
        assert not tops & FORBIDDEN, (path.name, tops & FORBIDDEN)
        if path.name not in random_allowed:
            assert "random" not in tops, path.name


@pytest.mark.parametrize("core", list(CORES))
def test_functions_stay_small(core: str) -> None:
    _, longest = CORES[core]
    for path in _files(core):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef):
                length = node.end_lineno - node.lineno + 1
                assert length <= longest, (path.name, node.name, length)
