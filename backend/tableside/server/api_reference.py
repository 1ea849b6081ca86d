"""`/schema`: the API reference, served from the package and working offline (issue 14).

Litestar's viewers load their scripts and fonts from CDNs, which a venue without internet
cannot reach and the strict CSP forbids. This render plugin answers `/schema` with a small
page of our own: `pwa/js/api-docs.js` reads `/schema/openapi.json` and lists every path,
method, parameter, body schema and answer.
"""

from __future__ import annotations

from litestar import Request
from litestar.openapi.plugins import OpenAPIRenderPlugin

PAGE = b"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tableside API reference</title>
<link rel="stylesheet" href="/css/base.css">
<link rel="stylesheet" href="/css/api.css">
</head>
<body>
<main id="api" class="api" data-spec="/schema/openapi.json">
<h1>Tableside API reference</h1>
<p>The OpenAPI document itself: <a href="/schema/openapi.json">/schema/openapi.json</a>.
Errors are <code>application/problem+json</code>.</p>
<label class="api-search">Find <input id="api-find" type="search" autocomplete="off"></label>
<p id="api-status" role="status">Loading\xe2\x80\xa6</p>
<div id="api-paths"></div>
</main>
<script type="module" src="/js/api-docs.js"></script>
</body>
</html>
"""


class ApiReference(OpenAPIRenderPlugin):
    """The reference page at the OpenAPI path's root; the document at `openapi.json`."""

    def __init__(self) -> None:
        super().__init__(path=["/", ""], favicon="", style="")

    def render(self, request: Request, openapi_schema: dict) -> bytes:
        """The same page for every request: the script fetches the document."""
        return PAGE


__all__ = ["ApiReference"]
