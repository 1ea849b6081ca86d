"""The venue's faces are read and answered by the HTTP kernel's `web/assets.py` (decision
0174: the federation serves faces too); named here for the venue's pwa routes."""

from __future__ import annotations

from tableside.web.assets import CONTENT_TYPES, DEFAULT_PWA_DIR, answer, folder_routes, read

__all__ = ["CONTENT_TYPES", "DEFAULT_PWA_DIR", "answer", "folder_routes", "read"]
