"""The judge pad on the smallest phones, in every language: every button's label inside its
box, no word broken across lines (labels wrap at spaces or at the soft hyphens the messages
carry), the primary actions on the first screen at 360×640, and player names whole at 320 px.
Screenshots of the Estonian and Latvian pad at 360×640 go to test-artifacts/browser/."""

from __future__ import annotations

import pytest
from support.harness import Api, wait_for

from .harness import assert_no_horizontal_overflow, broken_words, screenshot
from .judge_helpers import new_table, open_judge, start_game, tap

LANGUAGES = ["et", "lv", "en"]
PRIMARY = ["pocketed", "pocketed_more", "no_pocket", "striker_pocket", "striker_over",
           "puck_over", "foul", "undo"]  # fmt: skip

# Every pad button's box and its label's: overflow when the text is wider or taller than it.
BOXES = """() => [...document.querySelectorAll('main [data-act]')].map((b) => {
  const r = b.getBoundingClientRect();
  return { act: b.dataset.act, text: b.textContent, top: r.top, bottom: r.bottom,
           left: r.left, right: r.right, scrollWidth: b.scrollWidth, clientWidth: b.clientWidth,
           scrollHeight: b.scrollHeight, clientHeight: b.clientHeight };
})"""


@pytest.fixture
def pad(head_api: Api, pwa_server) -> str:
    """A table on its recording pad (the opening shot assigned), players with long names."""
    t = new_table(head_api, ["Mari-Liis Tammsaare-Kõrvits"], ["Jānis Bērziņš"])
    version = wait_for(lambda: head_api.get(f"/api/matches/{t['match_id']}").json().get("version"))
    r = Api(pwa_server.base, t["token"]).command(
        t["match_id"], version, {"type": "AssignOpeningShot", "method": "listing"}
    )
    assert r.status_code == 201, r.text
    return t["path"]


def open_pad(page, path: str, lang: str) -> None:
    page.context.add_init_script(f"localStorage.setItem('tableside.language', '{lang}')")
    open_judge(page, path)
    page.wait_for_selector("[data-panel=pad]")
    page.wait_for_selector(".judge-bar .live-state[data-live=true]")
    page.wait_for_function(f"document.documentElement.lang === '{lang}'")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_pad_label_fits_and_the_primary_actions_are_on_the_first_screen(
    page, pad, lang
) -> None:
    open_pad(page, pad, lang)
    height = page.viewport_size["height"]
    boxes = page.evaluate(BOXES)
    assert {b["act"] for b in boxes} >= set(PRIMARY)
    for box in boxes:
        assert box["scrollWidth"] <= box["clientWidth"], box  # the label overflows sideways
        assert box["scrollHeight"] <= box["clientHeight"], box
    below = [b for b in boxes if b["act"] in PRIMARY and b["bottom"] > height]
    assert not below, below
    assert broken_words(page, "main [data-act], .judge-bar > *, .side .names") == []
    assert page.locator(".judge-bar").bounding_box()["height"] <= 56.5
    assert_no_horizontal_overflow(page)
    if lang in ("et", "lv"):
        screenshot(page, f"judge-pad-{lang}-360x640")


