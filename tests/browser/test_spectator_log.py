"""The match log as a reader counts it (issue 14 point 7): entries numbered 1, 2, 3… without
the gaps of stored versions, and an entry a correction took back struck through, with both
ends saying which entry, and no stored version on the line — in et, lv and en."""

from __future__ import annotations

import json
import re

import pytest
from support.harness import Api

from .harness import ROOT

WORDS = {
    lang: json.loads((ROOT / "pwa" / "i18n" / f"spectator.{lang}.json").read_text())
    for lang in ("en", "et", "lv")
}


@pytest.fixture(scope="module")
def corrected(head_api: Api) -> str:
    """A match with a penalty stroke (several events in one entry) taken back by an undo."""
    r = head_api.create(41, ["Mari Tamm"], ["Jaan Kask"], games=1)
    match_id, version = r.json()["match_id"], r.json()["last_version"]

    def post(command: dict) -> None:
        nonlocal version
        reply = head_api.command(match_id, version, command)
        assert reply.status_code == 201, reply.text
        version = reply.json()["last_version"]

    post({"type": "AssignOpeningShot", "method": "lot", "lot_winner": "A"})
    post({"type": "RecordStroke", "player": "Mari Tamm", "facts": {"own_pocketed": 1}})
    post({"type": "RecordStroke", "player": "Mari Tamm", "facts": {"striker": "pocket"}})
    post({"type": "UndoLastEntry", "reason": "entered_by_mistake"})
    post({"type": "RecordStroke", "player": "Mari Tamm", "facts": {}})
    return match_id


@pytest.mark.parametrize("lang", ["et", "lv", "en"])
def test_entries_are_numbered_without_gaps_and_an_undone_one_is_struck(page, corrected, lang):
    page.goto(f"/?match={corrected}")
    page.click(f"language-picker [data-lang={lang}]")
    page.wait_for_function(f"document.documentElement.lang === '{lang}'")
    page.wait_for_selector(".log li[data-undone]")
    numbers = page.eval_on_selector_all(".log li", "lis => lis.map(li => li.value)")
    assert sorted(numbers) == list(range(1, len(numbers) + 1))  # 1…n, no gaps
    versions = page.eval_on_selector_all(".log li", "lis => lis.map(li => +li.dataset.version)")
    assert numbers != versions  # the penalty entry stored several events: versions skip
    undone = page.locator(".log li[data-undone]")
    assert undone.count() == 1 and undone.locator("s").count() == 1
    n = undone.evaluate("li => li.value")
    taken = WORDS[lang]["spec.undone"].split("{n}")[0]
    assert taken in undone.inner_text()
    fix = page.locator(".log li[data-type=CorrectionRecorded]")
    assert WORDS[lang]["spec.corrects"].replace("{n}", str(n)) in fix.inner_text()
    # one numbering on the line (issue 34: "… 19 … atsauc ierakstu 8" mixed a stored version in)
    assert re.findall(r"\d+", fix.inner_text()) == [str(n)], fix.inner_text()
