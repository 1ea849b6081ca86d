"""The PWA, served by the app: page shells, shared assets, the service worker and manifest.

`web_routes()` returns the route handlers; `create_app` registers them beside the API. Files
are read from `pwa/` on every request (they are small, and edits show without a restart);
each answer carries an ETag so the browser's `no-cache` revalidation is a cheap 304.
"""

from tableside.server.pwa.routes import web_routes

__all__ = ["web_routes"]
