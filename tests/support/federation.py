"""A federation beside a venue for the tests (issue 49): a federation process on its own
database, its admin, an enrolment code, and what a venue pushing to it is started with."""

from __future__ import annotations

from pathlib import Path

from tableside.db import roles
from tableside.db.url import with_user

from support.harness import Api, Server

FED_ADMIN = ("fedadmin", "fed-admin-secret-1")


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
