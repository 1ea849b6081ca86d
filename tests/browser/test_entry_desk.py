"""The TD's entry desk (issue 34): an entry list checked whole first (every bad line named by
its number, name and why; nothing registered until the TD registers the good ones; what was
registered leaves the box), 32 mixed pairs typed as two names a line at a person's pace and
registered well inside the guide's ten minutes, a typo renamed without a withdrawal, and a
late pair admitted by the head judge once the window has closed."""

from __future__ import annotations

import json
import re
import time
from datetime import datetime, timedelta

import pytest
from tableside.settings import PWA_DIR

from .harness import screenshot
from .test_admin_console import log_in

pytestmark = pytest.mark.long  # started first under `make test` (tests/conftest.py)

MEN = [
    "Jaan Tamm",
    "Mari Mets; 1990; F",
    "Peeter Puu",
    "Toomas Org",
    "Kati Kask; 1985; F",
    "Ants Oja",
]


@pytest.fixture
def viewport() -> dict[str, int]:
    return {"width": 1280, "height": 900}


def new_competition(
    page, name: str, discipline: str = "mens_singles", fmt: str = "round_robin"
) -> None:
    page.fill("#f-name", name)
    page.select_option("#f-format", fmt)
    page.select_option("#f-discipline", discipline)
    page.click("[data-create]")
    page.wait_for_selector("[data-competition-name]")


def test_an_entry_list_is_checked_whole_and_nothing_is_half_done(page) -> None:
    log_in(page, "head", "head-secret-1")
    new_competition(page, "Men's list")
    page.fill("#f-entry-list", "\n".join(MEN))
    page.click("[data-entry-list] button[type=submit]")
    page.wait_for_selector("[data-bad-line]")
    bad = page.eval_on_selector_all(
        "[data-bad-line]", "(l) => l.map((x) => [x.dataset.badLine, x.textContent])"
    )
    assert [line for line, _ in bad] == ["2", "5"]
    assert "Mari Mets" in bad[0][1] and "men's event" in bad[0][1] and "EKML §8(3)" in bad[0][1]
    assert page.locator("[data-entrant]").count() == 0  # nothing registered yet
    page.click("[data-action=register-good]")
    page.wait_for_function("document.querySelectorAll('[data-entrant]').length === 4")
    page.wait_for_function(
        "(want) => document.querySelector('#f-entry-list').value === want",
        arg="\n".join([MEN[1], MEN[4]]),
    )  # the registered lines left the box; the two bad ones stay to mend
    screenshot(page, "entry-desk-bad-lines")


@pytest.mark.parametrize("lang", ["lv", "et"])
def test_a_bad_line_is_worded_by_its_code_in_the_consoles_language(page, lang: str) -> None:
    """Issue 43: the desk words a refusal by the code the server names (decision 0130), not by
    its English: a men's event with a woman reads the desk's own words, a person named twice
    too, each in the console's language with its paragraph, and no English refusal."""
    admin = json.loads((PWA_DIR / "i18n" / f"admin.{lang}.json").read_text("utf-8"))
    english = json.loads((PWA_DIR / "i18n" / "codes.en.json").read_text("utf-8"))
    log_in(page, "head", "head-secret-1")
    page.click(f"language-picker [data-lang={lang}]")
    new_competition(page, f"Bad lines {lang}")
    page.fill("#f-entry-list", "Jaan Tamm\nMari Mets; 1990; F")
    page.click("[data-entry-list] button[type=submit]")
    page.wait_for_selector("[data-bad-line='2']")
    said = page.inner_text("[data-bad-line='2']")
    assert admin["admin.refusal.mens_event"] in said and "EKML §8(3)" in said, said
    assert english["code.mens_event"] not in said


