"""Browser-test helpers: where Chromium is, screenshots, layout and contrast checks."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "browser"
# Chromium's headless shell (Debian's chromium-headless-shell): the browser without its UI,
# as Playwright itself runs headless tests (decision 0116); the full chromium where the shell
# is missing; TABLESIDE_CHROMIUM for another.
SHELL, FULL = Path("/usr/bin/chromium-headless-shell"), Path("/usr/bin/chromium")
CHROMIUM = Path(
    os.environ.get("TABLESIDE_CHROMIUM", SHELL if SHELL.exists() or not FULL.exists() else FULL)
)

# What works for Debian's Chromium here (Playwright adds --headless itself): no sandbox in
# a container, no GPU, and nothing that phones home and slows a fresh profile's start.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # A page the test serves itself (open_blank) has no network address, so Chromium's
    # local-network checks would block its websocket to 127.0.0.1; real pages are unaffected.
    "--disable-features=LocalNetworkAccessChecks",
    # TABLESIDE_CHROMIUM_ARGS: more, space-separated (to measure a flag's cost on the suite)
    *os.environ.get("TABLESIDE_CHROMIUM_ARGS", "").split(),
]


def missing_chromium() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        return (
            f"Chromium not found at {CHROMIUM}: run `make browser` as root "
            "(apt-get install chromium-headless-shell), or set TABLESIDE_CHROMIUM"
        )
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed: `pip install -e '.[dev]'`"
    return None


def screenshot(page, name: str) -> Path:
    """Save a full-page PNG under test-artifacts/browser/ (kept after the run, ignored by git)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def assert_no_horizontal_overflow(page) -> None:
    """Nothing on the page is wider than the viewport (no sideways scrolling on a tablet)."""
    widths = page.evaluate(
        "() => ({ doc: document.documentElement.scrollWidth, body: document.body.scrollWidth,"
        " view: window.innerWidth })"
    )
    assert max(widths["doc"], widths["body"]) <= widths["view"], widths


# WCAG contrast of every visible text against the first opaque background behind it.
_CONTRAST = """() => {
  const rgb = (c) => c.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => v / 255)
    .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const background = (el) => {
    for (let node = el; node; node = node.parentElement || node.getRootNode().host) {
      const c = rgb(getComputedStyle(node).backgroundColor);
      if (c.length < 4 || c[3] === 1) return c;
    }
    return [255, 255, 255];
  };
  const texts = (root) => [...root.querySelectorAll('*')].flatMap((el) =>
    [...(el.shadowRoot ? texts(el.shadowRoot) : []),
     ...([...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())
         && el.getClientRects().length ? [el] : [])]);
  return texts(document).map((el) => {
    const [a, b] = [lum(rgb(getComputedStyle(el).color)), lum(background(el))];
    return { what: el.outerHTML.slice(0, 60),
             ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) };
  }).filter((t) => t.ratio < 4.5);
}"""


def assert_readable_contrast(page) -> None:
    """Every visible text reaches 4.5:1 against what is behind it (shadow roots included)."""
    low = page.evaluate(_CONTRAST)
    assert not low, low


BLANK = "/__blank__"
_BLANK_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/css/base.css"><script type="module" src="/js/shell.js"></script>
</head><body><header class="bar"><h1 data-i18n="face.judge">Table judge</h1>
<language-picker></language-picker></header><main class="page stack"></main></body></html>"""


def press(page, selector: str) -> None:
    """Put a finger (the mouse) down on the middle of `selector` and keep it there: the test
    redraws the face, then lets go with `page.mouse.up()` (a tap that spans a redraw)."""
    box = page.locator(selector).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()


def open_blank(page) -> None:
    """A same-origin page with the shared modules and no face: what the foundation tests use.

    The test serves it itself (never the product), so the faces, which now run their own
    outbox and live feeds on their pages, cannot interfere with a module under test.
    """
    page.route(
        f"**{BLANK}*", lambda route: route.fulfill(body=_BLANK_HTML, content_type="text/html")
    )
    page.goto(BLANK)
    page.wait_for_selector("html[data-ready=true]")


# --- Independent checks: axe-core, layout shift, words kept whole -----------------------------

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
# Every WCAG 2.x A/AA rule axe has, and its best practices (the build fails on any of them).
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


def missing_axe() -> str | None:
    """Why axe-core cannot be injected, or None (`make test` installs it with npm)."""
    if AXE.is_file():
        return None
    return f"axe-core not found at {AXE}: run `npm install --no-save axe-core` (make test does)"


NOBLE = ROOT / "node_modules" / "@noble" / "ed25519" / "index.js"


def missing_noble() -> str | None:
    """Why the faces' pure-JS Ed25519 cannot be served, or None (`make test` installs it)."""
    if NOBLE.is_file():
        return None
    return f"@noble/ed25519 not found at {NOBLE}: run `make node-tools` (make test does)"


