"""Issue 49, done when (b): after the federation witnessed a match, the laptop's owner
deletes the signer's log and the stored checkpoints and rewrites the result (as the database
superuser, both chains re-linked with the schema's own functions: tests/eventlog/tamper.py)
and starts the venue again. The federation refuses the fork (a coded 409, the alarm kept and
served), keeps what it witnessed; the venue's `/health` and console say so; and
`tableside audit verify --witness <the federation's acknowledgement>` exits non-zero, where
it exited 0 before the rewrite."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import msgspec
from support.federation import (
    KEPT_ROWS,
    caught_up,
    enrolment_code,
    federation_server,
    records,
    rewrite_result,
    status,
    venue_env,
)
from support.harness import Api, Server, wait_for
from support.recorded import record_match
from tableside.db import roles
from tableside.db.url import with_user
from tableside.eventlog import federation_ack

TABLESIDE = str(Path(sys.executable).with_name("tableside"))


def audit(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": url, "TABLESIDE_CHECKPOINT_LOG": "off"}
    return subprocess.run(
        [TABLESIDE, "audit", *args], env=env, capture_output=True, text=True, timeout=60
    )


def test_a_rewrite_after_the_federation_witnessed_is_a_refused_fork(
    new_database, federation_database, tmp_path
) -> None:
    venue_url = new_database()
    fed = federation_server(federation_database, tmp_path).start()
    uplink, log = tmp_path / "uplink", tmp_path / "signer" / "checkpoint-ed25519.log"
    env = venue_env(
        fed.base,
        enrolment_code(fed.base),
        uplink,
        TABLESIDE_CHECKPOINT_MINUTES="0.02",
        TABLESIDE_CHECKPOINT_LOG=str(log),
    )
    try:
        venue = Server(venue_url, env=env).start()
        try:
            m1 = record_match(Api(venue.base).login(), table=3, games=1).match_id
            assert Api(venue.base).get(f"/api/receipts/{m1}").status_code == 200
            wait_for(lambda: caught_up(uplink, venue_url), timeout=60)
        finally:
            venue.stop()
        venue_id = json.loads((uplink / "credential.json").read_bytes())["venue_id"]
        about = Api(fed.base).get(f"/api/federation/venues/{venue_id}").json()
        witness = tmp_path / "federation-ack.jsonl"
        witness.write_bytes(
            federation_ack.encode(msgspec.convert(about["ack"], federation_ack.Ack))
        )
        fed_key = Api(fed.base).get("/api/federation/key").json()["public_key"]
        app = with_user(venue_url, roles.APP_ROLE)
        before = audit(app, "verify", "--witness", str(witness), "--federation-key", fed_key)
        assert before.returncode == 0, before.stdout + before.stderr
        assert "federation acknowledgements reached" in before.stdout
        kept = records(federation_database, KEPT_ROWS, venue_id)

        rewrite_result(venue_url, m1)
        log.unlink()
        venue = Server(venue_url, env=env).start()
        try:
            wait_for(lambda: status(uplink).get("state") == "forked", timeout=60)
            health = Api(venue.base).get("/health").json()
            assert health["status"] == "disputed", health
            assert health["federation"]["code"] == "federation_fork_head", health
            seen = Api(venue.base).login().get("/api/witnesses/newest").json()
            assert seen["federation"]["state"] == "forked", seen
        finally:
            venue.stop()

        alarms = Api(fed.base).get(f"/api/federation/venues/{venue_id}/alarms").json()
        assert [a["code"] for a in alarms] == ["federation_fork_head"], alarms
        assert alarms[0]["position"] == about["ack"]["position"]
        assert alarms[0]["held_hash"] == about["ack"]["head_hash"]
        assert alarms[0]["offered_hash"] != alarms[0]["held_hash"]
        assert records(federation_database, KEPT_ROWS, venue_id) == kept  # what it witnessed
        after = audit(app, "verify", "--witness", str(witness), "--federation-key", fed_key)
        assert after.returncode == 1, after.stdout + after.stderr
        assert "the federation's acknowledgement" in after.stdout, after.stdout
    finally:
        fed.stop()
