"""`tableside staff add NAME`: make a staff account from the terminal (issue 45) — the first
head judge of a new store, before anyone can sign in to /admin.

The password never travels in argv (where `ps` and the shell's history would keep it): on a
terminal it is asked twice without echo, else it is the first line of stdin (`printf '%s\\n'
"$PW" | tableside staff add anna`). The account is held to the same rules as the console's
`POST /api/accounts` (`staff/auth_dto.AccountRequest`). Exit 0 when made, 1 when refused,
2 when it cannot run.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path

ROLES = ("head_judge", "secretary", "auditor")
MIN_PASSWORD, MAX_PASSWORD, MAX_NAME = 8, 200, 80  # as AccountRequest


class Refused(Exception):
    """An account this command will not make; the message says why, in one line."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """`add NAME [--role R]`, with --data-dir (DATABASE_URL wins when set)."""
    actions = parser.add_subparsers(dest="action", required=True)
    add = actions.add_parser(
        "add", help="make a staff account; the password is asked twice, or read from stdin"
    )
    add.add_argument("username", help="the account's sign-in name")
    add.add_argument("--role", choices=ROLES, default="head_judge", help="default head_judge")
    add.add_argument("--data-dir", type=Path, help="embedded PostgreSQL data dir")


def run(args: argparse.Namespace) -> int:
    from tableside.db import migrations
    from tableside.db.runtime import StartupError
    from tableside.settings import Settings, SettingsError

    try:
        username = checked_name(args.username)
        password = read_password(username)
        settings = Settings.from_env().replace(data_dir=args.data_dir)
        _add(settings, username, args.role, password)
    except Refused as exc:
        print(f"tableside: {exc}", file=sys.stderr)
        return 1
    except (StartupError, SettingsError, migrations.MigrationError, OSError) as exc:
        print(f"tableside: {exc}", file=sys.stderr)
        return 2
    print(f"staff account {username!r} made ({args.role}): sign in at /admin")
    return 0


def checked_name(raw: str) -> str:
    """The name as the console stores it (`accounts.staff_name`: the names rule, #50), with
    no space and at most MAX_NAME characters; Refused saying what is wrong."""
    from tableside.names import NameRefused
    from tableside.staff.accounts import staff_name

    try:
        name = staff_name(raw)
    except NameRefused as exc:
        raise Refused(f"the name is refused: {exc.message}") from None
    if not name or len(name) > MAX_NAME:
        raise Refused(f"the name must be 1 to {MAX_NAME} characters")
    if " " in name:
        raise Refused("the name must have no spaces or invisible characters")
    return name


def read_password(username: str) -> str:
    """Asked twice without echo on a terminal, else the first line of stdin; refused when
    short, long, the name itself, or the two differ."""
    if sys.stdin.isatty():
        password = getpass.getpass("Password: ")
        if getpass.getpass("Password again: ") != password:
            raise Refused("the two passwords differ; nothing was made")
    else:
        password = sys.stdin.readline().rstrip("\r\n")
    return checked_password(password, username)


def checked_password(password: str, username: str) -> str:
    if not password:
        raise Refused("no password given (type it when asked, or give it on stdin)")
    if len(password) < MIN_PASSWORD:
        raise Refused(f"the password must be at least {MIN_PASSWORD} characters")
    if len(password) > MAX_PASSWORD:
        raise Refused(f"the password must be at most {MAX_PASSWORD} characters")
    if password.casefold() == username.casefold():
        raise Refused("the password must not be the account's name")
    return password


def _add(settings, username: str, role: str, password: str) -> None:
    """Migrations first (a store's very first command may be this one), then the account,
    by the console's own `accounts.add_account`."""
    import asyncio

    import msgspec

    from tableside.db import migrations
    from tableside.db.runtime import database
    from tableside.names import NameRefused
    from tableside.staff.auth_dto import AccountRequest

    msgspec.convert({"username": username, "role": role, "password": password}, AccountRequest)
    with database(settings, attach=True) as db:
        migrations.apply(db.migrate_url, app_role=db.app_role)
        try:
            made = asyncio.run(_insert(db.url, username, role, password))
        except NameRefused as exc:  # another account's look-alike (UTS #39 §4)
            raise Refused(f"the name is refused: {exc.message}") from None
    if not made:
        raise Refused(f"an account named {username!r} is there already; nothing was changed")


async def _insert(url: str, username: str, role: str, password: str) -> bool:
    import asyncpg

    from tableside.staff import accounts

    pool = await asyncpg.create_pool(url, min_size=1, max_size=1)
    try:
        return await accounts.add_account(pool, username, role, password)
    finally:
        await pool.close()
