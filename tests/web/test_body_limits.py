"""Issue 11, point 4: small bodies for commands and logins, checked before the body is read;
the token is checked before the body too (ASVS 5.0: V4.2.x / V2.4 resource limits on
requests, V8.3.1 authorisation enforced at the trusted layer before any processing)."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
import uuid

import httpx
import pytest
from support.harness import Api
from tableside.web.guards import BODY_LIMIT

PROBLEM = "application/problem+json"
BIG = 9_000_000


def _status_without_body(server, path: str, length: int, token: str | None = None) -> int:
    """Send only the headers of a `length`-byte POST; the answer must come without the body."""
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    head = (
        f"POST {path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n{auth}"
        f"Content-Length: {length}\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        s.sendall(head.encode())
        answer = s.recv(4096)  # a timeout here means the server waited for the body
    line, _, rest = answer.partition(b"\r\n")
    assert PROBLEM.encode() in rest
    return int(line.split()[1])


def _command_path() -> str:
    return f"/api/matches/{uuid.uuid4()}/commands"


@pytest.mark.parametrize(
    "path",
    [
        "/api/matches",
        "/api/accounts",
        "/api/competitions",
        "/api/matches/00000000-0000-0000-0000-000000000001/commands",
        "/api/competitions/00000000-0000-0000-0000-000000000001/commands",
        "/api/competitions/00000000-0000-0000-0000-000000000001/rounds/import"
        "?expected_version=1&command_id=00000000-0000-0000-0000-000000000002",
    ],
)
def test_v8_3_1_anonymous_post_to_a_command_route_is_401_before_the_body(server, path):
    assert _status_without_body(server, path, BIG) == 401


def test_v8_3_1_a_wrong_role_is_403_before_the_body(server, head):
    r = head.http.post(
        "/api/accounts",
        json={"username": "aud", "role": "auditor", "password": "auditor-secret"},
        headers=head.headers(),
    )
    assert r.status_code == 201, r.text
    auditor = Api(server.base).login("aud", "auditor-secret")
    assert _status_without_body(server, _command_path(), BIG, auditor.token) == 403


def test_v4_2_a_signed_in_post_announcing_9_mb_is_413_before_the_body(server, head):
    assert _status_without_body(server, _command_path(), BIG, head.token) == 413


def test_v4_2_login_announcing_more_than_the_limit_is_413_before_the_body(server):
    assert _status_without_body(server, "/api/login", BODY_LIMIT + 1) == 413


def test_v4_2_a_streamed_body_past_the_limit_is_413(server, head):
    """Chunked, no Content-Length: counted as it arrives."""

    def chunks():
        for _ in range(10):
            yield b" " * (BODY_LIMIT // 4)

    r = httpx.post(
        f"{server.base}{_command_path()}",
        content=chunks(),
        headers={**head.headers(), "content-type": "application/json"},
        timeout=10,
    )
    assert r.status_code == 413 and r.headers["content-type"].startswith(PROBLEM)


def test_v4_2_a_login_body_past_the_limit_is_413(server):
    r = httpx.post(
        f"{server.base}/api/login",
        json={"username": "head", "password": "x" * (BODY_LIMIT + 10)},
        timeout=10,
    )
    assert r.status_code == 413 and r.headers["content-type"].startswith(PROBLEM)


def test_a_command_within_the_limit_still_works(server, head):
    r = head.create(31, ["A" * 80], ["B"])
    assert r.status_code == 201, r.text


def _rss_mb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        line = next(x for x in f if x.startswith("VmRSS"))
    return int(line.split()[1]) // 1024


def _post_9mb(port: int, path: str, answers: list) -> None:
    body = b"{" + b" " * (BIG - 2) + b"}"
    head = (
        f"POST {path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
        f"Content-Length: {BIG}\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        with contextlib.suppress(OSError):  # the server answered and closed before the body
            s.sendall(head + body)
        try:
            answers.append(s.recv(64).split(b"\r\n")[0])
        except OSError:
            answers.append(b"closed")


def test_v4_2_forty_anonymous_9_mb_posts_do_not_grow_the_server(server):
    """Before: 87 MB → 630 MB (the bodies were read, then refused)."""
    pid = server.proc.pid
    before = _rss_mb(pid)
    answers: list = []
    started = time.monotonic()
    threads = [
        threading.Thread(target=_post_9mb, args=(server.port, _command_path(), answers))
        for _ in range(40)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    grown = _rss_mb(pid) - before
    print(f"RSS {before} MB → +{grown} MB in {time.monotonic() - started:.1f} s")
    assert grown < 40, grown
    assert all(a.startswith(b"HTTP/1.1 401") or a == b"closed" for a in answers), answers
    assert any(a.startswith(b"HTTP/1.1 401") for a in answers)
