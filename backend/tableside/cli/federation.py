"""`tableside federation serve|code|staff`: the federation service (issue 49).

- `serve`: its own PostgreSQL (embedded in `--data-dir`, default var/federation/pgdata, as
  `serve` embeds the venue's; `TABLESIDE_FEDERATION_DATABASE_URL` for a real cluster, with
  `TABLESIDE_FEDERATION_MIGRATE_URL` as the owner), its migrations (`schema/federation/`),
  then the app on `--host`/`--port` (default 127.0.0.1:8100).
- `code VENUE_NAME`: a one-time enrolment code for a venue (printed once; the admin's API
  `POST /api/federation/codes` makes them too).
- `staff add NAME [--role federation_admin|registrar]`: a federation staff account (the
  password asked twice, or the first line of stdin, as `tableside staff add`).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

ROLES = ("federation_admin", "registrar")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The three actions and their flags."""
    actions = parser.add_subparsers(dest="action", required=True)
    serve = actions.add_parser("serve", help="serve the federation")
    serve.add_argument("--host", help="default 127.0.0.1 (env TABLESIDE_FEDERATION_HOST)")
    serve.add_argument(
        "--port", type=int, help="port (default 8100, env TABLESIDE_FEDERATION_PORT)"
    )
    code = actions.add_parser("code", help="make a venue's one-time enrolment code")
    code.add_argument("venue_name", help="the venue's name, as the federation knows it")
    staff = actions.add_parser("staff", help="federation staff accounts")
    staff.add_argument("staff_action", choices=("add",))
    staff.add_argument("username")
    staff.add_argument("--role", choices=ROLES, default="federation_admin")
    for action in (serve, code, staff):
        action.add_argument("--data-dir", type=Path, help="the federation's embedded PostgreSQL")
        action.add_argument("--key-file", type=Path, help="the federation's signing key")


def run(args: argparse.Namespace) -> int:
    """Run the action; exit 1 with one line when something must be fixed first."""
    from tableside.cli.staff import Refused
    from tableside.db.migrations import MigrationError
    from tableside.db.runtime import StartupError
    from tableside.federation.config import FederationSettings
    from tableside.settings import SettingsError

    try:
        settings = FederationSettings.from_env().replace(
            host=getattr(args, "host", None),
            port=getattr(args, "port", None),
            data_dir=args.data_dir,
            key_file=args.key_file,
        )
        if args.action == "serve":
            return _serve(settings)
        if args.action == "code":
            return _code(settings, args.venue_name)
        return _staff(settings, args.username, args.role)
    except (StartupError, SettingsError, MigrationError, Refused, OSError) as exc:
        print(f"tableside: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0


def _database(settings):
    """The federation's database, migrated (embedded unless a URL is set)."""
    from tableside.db.runtime import database

    return database(settings.as_venue_settings(), attach=True)


def _serve(settings) -> int:
    import uvicorn

    from tableside.cli.serve import UVICORN, install_signals
    from tableside.federation.asgi import build
    from tableside.federation.database import migrate
    from tableside.live.socket_auth import MAX_FRAME

    install_signals()
    with _database(settings) as db:
        applied = migrate(db.migrate_url, db.app_role)
        app = build(settings.replace(database_url=db.url))
        base = f"http://{settings.host}:{settings.port}"
        print(f"federation database: PostgreSQL {db.label} ({len(applied)} applied now)")
        print(f"federation: serving on {base}/")
        print(f"  acknowledgements signed by {settings.signing_key_path}")
        print("  a venue enrols with `tableside federation code NAME`'s code in")
        print(f"  TABLESIDE_FEDERATION_CODE and `tableside serve --federation {base}`")
        print("Press Ctrl-C to stop.", flush=True)
        config = {**UVICORN, "http": "auto", "host": settings.host, "port": settings.port}
        config["ws_max_size"] = MAX_FRAME  # the relay's sockets: a big frame refused unread
        uvicorn.Server(uvicorn.Config(app, **config)).run()
    return 0


def _code(settings, venue_name: str) -> int:
    from tableside.federation.database import migrate

    with _database(settings) as db:
        migrate(db.migrate_url, db.app_role)
        code, expires = asyncio.run(_make_code(db.url, venue_name))
    print(code)
    print(
        f"enrolment code for {venue_name!r}, once, until {expires:%Y-%m-%d %H:%M} UTC",
        file=sys.stderr,
    )
    return 0


async def _make_code(url: str, venue_name: str):
    import asyncpg

    from tableside.federation import enrolment

    pool = await asyncpg.create_pool(url, min_size=1, max_size=1)
    try:
        return await enrolment.make_code(pool, venue_name, "tableside federation code")
    finally:
        await pool.close()


def _staff(settings, username: str, role: str) -> int:
    from tableside.cli.staff import Refused, _insert, checked_name, read_password
    from tableside.federation.database import migrate

    name = checked_name(username)
    password = read_password(name)
    with _database(settings) as db:
        migrate(db.migrate_url, db.app_role)
        made = asyncio.run(_insert(db.url, name, role, password))
    if not made:
        raise Refused(f"an account named {name!r} is there already; nothing was changed")
    print(f"federation staff account {name!r} made ({role})")
    return 0
