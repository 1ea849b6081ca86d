"""The federation's API over HTTP against a real federation process and database: enrolment
once per code, pushes idempotent and kept exactly once under concurrent retries, every bad
input a coded 4xx problem (never a 500, never a half-write), a fork's alarm kept once."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import httpx
import msgspec
import psycopg
from support.federation import FED_ADMIN, admin, enrolment_code
from tableside.eventlog.chain import GENESIS
from tableside.eventlog.jsonl import FORMAT, Header, export_lines
from test_judge import PAYLOADS, VENUE_KEY, sign_at, store

FORGED = [*PAYLOADS[:2], b'{"player":"Jaan","puck":3}', *PAYLOADS[3:]]


def body(records, after: int, before, checkpoints=()) -> bytes:
    anchor = before[after - 1].global_hash if after else GENESIS
    seal = max(checkpoints, key=lambda c: c.position) if checkpoints else None
    head = records[-1].hash.hex() if records else ""
    header = Header(FORMAT, None, len(records), head, seal, anchor.hex(), 0, tuple(checkpoints))
    return msgspec.json.encode(header) + b"\n" + b"".join(export_lines(records)[1:])


def enrolled(base: str) -> tuple[str, str]:
    code = enrolment_code(base, "Rīgas klubs")
    made = httpx.post(
        f"{base}/api/federation/enrol", json={"code": code, "public_key": VENUE_KEY.hex()}
    )
    assert made.status_code == 201, made.text
    again = httpx.post(
        f"{base}/api/federation/enrol", json={"code": code, "public_key": VENUE_KEY.hex()}
    )
    assert again.status_code == 401 and again.json()["code"] == "federation_code_invalid"
    return made.json()["venue_id"], made.json()["credential"]


def push(base: str, credential: str, content: bytes, after: int, head: int) -> httpx.Response:
    return httpx.post(
        f"{base}/api/federation/push",
        params={"after": after, "head": head},
        content=content,
        headers={"Authorization": f"Bearer {credential}", "Content-Type": "application/jsonl"},
        timeout=30,
    )


def test_a_venue_enrols_once_and_its_pushes_are_kept_exactly_once(
    federation, federation_database
) -> None:
    base = federation.base
    venue_id, credential = enrolled(base)
    made = store(PAYLOADS)
    batch = body(made, 0, made, [sign_at(made[3])])
    with ThreadPoolExecutor(4) as pool:  # one venue retrying the same batch at once
        replies = list(pool.map(lambda _: push(base, credential, batch, 0, 8), range(4)))
    assert [r.status_code for r in replies] == [200] * 4, [r.text for r in replies]
    assert sum(r.json()["kept"] for r in replies) == 8
    assert {r.json()["position"] for r in replies} == {8}
    with psycopg.connect(federation_database) as conn:
        kept = conn.execute(
            "SELECT count(*), count(DISTINCT position) FROM venue_events WHERE venue_id = %s",
            (venue_id,),
        ).fetchone()
        marks = conn.execute("SELECT count(*) FROM venue_checkpoints").fetchone()[0]
    assert kept == (8, 8) and marks == 1


def test_bad_input_is_a_coded_4xx_and_nothing_is_kept(federation, federation_database) -> None:
    base = federation.base
    _, credential = enrolled(base)
    made = store(PAYLOADS)
    stranger = push(base, "tv_nobody", body(made, 0, made), 0, 8)
    assert (
        stranger.status_code == 401 and stranger.json()["code"] == "federation_credential_invalid"
    )
    garbage = push(base, credential, b"not json\n", 0, 8)
    assert garbage.status_code == 400 and garbage.json()["code"] == "federation_not_a_batch"
    edited = [*made[:4], msgspec.structs.replace(made[4], payload=b'{"x":1}'), *made[5:]]
    broken = push(base, credential, body(edited, 0, made), 0, 8)
    assert broken.status_code == 422 and broken.json()["code"] == "federation_broken_chain"
    beyond = push(base, credential, body(made[4:], 4, made), 4, 8)
    assert beyond.status_code == 409 and beyond.json()["code"] == "federation_gap"
    assert beyond.json()["position"] == 0
    in_url = httpx.post(f"{base}/api/federation/push?after=0&head=8&token={credential}")
    assert in_url.status_code == 401 and in_url.json()["code"] == "token_in_url"
    no_admin = httpx.post(f"{base}/api/federation/codes", json={"venue_name": "X"})
    assert no_admin.status_code == 401
    with psycopg.connect(federation_database) as conn:
        assert conn.execute("SELECT count(*) FROM venue_events").fetchone()[0] == 0


def test_a_fork_is_refused_with_its_alarm_kept_once(federation) -> None:
    base = federation.base
    venue_id, credential = enrolled(base)
    made, forged = store(PAYLOADS), store(FORGED)
    assert push(base, credential, body(made[:6], 0, made), 0, 6).status_code == 200
    for _ in range(3):  # the venue retries its forged branch
        refused = push(base, credential, body(forged[6:], 6, forged), 6, 8)
        assert refused.status_code == 409, refused.text
        problem = refused.json()
        assert problem["code"] == "federation_fork_head" and problem["position"] == 6
        assert problem["held_hash"] == made[5].global_hash.hex()
    alarms = httpx.get(f"{base}/api/federation/venues/{venue_id}/alarms").json()
    assert [(a["code"], a["position"]) for a in alarms] == [("federation_fork_head", 6)]
    venue = admin(base).get(f"/api/federation/venues/{venue_id}").json()
    assert venue["alarms"] == 1 and venue["ack"]["position"] == 6


def test_a_federation_name_is_locked_after_repeated_wrong_passwords(federation) -> None:
    wrong = {"username": "fedadmin", "password": "not-the-password"}
    replies = [httpx.post(f"{federation.base}/api/federation/login", json=wrong) for _ in range(10)]
    assert [r.status_code for r in replies] == [401] * 9 + [429], [r.text for r in replies]
    assert replies[-1].json()["code"] == "login_locked" and replies[-1].headers["Retry-After"]
    right = httpx.post(
        f"{federation.base}/api/federation/login", json={**wrong, "password": FED_ADMIN[1]}
    )
    assert right.status_code == 429  # locked, even with the right password
