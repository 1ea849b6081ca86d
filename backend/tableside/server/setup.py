"""`/setup`: a tablet trusts the venue in one step (issue 40, docs/decisions/0117).

- `GET /setup` (a page the server writes, no script: it must work in any browser, before
  anything is trusted): the venue CA's download, its SHA-256 fingerprint to compare with the
  one `tableside serve` prints, the steps for Android, iPadOS and desktop browsers, and the
  HTTPS address with its QR code; in et, lv, en or is (`?lang=`, else Accept-Language).
- `GET /setup/venue-ca.crt`: the CA certificate (public; 404 with an operator's certificate).
- `GET /api/setup`: the same facts for a face's "not a secure context" banner and the
  console (the setup page's QR code); `GET /api/setup/tablets` (staff): who is connected.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

import segno
from litestar import Request, Response, get
from litestar.exceptions import NotFoundException
from litestar.params import FromQuery

from tableside.match.exports.labels import face_words
from tableside.web.auth import bearer, require, resolve
from tableside.web.context import AppSettings, Pool
from tableside.web.downloads import FaceLanguage
from tableside.web.problems import coded, language
from tableside.web.transport import in_clear_on_the_hall, setup_url
from tableside.web.venue_tls import CA_CERT, fingerprint, newly_replaced

CA_PATH = "/setup/venue-ca.crt"
PLATFORMS = ("android", "ipados", "desktop")
STEPS = 4  # setup.<platform>.1 … .4 in every catalogue


def _ca_pem(request: Request) -> bytes | None:
    settings = request.app.state.settings
    if settings.tls_cert:  # the operator's own certificate: nothing for a tablet to install
        return None
    path: Path = settings.tls_folder / CA_CERT
    try:
        return path.read_bytes()
    except OSError:
        return None


def _https_origin(request: Request) -> str:
    """The one HTTPS origin (issue 52); behind a proxy that ends TLS, the request's own."""
    if origin := request.app.state.settings.https_origin:
        return origin
    return str(request.base_url).rstrip("/") if request.scope.get("scheme") == "https" else ""


@get("/api/setup", summary="How a tablet reaches this server over HTTPS", sync_to_thread=False)
def setup_facts(request: Request) -> dict[str, Any]:
    """The HTTPS origin, the venue CA's fingerprint (null with an operator's certificate or
    none at all), the setup page and its QR code (a data URI), whether this request came in
    clear over the hall network, and whether the venue CA was made again lately."""
    pem, setup = _ca_pem(request), setup_url(request.app.state.settings)
    return {
        "https_origin": _https_origin(request) or None,
        "ca_fingerprint": fingerprint(pem) if pem else None,
        "ca_url": CA_PATH if pem else None,
        "setup_url": setup,
        "setup_qr_svg": segno.make(setup, error="m").svg_data_uri(scale=4) if setup else None,
        "in_clear": in_clear_on_the_hall(request),
        # the venue CA was made again (its key lost): every tablet must trust the new one
        "ca_replaced": bool(pem) and newly_replaced(request.app.state.settings.tls_folder),
    }


# The addresses holding /live sockets now, counted across every worker and node (the shared
# count of live/addresses.py). On a server that speaks HTTPS a browser's socket comes from an
# HTTPS page: a page in clear has an origin the feed refuses.
_CONNECTED = """
SELECT c.client, sum(c.open)::int FROM live_clients c JOIN live_nodes n USING (node)
WHERE c.open > 0 AND n.seen > clock_timestamp() - interval '30 seconds'
GROUP BY c.client ORDER BY c.client
"""


@get("/api/setup/tablets", summary="The tablets connected to this server now")
async def connected_tablets(request: Request, pool: Pool, settings: AppSettings) -> dict[str, Any]:
    """Head judge or secretary: each address with live sockets open now (a tablet, a screen),
    and whether this server speaks HTTPS (then they reached the HTTPS origin)."""
    require(await resolve(pool, bearer(request)), "head_judge", "secretary")
    rows = await pool.fetch(_CONNECTED)
    return {
        "over_https": bool(settings.https_origin),
        "tablets": [{"address": r[0], "sockets": r[1]} for r in rows],
    }


@get(CA_PATH, include_in_schema=False, sync_to_thread=False)
def venue_ca(request: Request) -> Response[bytes]:
    """The venue CA's certificate, for a tablet to install (PEM; Android and Apple take it)."""
    pem = _ca_pem(request)
    if pem is None:
        raise NotFoundException(
            "This server has no venue CA (it uses an operator's certificate)",
            extra=coded("no_venue_ca"),
        )
    return Response(
        pem,
        media_type="application/x-x509-ca-cert",
        headers={"Content-Disposition": 'attachment; filename="tableside-venue-ca.crt"'},
    )


@get("/setup", include_in_schema=False, sync_to_thread=False)
def setup_page(request: Request, lang: FromQuery[FaceLanguage | None] = None) -> Response[str]:
    """The page a tablet opens first (its QR code is printed by `tableside serve`)."""
    said = lang or language(request)
    words = face_words(said)
    pem, origin = _ca_pem(request), _https_origin(request)
    say = lambda key: escape(words[key])  # noqa: E731
    parts = [f"<h1>{say('setup.title')}</h1>"]
    if pem:
        parts += _install(pem, say)
    elif request.app.state.settings.tls_cert:  # the operator's certificate (issue 52)
        parts.append(f'<p id="nothing-to-install">{say("setup.operator")}</p>')
    if origin:
        qr = segno.make(origin + "/", error="m").svg_inline(scale=4)
        parts += [
            f"<h2>{say('setup.open')}</h2>",
            f'<p><a id="https-origin" href="{escape(origin)}/">{escape(origin)}/</a></p>',
            f"<p>{qr}</p>",
        ]
    if pem:
        parts += _removal(say)
    others = " · ".join(
        f'<a href="/setup?lang={code}" hreflang="{code}">{escape(name)}</a>'
        for code, name in ((c, face_words(c)["language.name"]) for c in ("et", "lv", "en", "is"))
        if code != said
    )
    parts.append(f"<p>{others}</p>")
    page = _PAGE.format(lang=said, title=say("setup.title"), body="".join(parts))
    return Response(page, media_type="text/html", headers={"Content-Language": said})


def _install(pem: bytes, say) -> list[str]:
    """Why, the CA's download and fingerprint, and each platform's steps."""
    parts = [
        f"<p>{say('setup.why')}</p>",
        f'<p><a href="{CA_PATH}" download>{say("setup.download")}</a></p>',
        f"<p>{say('setup.fingerprint')}</p>",
        f'<p><code id="fingerprint">{escape(fingerprint(pem))}</code></p>',
    ]
    for platform in PLATFORMS:
        steps = "".join(f"<li>{say(f'setup.{platform}.{n}')}</li>" for n in range(1, STEPS + 1))
        parts.append(f"<h2>{say(f'setup.{platform}')}</h2><ol>{steps}</ol>")
    return parts


def _removal(say) -> list[str]:
    """After the event: the CA off every tablet, as decision 0117 promised (issue 52)."""
    steps = "".join(f"<li>{say(f'setup.remove.{platform}')}</li>" for platform in PLATFORMS)
    return [
        f'<h2 id="remove">{say("setup.remove")}</h2>',
        f"<p>{say('setup.remove.why')}</p>",
        f"<ul>{steps}</ul>",
    ]


_PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title><link rel="stylesheet" href="/css/base.css">
<link rel="stylesheet" href="/css/verify.css"></head>
<body><main class="page stack">{body}</main></body></html>"""

SETUP_ROUTES = [setup_facts, connected_tablets, venue_ca, setup_page]
