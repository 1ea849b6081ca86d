"""The service worker script: pwa/sw.js prefixed with its cache version and shell list.

The version is a hash of every shell file, so any change to the app changes the bytes of
/sw.js; the browser then installs the new worker, which fills a new cache and drops the old.
Nobody has to remember to bump a number.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from tableside.server.pwa.assets import CONTENT_TYPES

# The faces' URLs (cached as navigations) and the asset folders cached whole.
PAGES = {
    "/": "index.html",
    "/judge": "judge.html",
    "/audit": "audit.html",
    "/screen": "screen.html",
    "/admin": "admin.html",
    "/backgammon": "backgammon.html",
    "/watch": "watch.html",
    "/verify": "verify.html",  # the receipt check: offline, the federation key pinned
}
ASSET_DIRS = ("js", "css", "i18n", "icons")


def shell_files(root: Path) -> dict[str, Path]:
    """URL → file for everything the worker caches at install."""
    files = {url: root / name for url, name in PAGES.items()}
    files["/manifest.webmanifest"] = root / "manifest.webmanifest"
    for folder in ASSET_DIRS:
        for path in sorted((root / folder).glob("*")):
            if path.is_file() and path.suffix in CONTENT_TYPES:
                files[f"/{folder}/{path.name}"] = path
    return files


def script(root: Path, pinned: bytes = b"") -> bytes:
    """The body of /sw.js: `VERSION` and `SHELL` constants, then pwa/sw.js itself. `pinned`
    (the federation key /verify pins) counts in the version too: a new key, a new worker,
    a fresh copy of /verify."""
    files = shell_files(root)
    digest = hashlib.sha256(pinned)
    for url, path in files.items():
        digest.update(url.encode() + b"\0" + path.read_bytes() + b"\0")
    source = (root / "sw.js").read_bytes()
    digest.update(source)
    head = (
        f"const VERSION = {json.dumps(digest.hexdigest()[:16])};\n"
        f"const SHELL = {json.dumps(list(files))};\n"
    )
    return head.encode() + source
