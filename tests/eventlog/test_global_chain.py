"""`audit verify` finds every rewrite of the store, even one that re-links each stream's chain.

The attacker here has the owner's password: triggers off, UPDATE/DELETE/INSERT at will,
and each stream's chain recomputed afterwards (tests/eventlog/tamper.py). The store-wide chain
(schema/006) finds reorders, insertions and removals inside the store; a signed checkpoint
(schema/007) finds the removal of the newest events and a rewrite of the whole chain.

Store layout in every test: 3 streams × 3 versions, appended round-robin, so positions are
v1: 1 2 3, v2: 4 5 6, v3: 7 8 9 (streams s0 s1 s2).
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from tableside.db import roles
from tableside.db.url import with_user
from tableside.eventlog import checkpoints
from tableside.eventlog.checkpoint_db import insert, latest_checkpoint
from tamper import ZERO, attack, move_positions, relink_global, relink_stream

TABLESIDE = str(Path(sys.executable).with_name("tableside"))


def audit(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TABLESIDE, "audit", *args],
        env={**os.environ, "DATABASE_URL": url},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def assert_broken_at(app_url: str, position: int, field: str = "global_hash") -> None:
    done = audit(app_url, "verify")
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"(position {position}): {field} expected" in done.stdout


def test_an_untouched_store_verifies_with_its_checkpoint(streams, app_url: str) -> None:
    assert audit(app_url, "checkpoint").returncode == 0
    done = audit(app_url, "verify")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("ok, unwitnessed: 9 events in 3 streams"), done.stdout
    assert "1 checkpoints reached" in done.stdout


def test_a_changed_byte_is_found_even_with_the_stream_relinked(
    streams, app_url: str, database_url: str
) -> None:
    s1 = streams[1]
    attack(
        database_url,
        "UPDATE stored_events SET state = convert_to(replace(convert_from(state, 'UTF8'),"
        " '\"puck\":2', '\"puck\":7'), 'UTF8') WHERE notification_id = 5",
        relink_stream(s1),
    )
    assert audit(app_url, "verify", "--stream", str(s1)).returncode == 0  # its own chain holds
    assert_broken_at(app_url, 5)


def test_a_deleted_event_is_found_even_with_the_positions_closed_up(
    streams, app_url: str, database_url: str
) -> None:
    # s0's last event: its own chain still ends cleanly, and positions are renumbered.
    attack(
        database_url,
        "DELETE FROM stored_events WHERE notification_id = 7",
        *move_positions([(8, 7), (9, 8)]),
    )
    assert_broken_at(app_url, 7)


def test_a_same_stream_swap_is_found_even_with_the_stream_relinked(
    streams, app_url: str, database_url: str
) -> None:
    swap = (
        "UPDATE stored_events t SET state = o.state, command_id = o.command_id"
        " FROM stored_events o WHERE (t.notification_id, o.notification_id) IN ((5, 8), (8, 5))"
    )
    attack(database_url, swap, relink_stream(streams[1]))
    assert_broken_at(app_url, 5)


def test_a_cross_stream_position_swap_is_found(streams, app_url: str, database_url: str) -> None:
    # s0 v1 and s1 v1 trade global positions: each stream's chain and the density still hold.
    attack(database_url, *move_positions([(1, 2), (2, 1)]))
    assert_broken_at(app_url, 1)


def test_an_inserted_event_is_found(streams, app_url: str, database_url: str) -> None:
    # A new stream's well-formed first event slipped in at position 4, later ones moved up;
    # its own link and even its global link are computed correctly.
    intruder, command = uuid.uuid4(), uuid.uuid4()
    insert = f"""
WITH e AS (
    SELECT '{intruder}'::uuid AS id, timestamptz '2026-05-01 10:00:00+00' AS at,
           '{command}'::uuid AS cmd, 'test.PuckPocketed' AS topic,
           convert_to('{{"player":"Eve","puck":9}}', 'UTF8') AS state
), h AS (
    SELECT e.*, tableside_link_hash({ZERO}, e.id, 1, e.at, e.cmd, e.topic, e.state, '{{}}')
           AS link FROM e
)
INSERT INTO stored_events (originator_id, originator_version, topic, state, notification_id,
    recorded_at, command_id, meta, prev_hash, hash, global_hash)
