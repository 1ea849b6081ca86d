"""rules/ stays pure: no I/O, clock, randomness or web/database imports (ARCHITECTURE)."""

from __future__ import annotations

import ast
from pathlib import Path

import tableside.rules

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
RANDOM_ALLOWED = {"simulate.py", "simulate_facts.py", "simulate_cli.py"}  # take a random.Random in


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


def test_rules_modules_import_no_io() -> None:
    folder = Path(tableside.rules.__file__).parent
    for path in folder.glob("*.py"):
        found = _imports(path)
        assert not found & FORBIDDEN, (path.name, found & FORBIDDEN)
        if path.name not in RANDOM_ALLOWED:
            assert "random" not in found, path.name


def test_rules_modules_stay_small() -> None:
    folder = Path(tableside.rules.__file__).parent
    for path in folder.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                length = node.end_lineno - node.lineno + 1
                assert length <= 30, (path.name, node.name, length)  # ~25 before formatting
