"""Witnesses outside the database hold the owner to the record (#29).

The attacker has the owner's (or a superuser's) password: triggers off, events changed or
removed, both chains re-linked, and `DELETE FROM event_checkpoints`. Before #29 `audit
verify` said ok to all of these ("0 checkpoints reached"); the signer's log beside its key
(every checkpoint it signed, fsync'd) and any `--witness` file now catch each one, naming the
witness. Store layout as in test_global_chain.py: 3 streams × 3 versions, positions 1–9.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from support.harness import Api, Server, wait_for
from tableside.db import roles
from tableside.db.url import with_user
from tamper import attack, move_positions, relink_global, relink_stream

TABLESIDE = str(Path(sys.executable).with_name("tableside"))


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return tmp_path / "signer" / "checkpoint-ed25519.log"


def audit(
    url: str, *args: str, log: Path | None = None, key: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """`tableside audit ARGS` on the store at `url`, with the log (else none) and the key
    (else the session's)."""
    env = {**os.environ, "DATABASE_URL": url}
    env["TABLESIDE_CHECKPOINT_LOG"] = str(log) if log else "off"
    if key is not None:
        env["TABLESIDE_KEY_FILE"] = str(key)
    return subprocess.run(
        [TABLESIDE, "audit", *args], env=env, capture_output=True, text=True, timeout=60
    )


def _signed(app_url: str, log: Path) -> None:
    log.parent.mkdir(parents=True, exist_ok=True)
    done = audit(app_url, "checkpoint", log=log)
    assert done.returncode == 0, done.stderr
    assert len(log.read_text().splitlines()) == 1


def _fails_naming(done: subprocess.CompletedProcess[str], witness: str, what: str) -> None:
    assert done.returncode == 1, done.stdout + done.stderr
    assert witness in done.stdout and what in done.stdout, done.stdout


def test_the_log_is_a_witness_and_verify_says_what_it_checked(streams, app_url, log) -> None:
    _signed(app_url, log)
    done = audit(app_url, "verify", log=log)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("ok: 9 events in 3 streams"), done.stdout
    assert "per-stream and store-wide chains" in done.stdout
    assert "1 checkpoints reached (stored)" in done.stdout
    assert f"the signer's log {log}: 1 checkpoints reached" in done.stdout
    assert "signatures against key" in done.stdout


def test_without_any_witness_verify_says_so(streams, app_url) -> None:
    done = audit(app_url, "verify")
    assert done.returncode == 0, done.stdout
    assert done.stdout.startswith("ok, unwitnessed, unsigned: 9 events"), done.stdout
    assert "the signer's log is off" in done.stdout


def test_an_owner_rewrite_with_the_checkpoints_deleted_is_found_by_the_log(
    streams, app_url, database_url, log
) -> None:
    _signed(app_url, log)
    attack(
        database_url,
        'UPDATE stored_events SET state = convert_to(\'{"player":"Ott","count":1}\', \'UTF8\')'
        f" WHERE originator_id = '{streams[0]}' AND originator_version = 1",
        relink_stream(streams[0]),
        relink_global(),
        "DELETE FROM event_checkpoints",
    )
    done = audit(app_url, "verify")  # the keys' history tells (#50: schema/013)
    assert done.returncode == 1 and "stored checkpoints were deleted" in done.stdout, done.stdout
    _fails_naming(audit(app_url, "verify", log=log), "the signer's log", "the checkpoint says")


def test_a_full_rewrite_is_found_by_the_log(streams, app_url, database_url, log) -> None:
    _signed(app_url, log)
    attack(  # every event re-dated, two swapped, both chains recomputed from scratch
        database_url,
        "UPDATE stored_events SET recorded_at = recorded_at - interval '1 hour'",
        *move_positions([(1, 2), (2, 1)]),
        *(relink_stream(s) for s in streams),
        relink_global(),
        "DELETE FROM event_checkpoints",
    )
    _fails_naming(audit(app_url, "verify", log=log), "the signer's log", "the checkpoint says")


def test_a_removed_tail_is_found_by_the_log(streams, app_url, database_url, log) -> None:
    _signed(app_url, log)
    attack(
        database_url,
        "DELETE FROM stored_events WHERE notification_id >= 8",
        "DELETE FROM event_checkpoints",
    )
    _fails_naming(audit(app_url, "verify", log=log), "the signer's log", "events were removed")


def test_deleted_checkpoints_alone_are_found_by_the_log(
    streams, app_url, database_url, log
) -> None:
    _signed(app_url, log)
    attack(database_url, "DELETE FROM event_checkpoints")
    _fails_naming(
        audit(app_url, "verify", log=log), "signer's log holds 1", "checkpoints were deleted"
    )


def test_a_witness_file_and_folder_hold_the_store(
    streams, app_url, database_url, tmp_path: Path, log
) -> None:
    _signed(app_url, log)
    folder = tmp_path / "mirror"
    folder.mkdir()
    (folder / "a.json").write_text(audit(app_url, "checkpoint", "--print").stdout)
    assert audit(app_url, "verify", "--witness", str(folder)).returncode == 0
    attack(
        database_url,
        "DELETE FROM stored_events WHERE notification_id >= 9",
        "DELETE FROM event_checkpoints",
    )
    _fails_naming(
        audit(app_url, "verify", "--witness", str(folder)), f"witness {folder}", "removed"
    )
    _fails_naming(audit(app_url, "verify", "--witness", str(log)), f"witness {log}", "removed")


def test_a_witness_that_is_not_checkpoints_is_refused(streams, app_url, tmp_path: Path) -> None:
    junk = tmp_path / "junk.json"
    junk.write_text(json.dumps({"position": 1}))
    done = audit(app_url, "verify", "--witness", str(junk))
    assert done.returncode == 2
    assert f"{junk}, line 1" in done.stderr


def test_the_server_keeps_every_checkpoint_it_signs_in_its_log(new_database, log) -> None:
    url = new_database()
    srv = Server(
        url, env={"TABLESIDE_CHECKPOINT_MINUTES": "0", "TABLESIDE_CHECKPOINT_LOG": str(log)}
    ).start()
    try:
        head = Api(srv.base).login()
        assert head.create(4, ["Mari"], ["Ott"]).status_code == 201
    finally:
        srv.stop()
    kept = [json.loads(line) for line in log.read_text().splitlines()]
    with psycopg.connect(url) as conn:
        stored = conn.execute("SELECT position, encode(signature, 'hex') FROM event_checkpoints")
        assert [(k["position"], k["signature"]) for k in kept] == stored.fetchall()
    assert oct(log.stat().st_mode & 0o777) == "0o600"


def test_a_mirror_on_another_machine_holds_the_store(new_database, tmp_path: Path) -> None:
    """`audit witness` keeps a running server's checkpoints (a bounded loop, here over
    loopback); after the owner removes the newest events and every stored checkpoint,
    `audit verify --witness DIR` names the mirror."""
    url = new_database()
    srv = Server(url, env={"TABLESIDE_CHECKPOINT_MINUTES": "0.01"}).start()
    mirror = tmp_path / "mirror"
    try:
        head = Api(srv.base).login()
        assert head.create(4, ["Mari"], ["Ott"]).status_code == 201
        app = with_user(url, roles.APP_ROLE)
        with psycopg.connect(app) as conn:
            last = conn.execute("SELECT max(notification_id) FROM stored_events").fetchone()[0]
        wait_for(
            lambda: (
                (r := Api(srv.base).get("/api/checkpoints/latest")).status_code == 200
                and r.json()["position"] == last
            ),
            timeout=30,
        )
        watch = ["audit", "witness", "--url", srv.base, "--out", str(mirror)]
        done = subprocess.run(
            [TABLESIDE, *watch, "--every", "0.001", "--times", "2"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        assert len(list(mirror.iterdir())) == 1  # the same checkpoint twice is kept once
        assert audit(app, "verify", "--witness", str(mirror)).returncode == 0
        attack(url, f"DELETE FROM stored_events WHERE notification_id = {last}")
        attack(url, "DELETE FROM event_checkpoints")
        _fails_naming(
            audit(app, "verify", "--witness", str(mirror)), f"witness {mirror}", "removed"
        )
    finally:
        srv.stop()
