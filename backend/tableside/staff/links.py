"""The judge's link as a tablet must open it: never a loopback address when the server can be
reached on the hall network (issue 14, point 7)."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from tableside.web.transport import ANY, is_loopback, lan_address

__all__ = ["ANY", "is_loopback", "lan_address", "on_host", "reachable_link"]


def on_host(link: str, host: str) -> str:
    """`link` with its host replaced (port, path and fragment kept)."""
    parts = urlsplit(link)
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit((parts.scheme, f"{host}{port}", parts.path, parts.query, parts.fragment))


def reachable_link(link: str, listening_on: str) -> tuple[str, bool, str]:
    """(the link to print, whether a tablet can open it, the hall-network alternative).

    A console opened on this machine gives loopback links: when the server listens on every
    interface, the printed link uses the hall-network address instead; when it listens on
    loopback only, the link stays and is marked unreachable, with the address it could use."""
    host = urlsplit(link).hostname or ""
    if not is_loopback(host):
        return link, True, ""
    lan = lan_address()
    lan_link = on_host(link, lan) if lan else ""
    if lan_link and listening_on in ANY:
        return lan_link, True, lan_link
    return link, False, lan_link
