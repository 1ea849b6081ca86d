"""Issue 12, faces: the backgammon recorder on bad wifi (the korona judge face's outbox).

Offline, entries queue in the one outbox (IndexedDB), are listed as waiting in words, and the
face goes on from the predicted board as far as the outcome is certain; they survive a reload
without wifi and reach the server exactly once each when it returns. When another device
recorded meanwhile, the face says what it recorded and what waits here, and nothing is
dropped until the recorder chooses.
"""

from __future__ import annotations

from collections import Counter

import pytest

from .bg_helpers import BgMatch, open_recorder, play, tap
from .harness import axe_violations, screenshot

PENDING = "(n) => document.getElementById('face').dataset.pending === String(n)"


def _to_bs_roll(page, head_api) -> BgMatch:
    """A game started on the face; A has played the opening 3-1; B is to roll."""
    match = BgMatch(head_api, length=5)
    open_recorder(page, match)
    tap(page, "[data-action=start-game]")
    page.click("[data-dice-for=A] [data-die='3']")
    tap(page, "[data-dice-for=B] [data-die='1']")
    play(page, 8, 5, 6, 5)
    page.wait_for_selector("[data-dice-for=B]")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    return match


def _conflict(page, context, head_api) -> BgMatch:
    """B's roll 6-5 queued offline while the TD's desk records B's double: back online, the
    outbox meets a 409 and holds."""
    match = _to_bs_roll(page, head_api)
    context.set_offline(True)
    page.wait_for_selector("sync-badge[data-state=offline]")
    page.click("[data-dice-for=B] [data-die='6']")
    page.click("[data-dice-for=B] [data-die='5']")
    page.wait_for_function(PENDING, arg=1)
    match.version = match.state()["version"]
    match.post({"type": "Double", "side": "B"})
    context.set_offline(False)
    page.wait_for_selector("[data-conflict]", timeout=20_000)
    return match


def _types(match: BgMatch) -> list[str]:
    return [e["type"] for e in match.events()]


def test_entries_made_offline_survive_a_reload_and_are_stored_once(page, context, head_api):
    match = _to_bs_roll(page, head_api)
    before = Counter(_types(match))
    context.set_offline(True)
    page.wait_for_selector("sync-badge[data-state=offline]")
    page.click("[data-action=double]")  # B doubles, A takes, B rolls 6-5: all predicted
    page.wait_for_function(PENDING, arg=1)
    page.click("[data-action=take]")
    page.wait_for_function(PENDING, arg=2)
    page.click("[data-dice-for=B] [data-die='6']")
    page.click("[data-dice-for=B] [data-die='5']")
    page.wait_for_function(PENDING, arg=3)
    waiting = page.locator("[data-pending-entry]").all_inner_texts()
    assert waiting == ["Bjarni doubles", "Ása takes", "Bjarni rolls 6-5"]
    assert page.locator("[data-wait=plays]").is_visible()  # the legal plays need the server
    assert page.locator("bg-board [data-dice]").get_attribute("data-dice") == "6-5"
    assert page.locator("sync-badge").get_attribute("data-count") == "3"
    screenshot(page, "bg-recorder-360-offline-3-queued")

    page.reload()  # the tablet restarts without wifi: the worker has the face, the queue stays
    page.wait_for_function(PENDING, arg=3)
    assert page.locator("[data-pending-entry]").all_inner_texts() == waiting
    assert _types(match).count("BgDiceRolled") == before["BgDiceRolled"]  # nothing sent yet

    context.set_offline(False)
    page.wait_for_function(PENDING, arg=0, timeout=20_000)
    page.wait_for_selector("sync-badge[data-state=synced]")
    page.wait_for_selector("bg-board button[data-own]")  # the legal plays are back
    after = Counter(_types(match))
    for kind in ("BgDoubleOffered", "BgDoubleTaken", "BgDiceRolled"):
        assert after[kind] - before[kind] == 1, kind
    events = match.events()
    assert events[-1]["event"]["dice"] == [6, 5] and events[-1]["event"]["side"] == "B"
    assert match.state()["state"]["game"]["cube"] == 2


@pytest.mark.usefixtures("axe_ready")
def test_a_conflict_is_shown_in_words_and_nothing_is_dropped_unsaid(page, context, head_api):
    match = _conflict(page, context, head_api)
    assert page.locator("[data-theirs]").all_inner_texts() == ["Bjarni doubles to 2"]
    assert page.locator("[data-mine]").all_inner_texts() == ["Bjarni rolls 6-5"]
    assert page.locator("sync-badge").get_attribute("data-state") == "blocked"
    assert _types(match)[-1] == "BgDoubleOffered"  # the queue waits: mine is not sent
    screenshot(page, "bg-recorder-360-conflict")
    assert axe_violations(page) == []
    page.click("[data-action=discard-mine]")
    page.wait_for_function(PENDING, arg=0)
    page.wait_for_selector("[data-action=take]")  # the face shows the other device's double
    page.wait_for_function(
        "() => document.querySelector('[data-banner]').textContent.includes('1')"
    )
    assert _types(match)[-1] == "BgDoubleOffered"


def test_a_queued_entry_the_engine_refuses_is_said_with_its_paragraph(page, context, head_api):
    match = _conflict(page, context, head_api)
    page.click("[data-action=send-mine]")  # mine after theirs: the engine refuses a roll now
    page.wait_for_function(PENDING, arg=0)
    banner = page.locator("[data-banner=problem]")
    banner.wait_for()
    assert banner.inner_text().startswith("Not recorded: Bjarni rolls 6-5")
    assert "KSI" in banner.inner_text()
    assert _types(match)[-1] == "BgDoubleOffered"