def test_thirty_two_mixed_pairs_at_a_persons_pace_then_a_typo_renamed(page) -> None:
    log_in(page, "head", "head-secret-1")
    new_competition(page, "Village mixed pairs", "mixed_pairs", "double_elimination")
    started = time.monotonic()
    page.click("#f-entry-list")
    lines = [f"Jaan Tamm{i} | Mari Tamm{i}" for i in range(1, 33)]
    lines[6] = "Jaan Tam7 | Mari Tamm7"  # a typo
    # The first eight lines (the typo among them) key by key at a quick typist's pace: the box
    # takes typed names and Enter between lines. The other 24 go in as one input, as a paste
    # would: the pace of a person typing every pair is measured in the last test below.
    page.keyboard.type("\n".join(lines[:8]) + "\n", delay=25)
    page.keyboard.insert_text("\n".join(lines[8:]))
    page.click("[data-entry-list] button[type=submit]")
    page.wait_for_function(
        "document.querySelectorAll('[data-entrant]').length === 32", timeout=120_000
    )
    assert time.monotonic() - started < 600
    page.wait_for_function("document.querySelector('#f-entry-list').value === ''")  # left the box
    row = page.locator("[data-entrant]", has_text="Jaan Tam7 / Mari Tamm7")
    row.locator("[data-action=rename]").click()
    page.fill("[data-rename]", "Jaan Tamm7 | Mari Tamm7")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-entrant]:has-text('Jaan Tamm7 / Mari Tamm7')")
    assert page.locator("[data-status=withdrawn]").count() == 0
    # Withdraw asks first and says what follows; Cancel leaves the pair in.
    fixed = page.locator("[data-entrant]", has_text="Jaan Tamm7 / Mari Tamm7")
    fixed.locator("[data-action=withdraw]").click()
    said = page.inner_text("[data-confirm-dialog=withdraw]")
    assert "cannot be undone" in said and "forfeit" in said and "EKML §32(3)" in said
    page.click("[data-cancel=withdraw]")
    assert page.locator("[data-confirm-dialog]").count() == 0
    assert page.locator("[data-status=withdrawn]").count() == 0
    # One pair has not come: "check in all present" leaves it out.
    missing = page.locator("[data-entrant]", has_text="Jaan Tamm32 / Mari Tamm32")
    missing.locator("[data-present]").uncheck()
    page.wait_for_selector("[data-check-in-all]:has-text('(31)')")
    page.click("[data-check-in-all]")
    page.wait_for_function(
        "document.querySelectorAll('[data-status=checked_in]').length === 31", timeout=120_000
    )
    assert missing.get_attribute("data-status") != "checked_in"
    screenshot(page, "entry-desk-32-pairs")


def test_a_list_refused_whole_names_each_line_and_prints_no_null(page) -> None:
    """Issue 45, point 5: a list with no good line printed "null" under its refusals (the
    absent "register the good ones" button written out as text)."""
    log_in(page, "head", "head-secret-1")
    new_competition(page, "Men's list refused")
    page.fill("#f-entry-list", "\n".join([MEN[1], MEN[4]]))
    page.click("[data-entry-list] button[type=submit]")
    page.wait_for_function("document.querySelectorAll('[data-bad-line]').length === 2")
    said = page.inner_text("[data-entry-problems]")
    assert "null" not in said and "undefined" not in said, said
    assert page.locator("[data-action=register-good]").count() == 0
    assert page.locator("[data-entrant]").count() == 0