@pytest.mark.parametrize("viewport", [{"width": 320, "height": 568}], ids=["320"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_at_320_px_nothing_breaks_a_word_or_scrolls_sideways(page, pad, lang, viewport) -> None:
    open_pad(page, pad, lang)
    for box in page.evaluate(BOXES):
        assert box["scrollWidth"] <= box["clientWidth"], box
    assert broken_words(page, "main [data-act], .judge-bar > *, .side .names") == []
    assert_no_horizontal_overflow(page)
    page.goto("/")
    page.wait_for_selector(".spectator:not([data-loading]) .match-card")
    assert broken_words(page, ".match-card .card-name, .match-card .card-head") == []
    assert_no_horizontal_overflow(page)


# The rendered lines of an element's text: more than one when it wrapped.
LINES = """(selector) => {
  const range = document.createRange();
  range.selectNodeContents(document.querySelector(selector));
  return new Set([...range.getClientRects()].filter((r) => r.width > 0)
    .map((r) => Math.round(r.top))).size;
}"""


def _overlap(a: dict, b: dict) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


@pytest.mark.parametrize("lang", ["lv", "et"])
def test_offline_the_queued_banner_covers_neither_score_nor_board(page, context, pad, lang) -> None:
    """Issue 34: a Latvian judge at 360×640, offline: the queued banner hid the score and the
    board, and "Galds 5" wrapped in the bar."""
    open_pad(page, pad, lang)
    context.set_offline(True)
    try:
        page.locator("main [data-act=no_pocket]").click()
        page.wait_for_selector("[data-banner].tone-queued p")
        screenshot(page, f"judge-offline-banner-{lang}-360x640")
        banner = page.locator("[data-banner]").bounding_box()
        for what in ("[data-score]", "main korona-board", ".glance .sides", ".judge-bar"):
            assert not _overlap(banner, page.locator(what).bounding_box()), what
        assert page.evaluate(LINES, ".judge-bar .table-no") == 1
        badge = page.locator(".judge-bar sync-badge")  # and the badge says it whole, no "…"
        assert badge.evaluate(
            "(b) => b.scrollWidth <= b.clientWidth && b.scrollHeight <= b.clientHeight"
        )
        assert page.locator(".judge-bar").bounding_box()["height"] <= 56.5
    finally:
        context.set_offline(False)


# The longest names in the test data, as a pair each side (issue 43 point 5), and the longest
# a hall brings (issue 54 point 3: the bottom row ended at 648–672 px with these).
LONG_PAIRS = (["Mari-Liis Tammsaare-Kõrvits", "Jānis Bērziņš"], ["Peeter Saar", "Liis Kask"])
LONGEST_PAIRS = (
    ["Anna-Liisa Põldmäe-Kuusk", "Kristiina Lepik-Vahtramäe"],
    ["Jānis Bērziņš-Ozoliņš", "Krišjānis Kalniņš-Vītols"],
)
BOTTOM_ROW = ("time", "undo", "more")
INSIDE = """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
  return { top: r.top, bottom: r.bottom, height: innerHeight, scrollY: scrollY }; }"""


@pytest.mark.parametrize("names", [LONG_PAIRS, LONGEST_PAIRS], ids=["long", "longest"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pairs_pads_bottom_row_and_sign_the_protocol_are_inside_360x640(
    page, head_api: Api, pwa_server, lang, names
):
    """EKML §28: four names and the seat order above the pad; the pad's last row (Time, Undo,
    More) still ends inside the first screen, measured, in et, lv and en; at match over
    "Sign the protocol" is inside the viewport as the face draws it, unscrolled (it was at
    571–672 px, issue 54 point 3)."""
    (a1, _), (b1, _) = names
    size = "longest" if names is LONGEST_PAIRS else "long"
    t = new_table(head_api, *names, format="pairs")
    version = wait_for(lambda: head_api.get(f"/api/matches/{t['match_id']}").json().get("version"))
    opening = {"type": "AssignOpeningShot", "method": "lot", "lot_winner": "A", "opener": a1,
               "opponent_first": b1}  # fmt: skip
    r = Api(pwa_server.base, t["token"]).command(t["match_id"], version, opening)
    assert r.status_code == 201, r.text
    open_pad(page, t["path"], lang)
    screenshot(page, f"judge-pairs-pad-{size}-{lang}-360x640")
    assert page.locator("main [data-seats]").count() == 1  # the seat order is on the pad
    height = page.viewport_size["height"]
    boxes = {b["act"]: b for b in page.evaluate(BOXES)}
    for act in BOTTOM_ROW:
        assert boxes[act]["top"] >= 0 and boxes[act]["bottom"] <= height, (lang, boxes[act])
    for box in boxes.values():
        assert box["bottom"] - box["top"] >= 48, box  # still a finger's target
        assert box["scrollWidth"] <= box["clientWidth"], box
    assert broken_words(page, "main [data-act], .side .names") == []
    assert_no_horizontal_overflow(page)
    tap(page, "more", "red")  # EKML §22(1): the match is over at once
    page.locator(f"dialog[open] button[data-value='{a1}']").click()
    page.wait_for_selector("[data-panel=match-over] [data-act=sign]")
    page.wait_for_function("document.querySelector('[data-banner]').offsetHeight > 0")
    sign = page.evaluate(INSIDE, "[data-act=sign]")
    screenshot(page, f"judge-pairs-match-over-{size}-{lang}-360x640")
    assert sign["scrollY"] == 0 and sign["top"] >= 0 and sign["bottom"] <= height, (lang, sign)


VISIBLE = """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
  return { x: r.x, y: r.y, width: r.width, height: r.height }; }"""


@pytest.mark.parametrize("lang", ["et", "lv", "en"])
def test_at_match_over_the_banner_leaves_sign_the_protocol_in_view(page, head_api, lang) -> None:
    """Issue 43 point 5: at 360×640 the banner of a pairs match's end covered "Sign the
    protocol"; it speaks over the glance instead, and the sign-off's controls stay clear."""
    start_game(page, head_api, lang, pairs=True)
    player = page.evaluate("window.judge.state.shown.game.turn")
    tap(page, "more", "red")  # EKML §22(1): the match is over at once
    page.locator(f"dialog[open] button[data-value='{player}']").click()
    page.wait_for_selector("[data-panel=match-over]")
    page.wait_for_function("document.querySelector('[data-banner]').offsetHeight > 0")
    banner = page.evaluate(VISIBLE, "[data-banner]")
    for control in ("[data-act=sign]", "[data-act=undo]", "#judge-name"):
        assert not _overlap(banner, page.evaluate(VISIBLE, control)), control
    screenshot(page, f"judge-match-over-banner-{lang}-360x640")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pairs_pads_bottom_row_stays_inside_360x640_between_games(
    page, head_api: Api, pwa_server, lang
):
    """Game 2 of a pairs match with the longest names: the note that everyone moved one seat
    (EKML §28(1)) is on the game-over panel the judge reads first, the seat order above the
    pad; the bottom row still ends in view (the note above it pushed it to 665–674 px)."""
    (a1, _), (b1, _) = LONGEST_PAIRS
    t = new_table(head_api, *LONGEST_PAIRS, format="pairs", games=3)
    judge = Api(pwa_server.base, t["token"])
    version = wait_for(lambda: head_api.get(f"/api/matches/{t['match_id']}").json().get("version"))
    opening = {"type": "AssignOpeningShot", "method": "lot", "lot_winner": "A", "opener": a1,
               "opponent_first": b1}  # fmt: skip
    took = {"type": "ReportIncident", "code": "took_puck", "player": a1}  # game 1 lost (§23(1)7)
    for command in (opening, took):
        r = judge.command(t["match_id"], version, command)
        assert r.status_code == 201, r.text
        version = r.json()["last_version"]
    open_judge(page, t["path"])
    page.click(f"language-picker [data-lang={lang}]")
    page.wait_for_function(f"document.documentElement.lang === '{lang}'")
    note = page.locator("[data-panel=game-over] [data-seats-move]")  # said where it is read
    assert note.is_visible() and note.bounding_box()["y"] < page.viewport_size["height"]
    page.locator("main [data-act=next_game]").click()  # the judge has seen game 1's end
    page.locator("dialog[open] button.primary").click()
    page.wait_for_selector("[data-panel=pad]")
    page.wait_for_function("document.querySelectorAll('main [data-seats]').length === 2")
    screenshot(page, f"judge-pairs-pad-game-2-longest-{lang}-360x640")
    page.evaluate("window.scrollTo(0, 0)")  # as the face stands, not as a click scrolled it
    height = page.viewport_size["height"]
    boxes = {b["act"]: b for b in page.evaluate(BOXES)}
    for act in BOTTOM_ROW:
        assert boxes[act]["top"] >= 0 and boxes[act]["bottom"] <= height, (lang, boxes[act])
