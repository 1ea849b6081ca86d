"""The judge's link as a tablet must open it: never a loopback address when the server can be
reached on the hall network (issue 14, point 7)."""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit, urlunsplit

ANY = ("0.0.0.0", "::", "")


def is_loopback(host: str) -> bool:
    """127.0.0.0/8, ::1 or localhost."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def lan_address() -> str:
    """This machine's address on its default route (no packet is sent), or ""."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the outgoing interface
            address = probe.getsockname()[0]
        except OSError:
            return ""
    return "" if is_loopback(address) else address


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