def test_a_late_pair_is_admitted_by_the_head_judge_before_the_draw(page) -> None:
    log_in(page, "head", "head-secret-1")
    page.fill("#f-name", "Late pairs")
    page.select_option("#f-format", "double_elimination")
    page.select_option("#f-discipline", "mixed_pairs")
    now = datetime.now()
    page.fill("#f-reg-opens", (now - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M"))
    page.fill("#f-reg-closes", (now - timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M"))
    page.fill("#f-draw-at", (now + timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M"))
    page.click("[data-create]")
    page.wait_for_selector("[data-competition-name]")
    page.fill("#f-entry-list", "Jaan Tamm | Mari Tamm")
    page.click("[data-entry-list] button[type=submit]")
    page.wait_for_selector("[data-bad-line='1']")
    assert "registration window" in page.inner_text("[data-bad-line='1']")
    page.check("#f-admit-late")
    page.click("[data-entry-list] button[type=submit]")
    page.wait_for_selector("[data-entrant]:has-text('Jaan Tamm / Mari Tamm')")
    page.fill("#f-entry-list", "Ott Kask | Eva Kask")
    page.click("[data-entry-list] button[type=submit]")  # still admitted late: the box says so
    page.wait_for_function("document.querySelectorAll('[data-entrant]').length === 2")
    page.click("[data-check-in-all]")
    page.wait_for_function("document.querySelectorAll('[data-status=checked_in]').length === 2")
    # The guide's draw time is 5 minutes off: the head judge draws now, and the button says so.
    page.click("[data-tab=rounds]")
    draw = page.locator("[data-action=draw]")
    assert "now" in draw.inner_text()
    draw.click()
    page.wait_for_selector("[data-bracket] [data-slot]")
    assert page.locator("[data-action=draw]").is_disabled()  # made: not offered again


def test_the_box_empties_when_the_entry_is_stored_not_when_it_is_read_back(page) -> None:
    """The registered line leaves the box on the server's answer, not after the console has
    read the competition back (held here): a TD who sees the pair listed by the hall's feed
    and types the next one types into an empty box. The box used to empty only after the
    read-back, so on a loaded machine the next pair was typed on the end of the last one
    (CI: the 32 pairs test waited 30 s for a pair that came in as one bad line)."""
    log_in(page, "head", "head-secret-1")
    new_competition(page, "Read back", "mixed_pairs", "double_elimination")
    held: list = []
    read_back = re.compile(r"/api/competitions/[^/?]+\?min_position=")
    page.route(read_back, lambda route: held.append(route))
    page.fill("#f-entry-list", "Jaan Tamm | Mari Tamm")
    page.click("[data-entry-list] button[type=submit]")
    page.wait_for_selector("[data-entrant]")  # drawn by the feed while the read-back is held
    page.wait_for_function("document.querySelector('#f-entry-list').value === ''", timeout=10_000)
    assert held, "the console read the competition back without the route seeing it"
    for route in held:
        route.continue_()
    page.unroute(read_back)


PERSON_KEY_S = 0.18  # a TD typing names at ~65 words a minute (5–6 keys a second)


def test_a_person_registers_32_pairs_inside_the_guides_ten_minutes(page) -> None:
    """Issue 34's done-when at a person's pace, cheaply: three pairs typed key by key at
    PERSON_KEY_S a key, each registered on its own (typing, Register, the row in the table:
    the TD's whole loop), give the time a pair takes; the other 29 come as one pasted list
    (the whole-list path: checked, registered, the box emptied). 32 × the measured pair stays
    inside the guide's 10 minutes (registration 17:00–17:10), with the list's own time on top."""
    log_in(page, "head", "head-secret-1")
    new_competition(page, "Pace pairs", "mixed_pairs", "double_elimination")
    started = time.monotonic()
    for i in range(1, 4):
        page.click("#f-entry-list")
        page.keyboard.type(f"Jaan Tamm{i} | Mari Tamm{i}", delay=PERSON_KEY_S * 1000)
        page.click("[data-entry-list] button[type=submit]")
        page.wait_for_function(f"document.querySelectorAll('[data-entrant]').length === {i}")
        page.wait_for_function("document.querySelector('#f-entry-list').value === ''")
    per_pair = (time.monotonic() - started) / 3
    pasted = time.monotonic()
    page.fill("#f-entry-list", "\n".join(f"Jaan Tamm{i} | Mari Tamm{i}" for i in range(4, 33)))
    page.click("[data-entry-list] button[type=submit]")
    page.wait_for_function(
        "document.querySelectorAll('[data-entrant]').length === 32", timeout=120_000
    )
    whole_list = time.monotonic() - pasted
    typed = f"{per_pair:.1f} s a pair typed at {PERSON_KEY_S} s a key"
    print(f"entry desk: {typed}; 29 pasted in {whole_list:.1f} s; 32 typed ≈ {32 * per_pair:.0f} s")
    assert 32 * per_pair + whole_list < 600
