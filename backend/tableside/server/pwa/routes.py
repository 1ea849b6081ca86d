"""Route handlers for the page shells, the asset folders, /sw.js and the manifest."""

from __future__ import annotations

from pathlib import Path

from litestar import Request, Response, get
from litestar.exceptions import NotFoundException
from litestar.params import FromPath

from tableside.eventlog.checkpoints import public_hex
from tableside.server.pwa import assets, worker


def web_routes(pwa_dir: Path | None = None) -> list:
    """Handlers serving pwa/ (or `pwa_dir`): faces, /js /css /i18n /icons, /sw.js, manifest."""
    root = pwa_dir or assets.DEFAULT_PWA_DIR
    return [
        *_pages(root),
        _verify_page(root),
        *_assets(root),
        _service_worker(root),
        _manifest(root),
        _vendor(),
    ]


def _pages(root: Path) -> list:
    def page(name: str, paths: list[str]):
        @get(paths, name=f"page-{name}", include_in_schema=False, sync_to_thread=False)
        def handler(request: Request) -> Response[bytes]:
            # The faces that witness checkpoints pin the venue's key as /verify does (#41).
            body = assets.read(root, f"{name}.html").replace(KEY_PLACEHOLDER, _pinned(request))
            return assets.answer(request, body, ".html")

        return handler

    return [
        page("index", ["/"]),
        page("judge", ["/judge"]),
        # Deep links open the auditor's shell; the page reads the id from its own URL.
        page("audit", ["/audit", "/audit/match/{match_id:str}"]),
        page("screen", ["/screen"]),
        page("admin", ["/admin"]),
        page("backgammon", ["/backgammon"]),  # ?match=<id> records it, bare starts a new one
        page("watch", ["/watch"]),  # ?match=<id>: a backgammon match for spectators
    ]


KEY_PLACEHOLDER = b"__FEDERATION_KEY__"


def _verify_page(root: Path):
    """/verify: the receipt check, with the federation's public key (this server's checkpoint
    key) pinned in the page, so the copy the service worker keeps checks receipts offline."""

    @get("/verify", name="page-verify", include_in_schema=False, sync_to_thread=False)
    def verify(request: Request) -> Response[bytes]:
        body = assets.read(root, "verify.html").replace(KEY_PLACEHOLDER, _pinned(request))
        return assets.answer(request, body, ".html")

    return verify


def _assets(root: Path) -> list:
    return assets.folder_routes(root, worker.ASSET_DIRS)


def _pinned(request: Request) -> bytes:
    """This server's checkpoint key (hex), the federation key /verify pins, then the keys it
    replaced (`tableside keys rotate`, #41), comma-separated; none when the pages are served
    alone (tests) or there is no key."""
    ctx = getattr(request.app.state, "tableside", None)
    signer = ctx.signing_key if ctx is not None else None
    if signer is None:
        return b""
    keys = [public_hex(signer.key), *sorted(k.hex() for k in signer.retired)]
    return ",".join(keys).encode()


def _service_worker(root: Path):
    @get("/sw.js", name="service-worker", include_in_schema=False, sync_to_thread=False)
    def service_worker(request: Request) -> Response[bytes]:
        return assets.answer(request, worker.script(root, _pinned(request)), ".js")

    return service_worker


def _manifest(root: Path):
    @get("/manifest.webmanifest", name="manifest", include_in_schema=False, sync_to_thread=False)
    def manifest(request: Request) -> Response[bytes]:
        return assets.answer(request, assets.read(root, "manifest.webmanifest"), ".webmanifest")

    return manifest


# The faces' pure-JS Ed25519 (pwa/js/ed25519.js, issue 40): @noble/ed25519 and the files of
# @noble/hashes its SHA-512 needs, from node_modules (the Makefile installs them, pinned;
# decision 0118), under one flat prefix so sha2.js's relative imports resolve. Only these
# names; none where node_modules is absent (a wheel): the page then says it cannot check.
NODE_MODULES = assets.DEFAULT_PWA_DIR.parent / "node_modules"
VENDOR = {
    "ed25519.js": "@noble/ed25519/index.js",
    "sha2.js": "@noble/hashes/sha2.js",
    "_md.js": "@noble/hashes/_md.js",
    "_u64.js": "@noble/hashes/_u64.js",
    "utils.js": "@noble/hashes/utils.js",
}


def _vendor(node_modules: Path = NODE_MODULES):
    @get("/vendor/{name:str}", name="vendor", include_in_schema=False, sync_to_thread=False)
    def vendor(request: Request, name: FromPath[str]) -> Response[bytes]:
        if name not in VENDOR:
            raise NotFoundException()
        return assets.answer(request, assets.read(node_modules, VENDOR[name]), ".js")

    return vendor
