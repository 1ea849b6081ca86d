"""Issue 45, point 6: the API's JSON is sent gzipped when the client asks (a match's
record went out at 70 KB, 8.7 KB gzipped), the same document either way; a small answer, a
client that refuses gzip, and what is not JSON stay as they were (decision 0139)."""

from __future__ import annotations

import gzip
import uuid

import httpx
from support.competition_play import Comp, pairs


def get(server, path: str, encoding: str | None) -> httpx.Response:
    """The raw answer (httpx leaves the body as sent when asked to stream it)."""
    headers = {"Accept-Encoding": encoding} if encoding is not None else {}
    with (
        httpx.Client(base_url=server.base) as client,
        client.stream("GET", path, headers=headers) as r,
    ):
        r.raw = b"".join(r.iter_raw())
        return r


def test_a_large_json_answer_is_gzipped_when_asked_and_only_then(server, head) -> None:
    comp = Comp.create(
        head,
        {
            "name": f"Gzip {uuid.uuid4().hex[:6]}",
            "format": "round_robin",
            "discipline": "mixed_pairs",
        },
    )
    comp.enter(pairs(12, "z"))
    comp.settled()
    path = f"/api/competitions/{comp.id}"
    plain = get(server, path, "identity")
    packed = get(server, path, "gzip, deflate, br")
    assert plain.status_code == packed.status_code == 200
    assert "content-encoding" not in plain.headers and len(plain.raw) > 1024
    assert packed.headers["content-encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["vary"]
    assert int(packed.headers["content-length"]) == len(packed.raw) < len(plain.raw) / 3
    assert gzip.decompress(packed.raw) == plain.raw  # the same document
    refused = get(server, path, "gzip;q=0, identity")
    assert "content-encoding" not in refused.headers
    assert packed.headers["content-security-policy"]  # the security headers still on it


def test_small_answers_and_what_is_not_json_are_left_as_they_are(server) -> None:
    small = get(server, "/api/whoami", "gzip")  # a problem of a few hundred bytes
    assert "content-encoding" not in small.headers
    assert "Accept-Encoding" in small.headers["vary"]
    health = get(server, "/health", "gzip")  # text
    assert "content-encoding" not in health.headers
