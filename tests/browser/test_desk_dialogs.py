"""Withdraw and "Finish and publish" ask first and say what will follow (issue 34, point 6),
in each language of the console: the dialog's words are the catalogue's (forfeits, annulment
below half-way and no place in a bracket; final and uncorrectable), Cancel comes first, and
Cancel leaves everything as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.competition_play import Comp, player
from support.harness import Api

from .admin_helpers import admin_login

ROOT = Path(__file__).resolve().parents[2]
WORDS = {
    lang: json.loads((ROOT / "pwa" / "i18n" / f"admin.{lang}.json").read_text())
    for lang in ("et", "lv", "en")
}


@pytest.fixture(scope="module")
def ready(head_api: Api) -> Comp:
    """A round robin of three, every match recorded, not yet published."""
    comp = Comp.create(head_api, {"name": "Kolmikturniir", "format": "round_robin"})
    comp.enter([(f"k{i}", [player(f"Mängija {i}")]) for i in range(1, 4)])
    comp.do({"type": "MakeDraw", "seed": 3})
    for r in comp.settled()["rounds"]:
        for p in r["pairings"]:
            result = {"a_games": 3, "b_games": 1, "drawn_games": 0}
            comp.do({"type": "RecordResult", "match_id": p["match_id"], "result": result})
    return comp


def dialog(page, name: str) -> tuple[str, list[str]]:
    box = page.locator(f"[data-confirm-dialog={name}]")
    box.wait_for()
    buttons = box.locator("button").evaluate_all(
        "(b) => b.map((x) => x.dataset.cancel ? 'cancel' : 'act')"
    )
    return box.inner_text(), buttons


@pytest.mark.parametrize("lang", ["et", "lv", "en"])
def test_publish_and_withdraw_say_what_follows(page, ready: Comp, lang: str) -> None:
    words = WORDS[lang]
    admin_login(page, "head", "head-secret-1")
    page.goto(f"/admin#c={ready.id}")
    page.wait_for_selector("[data-competition-name]")
    page.click(f"language-picker [data-lang={lang}]")
    page.wait_for_function(f"document.documentElement.lang === '{lang}'")

    page.click("[data-tab=standings]")
    page.click("[data-action=finish]")
    said, buttons = dialog(page, "finish")
    assert words["admin.confirm.finish_title"] in said
    assert words["admin.confirm.finish_explain"] in said and "EKML §12(2)6" in said
    assert buttons == ["cancel", "act"]
    page.click("[data-cancel=finish]")
    assert not ready.settled()["finished"]

    page.click("[data-tab=entrants]")
    page.locator("[data-entrant=k2] [data-action=withdraw]").click()
    said, buttons = dialog(page, "withdraw")
    assert words["admin.confirm.withdraw_title"].replace("{name}", "Mängija 2") in said
    explain = words["admin.confirm.withdraw_explain"]
    assert explain in said and "EKML §32(3)" in said and "EKML §9(4)" in said
    assert buttons == ["cancel", "act"]
    # Issue 45: Estonian read "Loobu" (cancel) beside "Loobumine" (withdraw), nearly one
    # word on an irreversible act: the two buttons share no word's stem in any language.
    texts = page.locator("[data-confirm-dialog=withdraw] button").all_inner_texts()
    stems = [{word[:4].lower() for word in text.split()} for text in texts]
    assert len(texts) == 2 and not stems[0] & stems[1], texts
    page.click("[data-cancel=withdraw]")
    assert page.locator("[data-confirm-dialog]").count() == 0
    assert all(e["status"] != "withdrawn" for e in ready.settled()["entrants"])
