"""Browser-test helpers: Chromium's whereabouts, screenshots, layout checks, a served app."""

from __future__ import annotations

import os
import subprocess
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

from service import harness as service_harness

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "browser"
CHROMIUM = Path(os.environ.get("TABLESIDE_CHROMIUM", "/usr/bin/chromium"))

# What works for Debian's Chromium here (Playwright adds --headless itself): no sandbox in
# a container, no GPU, and nothing that phones home and slows a fresh profile's start.
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]

PRODUCT_FACTORY = "tableside.app.asgi:from_env"
TEST_FACTORY = "browser.factory:from_env"


def missing_chromium() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        return (f"Chromium not found at {CHROMIUM}: run `make browser` as root "
                "(apt-get install chromium), or set TABLESIDE_CHROMIUM")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed: `pip install -e '.[dev]'`"
    return None


class PwaServer(service_harness.Server):
    """The service suite's server process, started by our factory so it also serves pwa/."""

    def start(self) -> PwaServer:
        tests_dir = str(ROOT / "tests")
        path = os.pathsep.join(p for p in (tests_dir, os.environ.get("PYTHONPATH")) if p)
        self.env = {**self.env, "PYTHONPATH": path}
        with _factory(TEST_FACTORY):
            super().start()
        return self


@contextmanager
def _factory(name: str):
    """Make the harness's uvicorn command use another app factory while it starts."""
    real = subprocess.Popen

    def popen(cmd, *args, **kwargs):
        return real([name if part == PRODUCT_FACTORY else part for part in cmd], *args, **kwargs)

    with mock.patch.object(subprocess, "Popen", popen):
        yield


def screenshot(page, name: str) -> Path:
    """Save a full-page PNG under test-artifacts/browser/ (kept by CI, ignored by git)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def assert_no_horizontal_overflow(page) -> None:
    """Nothing on the page is wider than the viewport (no sideways scrolling on a tablet)."""
    widths = page.evaluate(
        "() => ({ doc: document.documentElement.scrollWidth, body: document.body.scrollWidth,"
        " view: window.innerWidth })")
    assert max(widths["doc"], widths["body"]) <= widths["view"], widths
