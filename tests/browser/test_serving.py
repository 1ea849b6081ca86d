"""web_routes(): types, caching headers, shells at every face's path, the versioned worker."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from litestar import Litestar
from litestar.testing import TestClient
from tableside.server.pwa import web_routes, worker
from tableside.server.pwa.assets import DEFAULT_PWA_DIR


@pytest.fixture
def pwa_copy(tmp_path: Path) -> Path:
    """A throwaway copy of pwa/ that a test may edit."""
    return Path(shutil.copytree(DEFAULT_PWA_DIR, tmp_path / "pwa"))


def client(root: Path | None = None) -> TestClient:
    return TestClient(Litestar(route_handlers=web_routes(root)))


@pytest.mark.parametrize(
    "path, marker",
    [
        ("/", 'data-face="spectator"'),
        ("/judge", 'data-face="judge"'),
        ("/audit", 'data-face="audit"'),
        ("/audit/match/0b7f3c1e-1", 'data-face="audit"'),
        ("/screen", 'data-face="screen"'),
        ("/admin", 'data-face="admin"'),
        ("/backgammon", 'data-face="backgammon"'),
        ("/watch", 'data-face="watch"'),
        ("/verify", 'data-face="verify"'),
    ],
)
def test_every_face_has_its_shell(path: str, marker: str) -> None:
    with client() as http:
        reply = http.get(path)
    assert reply.status_code == 200
    assert reply.headers["content-type"] == "text/html; charset=utf-8"
    assert marker in reply.text and "/js/shell.js" in reply.text


@pytest.mark.parametrize(
    "path, media_type",
    [
        ("/js/outbox.js", "text/javascript; charset=utf-8"),
        ("/css/base.css", "text/css; charset=utf-8"),
        ("/i18n/et.json", "application/json"),
        ("/icons/icon-192.png", "image/png"),
        ("/manifest.webmanifest", "application/manifest+json"),
        ("/sw.js", "text/javascript; charset=utf-8"),
    ],
)
def test_assets_have_their_types_and_revalidate(path: str, media_type: str) -> None:
    with client() as http:
        first = http.get(path)
        again = http.get(path, headers={"If-None-Match": first.headers["etag"]})
    assert first.status_code == 200 and first.headers["content-type"] == media_type
    assert first.headers["cache-control"] == "no-cache"
    assert again.status_code == 304 and again.content == b""


@pytest.mark.parametrize(
    "path",
    [
        "/icons/make_icons.py",
        "/js/nothing.js",
        "/js/..%2Fsw.js",
        "/css/%2E%2E%2Findex.html",
        "/pwa/sw.js",
        "/sw.js.map",
    ],
)
def test_only_app_files_are_served(path: str) -> None:
    with client() as http:
        assert http.get(path).status_code == 404


def test_worker_carries_a_version_and_the_shell_list() -> None:
    with client() as http:
        body = http.get("/sw.js").text
    version_line, shell_line = body.splitlines()[:2]
    assert version_line.startswith('const VERSION = "')
    shell = json.loads(shell_line.removeprefix("const SHELL = ").rstrip(";"))
    assert {
        "/",
        "/judge",
        "/audit",
        "/screen",
        "/admin",
        "/backgammon",
        "/watch",
        "/verify",
        "/manifest.webmanifest",
        "/js/outbox.js",
        "/i18n/lv.json",
        "/icons/icon-512.png",
    } <= set(shell)
    assert not any(url.endswith(".py") for url in shell)


def test_any_shell_change_changes_the_worker_version(pwa_copy: Path) -> None:
    with client(pwa_copy) as http:
        before = http.get("/sw.js").text.splitlines()[0]
        (pwa_copy / "css" / "base.css").write_text("/* changed */\n", encoding="utf-8")
        after = http.get("/sw.js").text.splitlines()[0]
        same = http.get("/sw.js").text.splitlines()[0]
    assert before != after == same


def test_manifest_names_icons_that_exist() -> None:
    with client() as http:
        manifest = http.get("/manifest.webmanifest").json()
        sizes = {icon["sizes"] for icon in manifest["icons"]}
        assert {"192x192", "512x512"} <= sizes
        for icon in manifest["icons"]:
            assert http.get(icon["src"]).status_code == 200
    assert manifest["scope"] == "/" and manifest["display"] == "standalone"


def test_hover_never_reveals_anything() -> None:
    """Touch has no hover: a :hover rule may restyle, never show, hide or resize a control."""
    hiding = re.compile(r"display|visibility|opacity|height|width|transform|pointer-events")
    for sheet in [*DEFAULT_PWA_DIR.rglob("*.css"), *DEFAULT_PWA_DIR.rglob("*.js")]:
        for selector, body in re.findall(r"([^{}]*:hover[^{}]*)\{([^}]*)\}", sheet.read_text()):
            assert not hiding.search(body), f"{sheet.name}: {selector.strip()}"


def test_text_is_sent_gzipped_to_a_browser_that_takes_it() -> None:
    """Decision 0105: gzip once per content, its own ETag, Vary; PNGs and refusals as stored."""
    with client() as http:
        raw = http.get("/js/outbox.js", headers={"Accept-Encoding": "identity"})
        packed = http.get("/js/outbox.js", headers={"Accept-Encoding": "br, gzip;q=0.8"})
        refused = http.get("/js/outbox.js", headers={"Accept-Encoding": "gzip;q=0"})
        again = http.get(
            "/js/outbox.js",
            headers={"Accept-Encoding": "gzip", "If-None-Match": packed.headers["etag"]},
        )
        icon = http.get("/icons/icon-192.png", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in raw.headers and "content-encoding" not in refused.headers
    assert packed.headers["content-encoding"] == "gzip"
    assert packed.content == raw.content  # the client undid the gzip: the same file
    assert int(packed.headers["content-length"]) < len(raw.content) / 2
    assert packed.headers["etag"] != raw.headers["etag"]
    assert packed.headers["vary"] == raw.headers["vary"] == "Accept-Encoding"
    assert again.status_code == 304 and again.content == b""
    assert "content-encoding" not in icon.headers


def test_the_pinned_federation_key_counts_in_the_worker_version() -> None:
    """/verify pins the server's key (#29): a moved key makes a new worker, which caches the
    page afresh."""
    first, second = (worker.script(DEFAULT_PWA_DIR, key).splitlines()[0] for key in (b"a", b"b"))
    assert first != second
