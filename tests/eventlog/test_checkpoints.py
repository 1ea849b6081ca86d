"""Checkpoints while serving: periodic, on shutdown, published at /api/checkpoints/latest,
and carried by the record download so an auditor checks it with the public key alone."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import psycopg
from support.harness import Api, Server, run_async, wait_for
from support.recorded import auditor, record_match

TABLESIDE = str(Path(sys.executable).with_name("tableside"))


def _head(url: str) -> int:
    with psycopg.connect(url) as conn:
        return conn.execute(
            "SELECT coalesce(max(notification_id), 0) FROM stored_events"
        ).fetchone()[0]


def _latest_stored(url: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT max(position) FROM event_checkpoints").fetchone()
    return row[0] or 0


def test_no_checkpoint_yet_is_a_state_not_an_error(new_database) -> None:
    """Issue 45: a 404 here was logged as an error by every face until the first checkpoint
    (~5 min after the first event); none signed yet is 204, no body."""
    srv = Server(new_database(), env={"TABLESIDE_CHECKPOINT_MINUTES": "0"}).start()
    try:
        r = Api(srv.base).get("/api/checkpoints/latest")
        assert r.status_code == 204 and r.content == b"", r.text
    finally:
        srv.stop()


def test_a_periodic_checkpoint_follows_new_events(new_database) -> None:
    url = new_database()
    srv = Server(url, env={"TABLESIDE_CHECKPOINT_MINUTES": "0.01"}).start()  # 0.6 s
    try:
        head = Api(srv.base).login()
        assert head.create(3, ["Mari"], ["Ott"]).status_code == 201
        spectator = Api(srv.base)

        def signed_head():
            r = spectator.get("/api/checkpoints/latest")
            return r.status_code == 200 and r.json()["position"] == _head(url) and r.json()

        latest = wait_for(signed_head, timeout=10)
        assert latest["short_hash"] == latest["head_hash"][:12]
        assert len(latest["signature"]) == 128 and len(latest["public_key"]) == 64
    finally:
        srv.stop()


def test_shutdown_signs_the_last_events(new_database) -> None:
    url = new_database()
    srv = Server(url, env={"TABLESIDE_CHECKPOINT_MINUTES": "0"}).start()
    try:
        head = Api(srv.base).login()
        assert head.create(4, ["Mari"], ["Ott"]).status_code == 201
        assert _latest_stored(url) == 0
    finally:
        srv.stop()
    assert _latest_stored(url) == _head(url) > 0


def test_the_record_download_verifies_offline_with_the_public_key(
    new_database, tmp_path: Path
) -> None:
    srv = Server(new_database(), env={"TABLESIDE_CHECKPOINT_MINUTES": "0"}).start()
    try:
        head = Api(srv.base).login()
        match = record_match(head, table=6, games=1)
        r = auditor(head).get(f"/api/matches/{match.match_id}/record.jsonl")
        assert r.status_code == 200, r.text
        published = Api(srv.base).get("/api/checkpoints/latest").json()
    finally:
        srv.stop()
    header = json.loads(r.content.splitlines()[0])
    assert header["checkpoint"]["public_key"] == published["public_key"]
    path = tmp_path / "match.jsonl"
    path.write_bytes(r.content)
    key = published["public_key"]
    ok = _verify(path, key)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert ok.stdout.startswith("ok: ") and f"its signature against key {key[:16]}" in ok.stdout

    header["checkpoint"]["position"] += 1  # a checkpoint edited in the file
    lines = r.content.splitlines(keepends=True)
    path.write_bytes(json.dumps(header).encode() + b"\n" + b"".join(lines[1:]))
    assert _verify(path, key).returncode == 1


def _verify(path: Path, key: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TABLESIDE, "audit", "verify", "--file", str(path), "--public-key", key],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_two_nodes_signing_the_same_head_store_one_checkpoint(
    database_url: str, checkpoint_key: Path
) -> None:
    """Issue 32: nodes on one database sign one at a time (an advisory lock): two taking a
    checkpoint of the same new head at once store it once, every round."""
    import asyncio
    import uuid

    import asyncpg
    from store_events import TEST_EVENT_TYPES, PuckPocketed
    from tableside.db import roles
    from tableside.db.url import with_user
    from tableside.eventlog import EventRegistry, EventStore
    from tableside.eventlog.checkpoint_db import take_async
    from tableside.eventlog.checkpoints import load_or_create_key

    url = with_user(database_url, roles.APP_ROLE)
    # Every node has the same key file (README), the one registered at migrate time (#29).
    keys = (load_or_create_key(checkpoint_key), load_or_create_key(checkpoint_key))
    stream = uuid.uuid4()

    async def rounds(store: EventStore) -> list[int]:
        pools = [await asyncpg.create_pool(url, min_size=1, max_size=1) for _ in keys]
        stored = []
        try:
            for version in range(12):
                store.append(
                    stream, [PuckPocketed("Mari", version + 1)], expected_version=version,
                    command_id=uuid.uuid4(), meta={"device_id": "tab-1"},
                )  # fmt: skip
                await asyncio.gather(*(take_async(p, k) for p, k in zip(pools, keys, strict=True)))
                async with pools[0].acquire() as conn:
                    stored.append(await conn.fetchval("SELECT count(*) FROM event_checkpoints"))
        finally:
            for pool in pools:
                await pool.close()
        return stored

    with EventStore.connect(EventRegistry(*TEST_EVENT_TYPES), url) as store:
        assert run_async(rounds(store)) == list(range(1, 13))
