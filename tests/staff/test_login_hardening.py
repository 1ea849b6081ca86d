"""Issue 11, point 2: logins that resist guessing without stalling the server.

ASVS 5.0: V6.3.1 (brute force and credential stuffing controls: throttling, lockout),
V6.3.8 (no account enumeration by timing), V6.2.3 (password change needs the current one),
V7.4.3 (other sessions end on a password change), V15.4 / V2.4.1 (no CPU-heavy work on the
shared event loop: one client cannot starve the others).
"""

from __future__ import annotations

import statistics
import threading
import time

import httpx
import pytest
from support.harness import Api, Server, wait_for

# Generous throttles, for tests that measure time rather than refusals.
DEFAULTS = {"TABLESIDE_LOGIN_PER_MINUTE": "20"}  # what a server without settings does
UNTHROTTLED = {"TABLESIDE_LOGIN_PER_MINUTE": "100000", "TABLESIDE_LOGIN_FAILURES": "100000"}


@pytest.fixture(scope="module")
def fast_server(module_database_url):
    srv = Server(module_database_url, env=UNTHROTTLED).start()
    yield srv
    srv.stop()


def _login(http: httpx.Client, user: str, password: str) -> httpx.Response:
    return http.post("/api/login", json={"username": user, "password": password})


def _timed(call, *args) -> float:
    started = time.perf_counter()
    call(*args)
    return time.perf_counter() - started


def _health_median(http: httpx.Client, n: int = 25) -> float:
    samples = []
    for _ in range(n):
        samples.append(_timed(lambda: http.get("/health").raise_for_status()))
        time.sleep(0.02)
    return statistics.median(samples)


