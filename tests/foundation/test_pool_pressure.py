"""A hall starting its session at once (issue 28): with a pool of two connections, twenty
walk-up matches created on twenty tables and five TD calls, all at the same moment, each get
an answer (201, 409, or 503 with Retry-After) within 10 s; then the server serves normally and
`/health` is ok. Before the fix the hall's lock holder waited for a connection only the lock's
waiters could give back: every request hung, then every request answered 503 for good."""

from __future__ import annotations

import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import httpx
import psycopg
import pytest
from support.competition_play import Comp, player
from support.harness import ADMIN, Api, Server, wait_for
from tableside.competition.hall import HALL_LOCK

ANSWERED = {201, 409, 503}
BOUND = 10.0  # seconds every request gets to answer


@pytest.fixture(scope="module")
def small(module_database_url: str):
    """A server whose request pool has two connections."""
    srv = Server(module_database_url, env={"TABLESIDE_DB_POOL_SIZE": "2"}).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def staff(small: Server) -> Api:
    return Api(small.base).login(*ADMIN)


def _cups(staff: Api, count: int) -> list[tuple[Comp, str]]:
    """`count` competitions of two players, drawn: each has one match waiting for a table."""
    made = []
    for n in range(count):
        guide = {"name": f"Cup {n}", "format": "round_robin", "games_per_match": 1}
        comp = Comp.create(staff, guide)
        comp.enter([(f"e{i}", [player(f"Cup {n} player {i}")]) for i in (1, 2)])
        comp.do({"type": "MakeDraw", "seed": 1})
        made.append((comp, comp.settled()["waiting"][0]["match_id"]))
    return made


def _walk_up(table: int) -> dict:
    return {
        "command_id": str(uuid.uuid4()),
        "table": table,
        "side_a": [f"Walk {table}"],
        "side_b": [f"Up {table}"],
    }


def _call(comp: Comp, match_id: str, table: int) -> dict:
    command = {"type": "CallMatch", "match_id": match_id, "table": table, "at": ""}
    return {
        "command_id": str(uuid.uuid4()),
        "expected_version": comp.version,
        "command": command,
    }


def _at_once(base: str, token: str, requests: list[tuple[str, dict]]) -> list[tuple]:
    """Post every request at the same moment, each on its own connection; (status or the
    error, seconds taken, the response) for each."""
    start = threading.Barrier(len(requests))

    def post(path: str, body: dict):
        with httpx.Client(base_url=base, timeout=BOUND) as http:
            start.wait()
            began = time.monotonic()
            try:
                r = http.post(path, json=body, headers={"Authorization": f"Bearer {token}"})
            except httpx.HTTPError as exc:
                return type(exc).__name__, time.monotonic() - began, None
            return r.status_code, time.monotonic() - began, r

    with ThreadPoolExecutor(len(requests)) as pool:
        return list(pool.map(lambda req: post(*req), requests))


def test_a_hall_starting_at_once_gets_answers_then_normal_service(small, staff):
    cups = _cups(staff, 5)
    walk_ups = [("/api/matches", _walk_up(table)) for table in range(1, 21)]
    calls = [
        (f"/api/competitions/{comp.id}/commands", _call(comp, match_id, 21 + n))
        for n, (comp, match_id) in enumerate(cups)
    ]
    answers = _at_once(small.base, staff.token, walk_ups + calls)

    slow = [(status, round(took, 1)) for status, took, _ in answers if status not in ANSWERED]
    assert not slow, f"no answer within {BOUND} s: {slow}"
    for status, took, r in answers:
        assert took < BOUND
        if status == 503:
            assert r.headers["content-type"].startswith("application/problem+json"), r.text
            assert int(r.headers["retry-after"]) >= 1
    assert any(status == 201 for status, _, _ in answers)

    # Normal service: every request refused for the load is taken when sent again.
    for (path, body), (status, _, _) in zip(walk_ups + calls, answers, strict=True):
        if status == 503:
            again = wait_for(lambda p=path, b=body: _taken(staff, p, b), timeout=BOUND)
            assert again.status_code in (201, 409), again.text
    held = wait_for(lambda: _tables(staff) >= set(range(1, 21)), timeout=BOUND)
    assert held
    assert staff.create(30, ["After"], ["Load"]).status_code == 201
    health = httpx.get(small.base + "/health", timeout=BOUND)
    assert health.status_code == 200 and health.json()["status"] == "ok", health.text


