"""Banners never cover a control the next tap needs (issue 43 point 5, decision 0147): on a
360×640 phone the penalty banner covered the pad's bottom row (Time, Undo, More) for ~3.5 s,
and at a match's end "Sign the protocol". Measured while the banner is up, singles and pairs,
in et, lv and en: every pad button (the bottom row first) and the sign-off's button lie
outside the banner's box, and a tap at each one's centre lands on it even with the banner
taking taps (elementFromPoint, the banner's pointer-events set to auto for the measure). The
banner's words fit its band whole and it carries the score."""

from __future__ import annotations

import pytest

from .harness import screenshot
from .judge_helpers import start_game, tap

LANGUAGES = ["et", "lv", "en"]
BOTTOM_ROW = ["main [data-act=time]", "main [data-act=undo]", "main [data-act=more]"]

# For each control: in view, clear of the banner's box, and what a tap at its centre hits.
CLEAR = """(controls) => {
  const banner = document.querySelector('[data-banner]');
  const b = banner.getBoundingClientRect();
  const was = banner.style.pointerEvents;
  banner.style.pointerEvents = 'auto';  // a banner that took taps: would it take this one?
  const seen = controls.map((sel) => {
    const el = document.querySelector(sel);
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    return { sel, inView: r.top >= 0 && r.bottom <= innerHeight,
             hit: Boolean(hit) && (hit === el || el.contains(hit)),
             overlap: !(b.right <= r.left || r.right <= b.left || b.bottom <= r.top
                        || r.bottom <= b.top) };
  });
  banner.style.pointerEvents = was;
  return { seen, shown: banner.offsetHeight > 0, top: b.top, bottom: b.bottom,
           whole: banner.scrollHeight <= banner.clientHeight + 1,
           score: Boolean(banner.querySelector('[data-banner-score]')) };
}"""
PAD = """() => [...document.querySelectorAll('main [data-panel=pad] [data-act]')]
  .map((b) => `main [data-act=${b.dataset.act}]`)"""
UP = """document.querySelector('[data-banner]').offsetHeight > 0
  && document.querySelector('[data-banner] [data-banner-score]')"""


def _assert_clear(page, controls: list[str], what: str) -> None:
    page.wait_for_function(UP)
    said = page.evaluate(CLEAR, controls)
    assert said["shown"] and said["score"], said
    assert said["whole"], (what, said)  # the banner's words fit its band, none cut off
    for control in said["seen"]:
        assert control["inView"], (what, control)
        assert not control["overlap"], (what, control, said["top"], said["bottom"])
        assert control["hit"], (what, control)


@pytest.mark.parametrize("pairs", [False, True], ids=["singles", "pairs"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_after_a_penalty_the_banner_leaves_every_pad_button_clear(page, head_api, lang, pairs):
    """EKML §24(1)4: pocketed with the striker in the pocket, a penalty puck and the turn
    lost; three lines of banner while the next stroke is tapped."""
    start_game(page, head_api, lang, pairs=pairs)
    tap(page, "striker_pocket")
    page.locator("main [data-act=pocketed]").nth(1).click()
    page.wait_for_selector("[data-banner].tone-bad p:not([data-banner-score])")
    controls = page.evaluate(PAD)
    assert set(BOTTOM_ROW) <= set(controls)
    _assert_clear(page, BOTTOM_ROW + [c for c in controls if c not in BOTTOM_ROW], "pad")
    screenshot(page, f"judge-banner-{'pairs' if pairs else 'singles'}-{lang}-360x640")


@pytest.mark.parametrize("pairs", [False, True], ids=["singles", "pairs"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_at_match_over_the_banner_leaves_sign_the_protocol_clear(page, head_api, lang, pairs):
    """EKML §22(1): a red card ends the match at once; its banner is up while the judge signs."""
    start_game(page, head_api, lang, pairs=pairs)
    player = page.evaluate("window.judge.state.shown.game.turn")
    tap(page, "more", "red")
    page.locator(f"dialog[open] button[data-value='{player}']").click()
    page.wait_for_selector("[data-panel=match-over]")
    _assert_clear(page, ["main [data-act=sign]", "main [data-act=undo]"], "match over")
