"""Issue 44, point 6 (decision 0149): the competition names no discipline, not in an import
(`.importlinter`'s `no-discipline-by-name` shows those) and not in a string, a name or a
comment either, which no import shows: what a discipline says about a competition comes
through its sport (`competition/rules/sports.py`), made in its slice under `plugins/`. This
runs the issue's own grep over `backend/tableside/competition` and wants it empty."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NAMES = "korona|backgammon"  # the house's disciplines, in any letter case


def grep(folder: str) -> list[str]:
    """The files under `folder` naming a discipline: `grep -rliE 'korona|backgammon' folder`."""
    found = subprocess.run(
        ["grep", "-rliE", NAMES, folder], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert found.returncode in (0, 1), found.stderr  # 1: nothing found; 2: grep failed
    return sorted(found.stdout.split())


def test_the_competition_names_no_discipline() -> None:
    assert grep("backend/tableside/competition") == []


def test_the_grep_finds_a_discipline_where_one_is_named() -> None:
    """The same grep over the slices lists their files: an empty answer above is not a grep
    that finds nothing anywhere."""
    found = grep("backend/tableside/plugins")
    assert "backend/tableside/plugins/backgammon/competition_rules.py" in found
    assert "backend/tableside/plugins/korona/competition_rules.py" in found
