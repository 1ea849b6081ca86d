"""The backgammon engine stays pure: it imports nothing of `tableside` outside itself, no I/O."""

from __future__ import annotations

import ast
from pathlib import Path

import tableside.disciplines.backgammon as pkg

PACKAGE = "tableside.disciplines.backgammon"
FORBIDDEN = {
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
RANDOM_ALLOWED = {"simulate.py"}  # takes a random.Random in


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def _files() -> list[Path]:
    return sorted(Path(pkg.__file__).parent.glob("*.py"))


def test_imports_nothing_of_tableside_outside_itself() -> None:
    for path in _files():
        outside = {
            n for n in _imports(path) if n.startswith("tableside") and not n.startswith(PACKAGE)
        }
        assert not outside, (path.name, outside)


def test_no_io_clock_or_randomness() -> None:
    for path in _files():
        tops = {n.split(".")[0] for n in _imports(path)}
        assert not tops & FORBIDDEN, (path.name, tops & FORBIDDEN)
        if path.name not in RANDOM_ALLOWED:
            assert "random" not in tops, path.name


def test_functions_stay_small() -> None:
    for path in _files():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef):
                length = node.end_lineno - node.lineno + 1
                assert length <= 32, (path.name, node.name, length)
