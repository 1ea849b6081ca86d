"""Reading files from pwa/ and answering them with the right type, ETag and Cache-Control,
gzipped for a browser that takes it (docs/decisions/0105: text is compressed once per
content and kept; the API's JSON is gzipped by `web/compression.py`, decision 0139, and the
/live feed stays uncompressed); the asset folders' routes. In the HTTP kernel since both
apps serve faces from pwa/: the venue's (`server/pwa/`) and the federation's public one
(`federation/public/`, decision 0174)."""

from __future__ import annotations

import functools
import gzip
import hashlib
from pathlib import Path

from litestar import Request, Response, get
from litestar.exceptions import NotFoundException
from litestar.params import FromPath

from tableside.settings import PWA_DIR
from tableside.web.compression import takes_gzip

DEFAULT_PWA_DIR = PWA_DIR  # overridable per app (create_app's pwa_dir)

# Only these may be served: a stray script or note in pwa/ stays private. ES modules need a
# JavaScript MIME type, and the manifest its own, which Python's mimetypes does not know.
# (Litestar adds "; charset=utf-8" to text/* itself.)
CONTENT_TYPES = {
    ".html": "text/html",
    ".js": "text/javascript",
    ".css": "text/css",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".png": "image/png",
    ".svg": "image/svg+xml",
}

# No file name carries a content hash, so the browser must always revalidate; the service
# worker's versioned cache is what makes the app fast and offline, not the HTTP cache.
REVALIDATE = "no-cache"

# Text compresses to a quarter or less; PNGs are compressed already. Below ~1 KB the
# gzip header and a second round of ETag bookkeeping are not worth it.
COMPRESSIBLE = {".html", ".js", ".css", ".json", ".webmanifest", ".svg"}
SMALLEST_TO_COMPRESS = 1024


def read(root: Path, relative: str) -> bytes:
    """The bytes of a servable file under root; 404 for anything else (no path escapes)."""
    path = (root / relative).resolve()
    if root.resolve() not in path.parents or path.suffix not in CONTENT_TYPES:
        raise NotFoundException()
    try:
        return path.read_bytes()
    except (FileNotFoundError, IsADirectoryError):
        raise NotFoundException() from None


def etag(body: bytes) -> str:
    """A strong validator from the content itself."""
    return '"' + hashlib.sha256(body).hexdigest()[:20] + '"'


@functools.lru_cache(maxsize=256)
def _gzipped(tag: str, body: bytes) -> bytes:
    """The body gzipped once per content (the tag names it; mtime 0: the same bytes each time)."""
    return gzip.compress(body, compresslevel=9, mtime=0)


def answer(request: Request, body: bytes, suffix: str) -> Response[bytes]:
    """200 with the body (gzipped when the browser takes it), or 304 when the browser already
    holds these bytes. Each encoding has its own strong ETag, as RFC 9110 §8.8.3 asks."""
    tag = etag(body)
    headers = {"Cache-Control": REVALIDATE, "X-Content-Type-Options": "nosniff"}
    encoded = None
    if suffix in COMPRESSIBLE and len(body) >= SMALLEST_TO_COMPRESS:
        headers["Vary"] = "Accept-Encoding"
        if takes_gzip(request.headers.get("accept-encoding", "")):
            encoded = _gzipped(tag, body)
            headers["Content-Encoding"] = "gzip"
            tag = tag[:-1] + '-gz"'
    headers["ETag"] = tag
    if tag in request.headers.get("if-none-match", ""):
        headers.pop("Content-Encoding", None)
        return Response(b"", status_code=304, headers=headers)
    return Response(encoded or body, media_type=CONTENT_TYPES[suffix], headers=headers)


def folder_routes(root: Path, folders: tuple[str, ...]) -> list:
    """One handler per asset folder of `root` (`/js/<name>`, …): one fixed prefix each, no
    catch-all pattern that could shadow an API path."""

    def folder_handler(folder: str):
        @get(
            f"/{folder}/{{name:str}}",
            name=f"pwa-{folder}",
            include_in_schema=False,
            sync_to_thread=False,
        )
        def asset(request: Request, name: FromPath[str]) -> Response[bytes]:
            body = read(root, f"{folder}/{name}")
            return answer(request, body, Path(name).suffix)

        return asset

    return [folder_handler(folder) for folder in folders]
