"""Every refusal the federation's judge makes (`federation/judge.py`, handed to its one raise
site in `routes.py`) and every code of a push's body (`offers.py`) is worded in the four face
languages with the same figures (decision 0130; the fitness scan sees their raise sites as
codes handed on, so their literals are read here)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from tableside.settings import PWA_DIR

FEDERATION = Path(__file__).resolve().parents[2] / "backend" / "tableside" / "federation"
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def codes() -> set[str]:
    found = set()
    for name in ("judge.py", "offers.py", "routes.py"):
        found |= set(re.findall(r'"(federation_[a-z_]+)"', (FEDERATION / name).read_text()))
    return found - {"federation_admin", "federation_fork", "federation_key"}  # not refusals


def test_the_scan_finds_the_judges_codes() -> None:
    assert {"federation_fork_head", "federation_gap", "federation_not_a_batch"} <= codes()


@pytest.mark.parametrize("lang", ["en", "et", "lv", "is"])
def test_every_federation_refusal_has_words_with_the_same_figures(lang: str) -> None:
    said = json.loads((PWA_DIR / "i18n" / f"codes.{lang}.json").read_text("utf-8"))
    english = json.loads((PWA_DIR / "i18n" / "codes.en.json").read_text("utf-8"))
    for code in sorted(codes()):
        key = f"code.{code}"
        assert key in said, (lang, code)
        assert set(PLACEHOLDER.findall(said[key])) == set(PLACEHOLDER.findall(english[key]))
        if lang != "en":
            assert said[key] != english[key], (lang, code)
