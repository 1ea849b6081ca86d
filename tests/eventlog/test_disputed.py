"""The server never vouches for a record it cannot prove (#41): the dishonest organiser's
rewrite, as the issue measured it. A finished match M1 is receipted (which signs a
checkpoint, kept in the signer's log), the server stops; as the database superuser M1's
winner is flipped (`GameEnded` and `MatchEnded`), both chains are re-linked with the schema's
own functions and every stored checkpoint is deleted; the server starts again on that store
with its own key and log. Then: it signs nothing, `/health` says disputed, the audit face's
verify of M1 is not "ok", and no receipt is issued for the forged result.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import psycopg
import pytest
from store_events import stored_of
from support.harness import Api, Server
from support.recorded import auditor, record_match
from tableside.db import roles
from tableside.db.url import with_user
from tamper import attack, flip_winner, relink_global, relink_stream
from test_witnesses import audit


def _stored_checkpoints(url: str) -> int:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT count(*) FROM event_checkpoints").fetchone()[0]


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return tmp_path / "signer" / "checkpoint-ed25519.log"


def test_the_rewrite_is_disputed_unsigned_unvouched_and_unreceipted_until_accepted(
    new_database, log
) -> None:
    url = new_database()
    env = {"TABLESIDE_CHECKPOINT_MINUTES": "0", "TABLESIDE_CHECKPOINT_LOG": str(log)}
    srv = Server(url, env=env).start()
    try:
        head = Api(srv.base).login()
        m1 = record_match(head, table=3, games=1).match_id
        assert Api(srv.base).get(f"/api/receipts/{m1}").status_code == 200
        health = Api(srv.base).get("/health").json()
        assert health["status"] == "ok" and health["record"] == {"state": "ok"}, health
    finally:
        srv.stop()
    signed = log.read_bytes().splitlines()
    assert signed and _stored_checkpoints(url) == len(signed)

    attack(
        url,
        flip_winner(m1),
        relink_stream(uuid.UUID(m1)),
        relink_global(),
        "DELETE FROM event_checkpoints",
    )
    srv = Server(url, env=env).start()
    try:
        health = Api(srv.base).get("/health").json()
        assert health["status"] == "disputed", health
        assert health["record"]["state"] == "disputed"
        assert health["record"]["code"] == "head_changed", health
        assert "the signer's log" in health["record"]["reason"]

        jury = auditor(Api(srv.base).login())
        verdict = jury.get(f"/api/matches/{m1}/verify").json()
        assert verdict["verdict"] != "ok" and not verdict["verdict"].startswith("ok"), verdict
        assert verdict["intact"] is False
        assert verdict["disputed"]["code"] == "head_changed"

        refused = Api(srv.base).get(f"/api/receipts/{m1}")
        assert refused.status_code == 409, refused.text
        assert refused.json()["code"] == "record_disputed"
        assert Api(srv.base).get(f"/receipt/{m1}").status_code == 409
        assert (
            Api(srv.base).get("/api/checkpoints/latest").status_code == 204
        )  # none signed (issue 45: a state, not an error)
    finally:
        srv.stop()  # its shutdown checkpoint is refused too
    assert _stored_checkpoints(url) == 0
    assert log.read_bytes().splitlines() == signed
    assert all("prev" in json.loads(line) for line in signed)

    # Only `serve --accept-disputed` goes past: recorded as an event and in the log, then
    # signed again; once accepted, a plain start is not disputed; the audit still fails.
    srv = Server(url, env={**env, "TABLESIDE_ACCEPT_DISPUTED": "1"}).start()
    try:
        assert Api(srv.base).get("/health").json()["record"] == {"state": "ok"}
        assert Api(srv.base).get(f"/api/receipts/{m1}").status_code == 200
    finally:
        srv.stop()
    accepted = stored_of(url, "RecordDisputeAccepted")
    assert len(accepted) == 1 and accepted[0]["code"] == "head_changed", accepted
    assert any(b'"accepted"' in line for line in log.read_bytes().splitlines())
    srv = Server(url, env=env).start()
    try:
        assert Api(srv.base).get("/health").json()["status"] == "ok"
    finally:
        srv.stop()
    done = audit(with_user(url, roles.APP_ROLE), "verify", log=log)
    assert done.returncode == 1 and "the signer's log" in done.stdout, done.stdout


def test_a_store_whose_log_is_gone_but_whose_checkpoints_hold_is_not_disputed(
    new_database, log
) -> None:
    """What a restored store, a promoted standby or a new node looks like (decision 0120):
    stored checkpoints, no log here; every head still holds, so the signer adopts them into
    a new log and signs on, and `audit verify` holds the store to that log."""
    url = new_database()
    env = {"TABLESIDE_CHECKPOINT_MINUTES": "0", "TABLESIDE_CHECKPOINT_LOG": str(log)}
    srv = Server(url, env=env).start()
    try:
        assert Api(srv.base).login().create(4, ["Mari"], ["Ott"]).status_code == 201
    finally:
        srv.stop()  # the shutdown checkpoint, stored and logged
    log.unlink()
    srv = Server(url, env=env).start()
    try:
        assert Api(srv.base).get("/health").json()["record"] == {"state": "ok"}
    finally:
        srv.stop()
    adopted = [json.loads(line) for line in log.read_bytes().splitlines()]
    assert adopted and all(line.get("adopted") for line in adopted)
    assert _stored_checkpoints(url) == len(adopted)
    done = audit(with_user(url, roles.APP_ROLE), "verify", log=log)
    assert done.returncode == 0, done.stdout + done.stderr