def test_v15_four_password_guessers_do_not_stall_health(fast_server):
    http = httpx.Client(base_url=fast_server.base, timeout=10)
    idle = _health_median(http)
    stop = threading.Event()
    guesses = [0] * 4

    def guesser(i: int) -> None:
        with httpx.Client(base_url=fast_server.base, timeout=10) as own:
            while not stop.is_set():
                assert _login(own, "head", f"wrong-{i}-{guesses[i]}").status_code == 401
                guesses[i] += 1

    threads = [threading.Thread(target=guesser, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    try:
        # The guessers are running (each has had a refusal) before /health is measured: a
        # state, not a time (on a loaded machine 0.3 s was not always enough for eight).
        wait_for(lambda: all(guesses), timeout=30)
        loaded = _health_median(http)
    finally:
        stop.set()
        for t in threads:
            t.join()
    print(f"/health median idle {idle * 1000:.1f} ms, 4 guessers {loaded * 1000:.1f} ms")
    # Today (hashing on the loop): 3.7 ms → 289 ms. Off the loop, /health only shares CPU.
    assert loaded < max(10 * idle, 0.06), (idle, loaded)


def test_v6_3_8_unknown_user_refused_as_slowly_as_a_known_one(fast_server):
    http = httpx.Client(base_url=fast_server.base, timeout=10)
    known, unknown = [], []
    for i in range(12):
        known.append(_timed(_login, http, "head", f"nope-{i}"))
        unknown.append(_timed(_login, http, f"nobody-{i}", f"nope-{i}"))
    k, u = statistics.median(known), statistics.median(unknown)
    print(f"refuse known {k * 1000:.1f} ms, unknown {u * 1000:.1f} ms, ratio {k / u:.2f}")
    assert 0.6 < k / u < 1.6, (k, u)  # today: 109 ms vs 13 ms


def test_v6_3_1_fifty_wrong_passwords_429_lockout_and_head_judge_unlock(module_database_url):
    srv = Server(module_database_url, env=DEFAULTS).start()
    try:
        head = Api(srv.base).login()
        made = head.http.post(
            "/api/accounts",
            headers=head.headers(),
            json={"username": "victim", "role": "secretary", "password": "right-password"},
        )
        assert made.status_code == 201
        http = httpx.Client(base_url=srv.base, timeout=10)
        replies = [_login(http, "victim", f"guess-{i}") for i in range(50)]
        codes = [r.status_code for r in replies]
        first = codes.index(429)
        assert codes[:first] == [401] * first and first <= 10, codes
        assert set(codes[first:]) == {429}, codes
        locked = replies[first]
        assert locked.headers["content-type"].startswith("application/problem+json")
        assert int(locked.headers["retry-after"]) >= 60 * 14  # locked for 15 minutes
        assert locked.json()["reason"] == "account"
        assert locked.json()["retry_after"] == int(locked.headers["retry-after"])

        # the right password does not open a locked account
        right = _login(http, "victim", "right-password")
        assert right.status_code == 429 and int(right.headers["retry-after"]) >= 1

        # only the head judge sees and lifts lockouts
        lockouts = head.get("/api/login-lockouts").json()
        assert [x["username"] for x in lockouts] == ["victim"]
        assert Api(srv.base).http.delete("/api/login-lockouts/victim").status_code == 401
        lifted = head.http.delete("/api/login-lockouts/victim", headers=head.headers())
        assert lifted.status_code == 204
        assert head.get("/api/login-lockouts").json() == []
        for odd in ("victim", "a%00b", "a%0Ab"):  # nothing to lift, or not a name: 4xx
            assert head.http.delete(
                f"/api/login-lockouts/{odd}", headers=head.headers()
            ).status_code in (400, 404)

        def logged_in():
            r = _login(http, "victim", "right-password")
            if r.status_code == 429:  # this address may still be throttled: a few seconds
                assert r.json()["reason"] == "client" and int(r.headers["retry-after"]) <= 3
            return r.status_code == 201

        wait_for(logged_in, timeout=10, step=0.5)
    finally:
        srv.stop()


def test_v6_3_1_one_address_spraying_names_is_throttled(database_url):
    # a database of its own: the address's bucket is kept there, shared by every node
    srv = Server(database_url, env=DEFAULTS).start()
    try:
        http = httpx.Client(base_url=srv.base, timeout=10)
        replies = [_login(http, f"name-{i}", "password") for i in range(25)]
        codes = [r.status_code for r in replies]
        # 20 a minute refill one every 3 s: on a loaded machine one more may slip through
        assert codes[:20] == [401] * 20 and codes[-2:] == [429] * 2, codes
        assert replies[-1].json()["reason"] == "client"
        assert 1 <= int(replies[-1].headers["retry-after"]) <= 3
    finally:
        srv.stop()


def test_v6_2_3_demo_account_password_can_be_changed(new_database):
    srv = Server(new_database(), env={"TABLESIDE_DEMO": "1"}).start()
    try:
        demo = wait_for(lambda: _try_login(srv, "demo", "demo-head-judge"), timeout=20, step=0.3)
        other = Api(srv.base).login("demo", "demo-head-judge")
        change = "/api/account/password"
        body = {"current_password": "wrong-one!", "new_password": "a-new-secret-1"}
        assert demo.http.post(change, json=body, headers=demo.headers()).status_code == 403
        body["current_password"] = "demo-head-judge"
        assert Api(srv.base).http.post(change, json=body).status_code == 401
        short = {**body, "new_password": "short"}
        assert demo.http.post(change, json=short, headers=demo.headers()).status_code == 422
        r = demo.http.post(change, json=body, headers=demo.headers())
        assert r.status_code == 204, r.text
        assert demo.get("/api/whoami").json()["name"] == "demo"  # this session goes on
        assert other.get("/api/whoami").status_code == 401  # the other one ended
        http = httpx.Client(base_url=srv.base, timeout=10)
        assert _login(http, "demo", "demo-head-judge").status_code == 401
        assert _login(http, "demo", "a-new-secret-1").status_code == 201
    finally:
        srv.stop()


def _try_login(srv: Server, user: str, password: str) -> Api | None:
    try:
        return Api(srv.base).login(user, password)
    except httpx.HTTPStatusError:
        return None
