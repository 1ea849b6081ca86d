"""Every face's shell in Chromium: loads its modules, fits 360×640 and 800×1280, big targets."""

from __future__ import annotations

import pytest

from .harness import assert_no_horizontal_overflow, assert_readable_contrast, screenshot

FACES = {
    "/": "spectator",
    "/judge": "judge",
    "/audit/match/demo": "audit",
    "/screen": "screen",
    "/admin": "admin",
    "/backgammon": "backgammon",
    "/watch?match=00000000-0000-4000-8000-000000000000": "watch",
}
SIZES = {
    "phone": {"width": 360, "height": 640},
    "phone-landscape": {"width": 640, "height": 360},
    "tablet": {"width": 800, "height": 1280},
    "tablet-landscape": {"width": 1280, "height": 800},
}

# Sizes of every visible control and text-bearing element, as the browser lays them out.
_MEASURE = """() => {
  const visible = (el) => el.getClientRects().length > 0;
  const controls = [...document.querySelectorAll('button, a, input, select')].filter(visible)
    .map((el) => ({ what: el.outerHTML.slice(0, 60), w: el.getBoundingClientRect().width,
                    h: el.getBoundingClientRect().height }));
  const texts = [...document.querySelectorAll('body *')].filter(visible)
    .filter((el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
    .map((el) => ({ what: el.outerHTML.slice(0, 60),
                    px: parseFloat(getComputedStyle(el).fontSize) }));
  return { controls, texts };
}"""


@pytest.mark.parametrize("viewport", SIZES.values(), ids=SIZES.keys())
@pytest.mark.parametrize("path", FACES)
def test_shell_fits_and_is_made_for_fingers(page, path: str, viewport: dict) -> None:
    page.goto(path)
    page.wait_for_selector("html[data-ready=true]")
    face = FACES[path]
    assert page.locator("body").get_attribute("data-face") == face
    # The face, or a placeholder that says plainly it is not built yet.
    assert page.locator("#face > *:visible").first.is_visible()
    assert_no_horizontal_overflow(page)
    screenshot(page, f"shell-{face}-{viewport['width']}x{viewport['height']}")
    sizes = page.evaluate(_MEASURE)
    small = [c for c in sizes["controls"] if c["w"] < 48 or c["h"] < 48]
    assert not small, small
    tiny = [t for t in sizes["texts"] if t["px"] < 18]
    assert not tiny, tiny
    assert_readable_contrast(page)
