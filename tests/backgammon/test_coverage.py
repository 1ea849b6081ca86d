"""Every paragraph the engine cites has a test named after it (a gap fails here)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import tableside.disciplines.backgammon as pkg

PACKAGE = __name__.rpartition(".")[0]


def cited() -> set[str]:
    """Every `KSI x.y.z` in the engine's source."""
    found: set[str] = set()
    for path in Path(pkg.__file__).parent.glob("*.py"):
        found |= set(re.findall(r"KSI (\d+(?:\.\d+)*)", path.read_text()))
    return found | {f"4.3.2.{case}" for case in range(1, 9)}  # cited as f"KSI 4.3.2.{case}"


def _test_names() -> list[str]:
    names: list[str] = []
    for info in pkgutil.iter_modules(importlib.import_module(PACKAGE).__path__):
        module = importlib.import_module(f"{PACKAGE}.{info.name}")
        names += [
            n
            for n, _ in inspect.getmembers(module, inspect.isfunction)
            if n.startswith("test_ksi_")
        ]
    return names


def test_every_cited_paragraph_has_a_test() -> None:
    names = _test_names()
    missing = [
        p
        for p in sorted(cited())
        if not any(n.startswith(f"test_ksi_{p.replace('.', '_')}_") for n in names)
    ]
    assert not missing, missing


def test_the_engine_cites_the_paragraphs_the_issue_names() -> None:
    must = {"4.1.1", "4.1.4.1", "4.1.5.1", "4.2.1", "4.2.3.1", "4.2.3.2", "4.2.3.3", "4.2.4"}
    must |= {"4.4.1", "4.4.2", "4.4.3", "4.4.4", "4.4.5", "4.4.6", "4.5", "4.6", "4.7", "2.2.4"}
    must |= {"2.2.2", "2.3.1.1", "3.5.5", "3.5.6", "4.1.5.2", "4.3.2", "4.3.2.8", "4.3.3"}
    assert must <= cited(), must - cited()
