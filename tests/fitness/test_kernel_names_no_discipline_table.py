"""Issue 55, point 3: the kernel reads no discipline's table. The import contracts keep the
kernel (`match/`, `competition/`, `live/`, `web/`) from importing a discipline, but SQL is a
string: `live/live.py` read `match_live` and `table_overview`, the hall and
`match/tables_now.py` read `table_overview`, the player's matches `match_live`. What a
discipline's read models hold now comes through the port (`Tables`, `Feed.projected`,
`Finder`), in its slice's own SQL. This greps the kernel for every table a discipline's slice
writes and wants nothing found."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "backend" / "tableside"
KERNEL = ("match", "competition", "live", "web")
WRITES = re.compile(r"\b(?:INSERT INTO|UPDATE|DELETE FROM|TRUNCATE)\s+([a-z_]+)", re.IGNORECASE)


def discipline_tables() -> set[str]:
    """Every table only a discipline's slice (`plugins/<name>/`) writes, by its SQL (not
    the read models' common tracking, which the kernel's runner writes too)."""
    plugins = PACKAGE / "plugins"
    sources = [p for p in PACKAGE.rglob("*.py") if plugins not in p.parents]
    return {t for t in _written(plugins.rglob("*.py")) - _written(sources) if _created(t)}


def _written(paths) -> set[str]:
    return {name.lower() for path in paths for name in WRITES.findall(path.read_text())}


def _created(name: str) -> bool:
    """Whether the schema creates `name` as a table (not a word that follows UPDATE)."""
    return any(
        re.search(rf"CREATE TABLE {name}\b", p.read_text()) for p in (ROOT / "schema").glob("*.sql")
    )


def kernel_naming(tables: set[str]) -> list[str]:
    """`path: table` for each kernel file naming one of `tables`."""
    words = re.compile(rf"\b({'|'.join(sorted(tables))})\b")
    return sorted(
        f"{path.relative_to(ROOT)}: {name}"
        for folder in KERNEL
        for path in (PACKAGE / folder).rglob("*.py")
        for name in set(words.findall(path.read_text()))
    )


def test_the_kernel_names_no_discipline_table() -> None:
    assert kernel_naming(discipline_tables()) == []


def test_the_tables_a_discipline_writes_are_found() -> None:
    """Korona's four read models' tables and backgammon's: an empty answer above is not a
    search that found no table at all."""
    assert {"match_live", "table_overview", "match_protocol", "match_history"} <= (
        discipline_tables()
    )
    assert "backgammon_matches" in discipline_tables()
    assert "stored_events" not in discipline_tables()  # the kernel's own log