SELECT id, 1, topic, state, 4, at, cmd, '{{}}', {ZERO}, link,
       tableside_global_hash((SELECT global_hash FROM stored_events WHERE notification_id = 3),
                             4, id, 1, link)
FROM h"""
    attack(database_url, *move_positions((p, p + 1) for p in range(9, 3, -1)), insert)
    assert_broken_at(app_url, 5)


def test_removing_the_newest_events_is_found_by_the_stored_checkpoint(
    streams, app_url: str, database_url: str
) -> None:
    assert audit(app_url, "checkpoint").returncode == 0
    attack(database_url, "DELETE FROM stored_events WHERE notification_id >= 8")
    done = audit(app_url, "verify")
    assert done.returncode == 1
    assert "the store ends at position 7" in done.stdout and "events were removed" in done.stdout


def test_removing_the_newest_events_is_found_by_a_published_checkpoint(
    streams, app_url: str, database_url: str, tmp_path: Path
) -> None:
    published = tmp_path / "checkpoint.json"
    done = audit(app_url, "checkpoint", "--print")
    published.write_text(done.stdout)
    # The attacker removes the events and the stored checkpoints with them.
    attack(
        database_url,
        "DELETE FROM stored_events WHERE notification_id >= 8",
        "DELETE FROM event_checkpoints",
    )
    done = audit(app_url, "verify")  # the keys' history tells (#50: schema/013)
    assert done.returncode == 1 and "stored checkpoints were deleted" in done.stdout, done.stdout
    done = audit(app_url, "verify", "--checkpoint", str(published))
    assert done.returncode == 1
    assert "covers position 9: events were removed" in done.stdout


def test_a_rewrite_that_recomputes_every_chain_is_found_by_the_checkpoint(
    streams, app_url: str, database_url: str
) -> None:
    assert audit(app_url, "checkpoint").returncode == 0
    attack(database_url, *move_positions([(1, 2), (2, 1)]), relink_global())
    done = audit(app_url, "verify")
    assert done.returncode == 1
    assert "the store-wide chain at position 9 is" in done.stdout
    assert "the checkpoint says" in done.stdout


def _plant(database_url: str, checkpoint: checkpoints.Checkpoint) -> None:
    """The owner inserts a checkpoint past the signature check (the app role cannot)."""
    with psycopg.connect(with_user(database_url, roles.OWNER_ROLE)) as conn:
        conn.execute(
            "INSERT INTO event_checkpoints (position, head_hash, signed_at, public_key, signature)"
            " VALUES (%s, %s, %s, %s, %s)",
            (
                checkpoint.position,
                bytes.fromhex(checkpoint.head_hash),
                checkpoint.time,
                bytes.fromhex(checkpoint.public_key),
                bytes.fromhex(checkpoint.signature),
            ),
        )


def test_a_checkpoint_with_a_bad_signature_fails(streams, app_url: str, database_url: str) -> None:
    assert audit(app_url, "checkpoint").returncode == 0
    with psycopg.connect(app_url) as conn:
        good = latest_checkpoint(conn)
    flipped = f"{int(good.signature[:2], 16) ^ 1:02x}{good.signature[2:]}"
    _plant(
        database_url,
        checkpoints.Checkpoint(good.position, good.head_hash, good.time, good.public_key, flipped),
    )
    done = audit(app_url, "verify")
    assert done.returncode == 1
    assert "checkpoint at position 9 has a bad signature" in done.stdout


def test_a_checkpoint_signed_by_another_key_fails(streams, app_url: str, database_url: str) -> None:
    stranger = Ed25519PrivateKey.generate()
    with psycopg.connect(app_url) as conn:
        head = conn.execute(
            "SELECT global_hash FROM stored_events WHERE notification_id = 9"
        ).fetchone()[0]
    _plant(database_url, checkpoints.sign(stranger, 9, bytes(head)))
    done = audit(app_url, "verify")
    assert done.returncode == 1
    assert "not the trusted key" in done.stdout


def test_a_checkpoint_must_name_the_stored_head(streams, app_url: str, checkpoint_key) -> None:
    key = checkpoints.load_or_create_key(checkpoint_key)
    with (
        psycopg.connect(app_url) as conn,
        pytest.raises(psycopg.errors.CheckViolation, match="does not name the stored"),
    ):
        insert(conn, checkpoints.sign(key, 9, bytes(32)))
