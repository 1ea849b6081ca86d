"""The head judge's console collects the devices' witnesses into the audit (#41, point 6):
a device's exported checkpoint is checked (the venue's key, the store's head there) and
recorded as an event; the console learns when the newest witness outside the machine was
taken and whether it is older than the checkpoint interval; a stranger's file is refused,
and a witness holding a head the store no longer yields makes the record disputed."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from store_events import stored_of
from support.harness import Api, Server, wait_for
from tableside.db import roles
from tableside.db.url import with_user
from tableside.eventlog import checkpoints
from test_witnesses import audit


def _post(head: Api, body: str):
    return head.http.post(
        "/api/witnesses",
        headers={**head.headers(), "Content-Type": "application/jsonl"},
        content=body.encode(),
    )


def _stale(head: Api):
    seen = head.get("/api/witnesses/newest").json()
    return seen if seen["stale"] else None


def test_the_console_collects_witnesses_and_says_how_old_the_newest_is(
    new_database, checkpoint_key: Path
) -> None:
    url = new_database()
    srv = Server(url, env={"TABLESIDE_CHECKPOINT_MINUTES": "0.1"}).start()  # 6 s
    try:
        head = Api(srv.base).login()
        assert head.create(4, ["Mari"], ["Ott"]).status_code == 201
        done = audit(with_user(url, roles.APP_ROLE), "checkpoint", "--print")
        assert done.returncode == 0, done.stderr
        device = json.loads(done.stdout)  # what a pad exported
        before = wait_for(lambda: _stale(head), timeout=90, step=0.2)  # waited 6 s
        assert before["at"] is None
        assert Api(srv.base).get("/api/witnesses/newest").status_code == 401

        answer = _post(head, json.dumps(device) + "\n")
        assert answer.status_code == 200, answer.text
        assert answer.json() == {"recorded": 1, "newest": device["position"]}
        after = head.get("/api/witnesses/newest").json()
        assert after["at"] is not None and after["stale"] is False and after["source"] == "device"

        stranger = checkpoints.sign(Ed25519PrivateKey.generate(), device["position"], bytes(32))
        refused = _post(head, msgspec.json.encode(stranger).decode())
        assert refused.status_code == 422, refused.text
        assert refused.json()["code"] == "witness_refused" and "line 1" in refused.json()["reason"]

        venue = checkpoints.load_or_create_key(checkpoint_key)
        fork = checkpoints.sign(venue, device["position"], b"\x02" * 32)
        forked = _post(head, msgspec.json.encode(fork).decode())
        assert forked.status_code == 409, forked.text
        assert forked.json()["code"] == "record_disputed"
        assert Api(srv.base).get("/health").json()["status"] == "disputed"
    finally:
        srv.stop()
    assert [k["held"] for k in stored_of(url, "CheckpointWitnessed")] == [True, False]