def _taken(staff: Api, path: str, body: dict) -> httpx.Response | None:
    """The request sent again: its answer, or None while the server still says 503."""
    r = staff.http.post(path, json=body, headers=staff.headers())
    return None if r.status_code == 503 else r


def _tables(staff: Api) -> set[int]:
    r = staff.get("/api/hall")
    assert r.status_code == 200, r.text
    return {h["table"] for h in r.json()}


@pytest.fixture(scope="module")
def starved(module_database_url: str):
    """A server with two connections whose requests wait 3 s for one, and 30 s for a lock."""
    env = {
        "TABLESIDE_DB_POOL_SIZE": "2",
        "TABLESIDE_DB_ACQUIRE_SECONDS": "3",
        "TABLESIDE_DB_LOCK_SECONDS": "30",
    }
    srv = Server(module_database_url, env=env).start()
    yield srv
    srv.stop()


def test_health_says_pool_exhausted_then_recovers_by_itself(starved, module_database_url):
    """Readers stuck on a locked table hold both connections; more wait for one. /health says
    the pool is exhausted (the database answers), a request that got no connection in time
    answers 503 Server busy with Retry-After, and once the lock goes all is well again."""
    stop, answers = threading.Event(), []

    def keep_asking() -> None:
        with httpx.Client(base_url=starved.base, timeout=BOUND * 4) as http:
            while not stop.is_set():
                answers.append(http.get("/api/hall"))

    with psycopg.connect(module_database_url) as locker:
        locker.execute("LOCK TABLE table_overview IN ACCESS EXCLUSIVE MODE")
        with ThreadPoolExecutor(6) as pool:
            for _ in range(6):
                pool.submit(keep_asking)
            try:
                seen = wait_for(lambda: _degraded(starved), timeout=BOUND)
                busy = wait_for(lambda: [r for r in answers if r.status_code == 503], BOUND)
            finally:
                locker.rollback()
                stop.set()
    database = seen["database"]
    assert database["state"] == "pool exhausted" and database["reachable"] is True, seen
    assert database["error"].startswith("pool exhausted:"), seen
    r = busy[0]
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["title"] == "Server busy" and int(r.headers["retry-after"]) >= 1
    assert {r.status_code for r in answers} <= {200, 503}
    wait_for(lambda: httpx.get(starved.base + "/health").status_code == 200, timeout=BOUND)
    assert httpx.get(starved.base + "/api/hall").status_code == 200


def _degraded(srv: Server) -> dict | None:
    r = httpx.get(srv.base + "/health", timeout=BOUND)
    return r.json() if r.status_code == 503 else None


def test_a_request_stuck_on_a_held_lock_answers_503_and_stores_nothing(
    small, staff, module_database_url
):
    """The hall's lock held elsewhere (another process, a stuck session) past lock_timeout:
    the walk-up answers 503 Server busy with Retry-After, stores nothing, and is taken once
    the lock is free."""
    body = _walk_up(40)
    with psycopg.connect(module_database_url, autocommit=True) as holder:
        holder.execute("SELECT pg_advisory_lock(%s)", (HALL_LOCK,))
        r = staff.http.post("/api/matches", json=body, headers=staff.headers(), timeout=BOUND)
        stored = holder.execute(
            "SELECT count(*) FROM stored_events WHERE command_id = %s", (body["command_id"],)
        ).fetchone()[0]
    assert r.status_code == 503, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["title"] == "Server busy" and int(r.headers["retry-after"]) >= 1
    assert stored == 0
    again = staff.http.post("/api/matches", json=body, headers=staff.headers(), timeout=BOUND)
    assert again.status_code == 201, again.text