def axe_violations(page) -> list[dict]:
    """Run axe-core in the page: [{id, impact, nodes: [target :: summary]}] for each violation."""
    page.add_script_tag(path=str(AXE))
    return page.evaluate(
        """async (tags) => {
          const result = await axe.run(document, { runOnly: { type: 'tag', values: tags },
                                                   resultTypes: ['violations'] });
          const where = (n) => `${n.target.join(' ')} :: ${n.failureSummary}`;
          return result.violations.map((v) => ({ id: v.id, impact: v.impact,
                                                 nodes: v.nodes.slice(0, 5).map(where) }));
        }""",
        AXE_TAGS,
    )


# Every layout shift from the first paint on (without user input): the sum, stricter than
# CLS's largest 5-second window. Installed before the page's own scripts (add_init_script).
CLS_OBSERVER = """
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (e.hadRecentInput) continue;
    window.__shifts.push({ value: e.value, at: Math.round(e.startTime),
      moved: (e.sources || []).map((s) => (s.node && s.node.outerHTML || '?').slice(0, 80)) });
  }
}).observe({ type: 'layout-shift', buffered: true });
"""


# A page has settled when no fetch is in flight and nothing has changed for SETTLED_MS: no DOM
# mutation, no layout shift, no fetch started or finished. Waiting for that (bounded) instead
# of a fixed sleep gives late arrivals (feeds, second reads) their chance on a loaded machine
# too, and ends as soon as the page is still.
SETTLE_OBSERVER = """
window.__settle = { pending: 0, last: performance.now() };
(() => {
  const s = window.__settle;
  const touch = () => { s.last = performance.now(); };
  const fetched = window.fetch;
  window.fetch = function (...args) {
    s.pending += 1; touch();
    return fetched.apply(this, args).finally(() => { s.pending -= 1; touch(); });
  };
  new MutationObserver(touch).observe(document,
    { subtree: true, childList: true, attributes: true, characterData: true });
  new PerformanceObserver(touch).observe({ type: 'layout-shift', buffered: true });
})();
"""
SETTLED_MS = 300


def wait_until_settled(page, quiet_ms: int = SETTLED_MS) -> None:
    """Wait (bounded by Playwright's timeout) until SETTLE_OBSERVER saw `quiet_ms` of quiet."""
    page.wait_for_function(
        "(quiet) => window.__settle.pending === 0"
        " && performance.now() - window.__settle.last >= quiet",
        arg=quiet_ms,
        polling=50,
    )


def layout_shifts(page) -> tuple[float, list[dict]]:
    """(total shift score, the shifts) since the page started loading."""
    shifts = page.evaluate("window.__shifts")
    return sum(s["value"] for s in shifts), shifts


# Each word of the given elements' text (split at spaces, hyphens and soft hyphens: the only
# places a line may break) must sit on one line; returns the words broken across lines.
BROKEN_WORDS = """(selector) => {
  const broken = [];
  for (const el of document.querySelectorAll(selector)) {
    if (!el.getClientRects().length) continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent;
      const re = /[^\\s\\-\\u00ad\\u2010\\/]+/g;
      const top = (at) => {  // the line of one character
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + 1);
        const box = [...range.getClientRects()].filter((r) => r.width > 0).at(-1);
        return box ? Math.round(box.top) : null;
      };
      for (let m = re.exec(text); m; m = re.exec(text)) {
        const [first, last] = [top(m.index), top(m.index + m[0].length - 1)];
        if (first !== null && last !== null && first !== last) {
          broken.push(`${m[0]} in ${el.outerHTML.slice(0, 60)}`);
        }
      }
    }
  }
  return broken;
}"""


def broken_words(page, selector: str) -> list[str]:
    """Words of `selector`'s text that the layout broke across two lines."""
    return page.evaluate(BROKEN_WORDS, selector)
