"""A federation beside a venue for the tests (issue 49): a federation process on its own
database, its admin, an enrolment code, and what a venue pushing to it is started with."""

from __future__ import annotations

import json
import sys
import uuid
from pathlib import Path

import psycopg
from tableside.db import roles
from tableside.db.url import with_dbname, with_user
from tableside.eventlog.records import RAW_COLUMNS, RawRecord
from tableside.federation.database import migrate

from support.harness import Api, Server

FED_ADMIN = ("fedadmin", "fed-admin-secret-1")

VENUE_ROWS = f"SELECT {RAW_COLUMNS} FROM stored_events ORDER BY notification_id"
KEPT_ROWS = (
    "SELECT stream_id, version, position, type_name, payload, recorded_at, command_id, meta,"
    " prev_hash, hash, global_hash FROM venue_events WHERE venue_id = %s ORDER BY position"
)


def records(url: str, query: str, *params) -> list[RawRecord]:
    with psycopg.connect(url) as conn:
        found = conn.execute(query, params).fetchall()
    return [RawRecord(*(bytes(v) if isinstance(v, memoryview) else v for v in r)) for r in found]


def venue_head(url: str) -> int:
    with psycopg.connect(url) as conn:
        return conn.execute(
            "SELECT coalesce(max(notification_id), 0) FROM stored_events"
        ).fetchone()[0]


def status(folder: Path) -> dict:
    path = folder / "status.json"
    return json.loads(path.read_bytes()) if path.is_file() else {}


def caught_up(folder: Path, venue_url: str) -> bool:
    seen = status(folder)
    return seen.get("state") == "witnessed" and seen.get("position") == venue_head(venue_url)


def new_federation_database(pg_server_url: str) -> str:
    """The URL (superuser) of a fresh federation database on the session's PostgreSQL,
    migrated from schema/federation/ as its owner, its server role granted."""
    name = f"tableside_federation_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"'.encode())
    url = with_dbname(pg_server_url, name)
    owner_url, _ = roles.setup(url)
    migrate(owner_url, roles.APP_ROLE)
    return url


def federation_server(url: str, folder: Path, port: int | None = None) -> Server:
    """A federation process on `url` (as its server role), its key in `folder`."""
    env = {
        "TABLESIDE_FEDERATION_DATABASE_URL": with_user(url, roles.APP_ROLE),
        "TABLESIDE_FEDERATION_KEY_FILE": str(folder / "federation-ed25519.pem"),
        "TABLESIDE_FEDERATION_ADMIN_USER": FED_ADMIN[0],
        "TABLESIDE_FEDERATION_ADMIN_PASSWORD": FED_ADMIN[1],
    }
    server = Server(url, env=env, factory="tableside.federation.asgi:from_env")
    if port is not None:
        server.port = port
    return server


def admin(base: str) -> Api:
    """The federation admin, signed in."""
    api = Api(base)
    r = api.http.post(
        "/api/federation/login", json={"username": FED_ADMIN[0], "password": FED_ADMIN[1]}
    )
    r.raise_for_status()
    api.token = r.json()["token"]
    return api


def enrolment_code(base: str, venue_name: str = "Tallinna klubi") -> str:
    staff = admin(base)
    r = staff.http.post(
        "/api/federation/codes", json={"venue_name": venue_name}, headers=staff.headers()
    )
    r.raise_for_status()
    return r.json()["code"]


def venue_env(federation_base: str, code: str, folder: Path, **more: str) -> dict[str, str]:
    """What a venue server pushing to the federation is started with."""
    return {
        "TABLESIDE_FEDERATION_URL": federation_base,
        "TABLESIDE_FEDERATION_CODE": code,
        "TABLESIDE_UPLINK_DIR": str(folder),
        "TABLESIDE_UPLINK_SECONDS": "0.1",
        "TABLESIDE_UPLINK_BACKOFF_MAX": "1",
        **more,
    }


TAMPER = Path(__file__).parents[1] / "eventlog"


def rewrite_result(url: str, match_id: str) -> None:
    """The owner's rewrite (as the superuser, tests/eventlog/tamper.py): the match's winner
    flipped, both chains re-linked with the schema's own functions, checkpoints deleted."""
    sys.path.insert(0, str(TAMPER))
    from tamper import attack, flip_winner, relink_global, relink_stream

    attack(
        url,
        flip_winner(match_id),
        relink_stream(uuid.UUID(match_id)),
        relink_global(),
        "DELETE FROM event_checkpoints",
    )
