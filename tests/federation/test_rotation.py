"""Key rotations follow (issue 49, point 2; decision 0166 rule 6): the venue enrolled with its
key, `tableside keys rotate` replaces it on the record (the old key signs the new one, a
`KeyRotated` event); the federation follows the rotation from the pushed record itself,
keeps the checkpoints the new key signs, and raises no alarm."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import psycopg
from support.federation import caught_up, enrolment_code, federation_server, venue_env
from support.harness import Api, Server, wait_for
from support.recorded import record_match
from tableside.eventlog.checkpoints import load_or_create_key, public_hex

TABLESIDE = str(Path(sys.executable).with_name("tableside"))


def recorded(venue_url: str, env: dict, table: int, uplink: Path) -> None:
    venue = Server(venue_url, env=env).start()
    try:
        head = Api(venue.base).login()
        match = record_match(head, table=table, games=1).match_id
        assert Api(venue.base).get(f"/api/receipts/{match}").status_code == 200
        wait_for(lambda: caught_up(uplink, venue_url), timeout=60)
    finally:
        venue.stop()


def test_a_rotated_venue_key_is_followed_from_the_record(
    new_database, federation_database, checkpoint_key: Path, tmp_path: Path
) -> None:
    venue_url = new_database()
    key = tmp_path / "keys" / "checkpoint-ed25519.pem"
    key.parent.mkdir(mode=0o700)
    shutil.copy(checkpoint_key, key)
    old = public_hex(load_or_create_key(key))
    fed = federation_server(federation_database, tmp_path).start()
    try:
        uplink = tmp_path / "uplink"
        env = venue_env(
            fed.base,
            enrolment_code(fed.base),
            uplink,
            TABLESIDE_KEY_FILE=str(key),
            TABLESIDE_CHECKPOINT_LOG=str(key.with_suffix(".log")),
            TABLESIDE_CHECKPOINT_MINUTES="0",
        )
        recorded(venue_url, env, 3, uplink)
        cli = {**os.environ, **env, "DATABASE_URL": venue_url}
        done = subprocess.run(
            [TABLESIDE, "keys", "rotate"], env=cli, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stdout + done.stderr
        new = public_hex(load_or_create_key(key))
        assert new != old
        recorded(venue_url, env, 4, uplink)

        venue_id = json.loads((uplink / "credential.json").read_bytes())["venue_id"]
        about = Api(fed.base).get(f"/api/federation/venues/{venue_id}").json()
        assert [k["public_key"] for k in about["keys"]] == [old, new], about
        assert about["alarms"] == 0
        with psycopg.connect(federation_database) as conn:
            signers = {
                bytes(r[0]).hex()
                for r in conn.execute(
                    "SELECT public_key FROM venue_checkpoints WHERE venue_id = %s", (venue_id,)
                )
            }
        assert new in signers, signers
    finally:
        fed.stop()
