"""Two roles: the owner runs migrations; the server logs in as a role that cannot rewrite history.

The owner (`tableside_owner`) owns every table, so only it can `ALTER TABLE … DISABLE
TRIGGER`. The server's role (`tableside_app`) is neither owner nor superuser: on the
append-only tables (APPEND_ONLY) it has SELECT only — it appends through the owner's
functions (`tableside_append`, `tableside_append_checkpoint`), never by a plain INSERT — so
it cannot UPDATE, DELETE, TRUNCATE, disable a trigger, set `session_replication_role`
(superuser only), bypass the append's lock and command-id check, plant a checkpoint that is
not signed by a registered key (schema/011), or touch the checkpoints' identity sequence
(a `setval` to its maximum would switch every later checkpoint off). On every other table
(read models, accounts, tokens, tracking) it has the DML it needs.

`grant_sql(role)` is the one place that says what the server's role may do. The migrations
runner executes it after every run (`migrations.apply(..., app_role=...)`), so tables and
functions added by later migrations are covered without touching this module; an
append-only table added later joins APPEND_ONLY here. `tableside migrate --print-grants`
prints it for an operator who manages the roles of a `DATABASE_URL` server.

The append functions (`tableside_append…`) take the EXCLUSIVE table lock, which PostgreSQL
grants only to a role with UPDATE, DELETE or TRUNCATE on the table, so they run as their
owner (SECURITY DEFINER, fixed search_path). The grant step re-asserts that on every
`tableside_append…` function after every run, because `CREATE OR REPLACE FUNCTION` resets it.
"""

from __future__ import annotations

import contextlib

import psycopg
from psycopg import sql

from tableside.db.url import with_user

OWNER_ROLE = "tableside_owner"
APP_ROLE = "tableside_app"
# Tables the server may only read and append to; every other table gets full DML.
APPEND_ONLY = ("stored_events", "event_checkpoints")
READ_ONLY = ("schema_migrations", "checkpoint_keys")
# Sequences of the append-only tables: only the owner's functions draw from them.
SEQUENCES = {"event_checkpoints": "event_checkpoints_checkpoint_id_seq"}
DEFINER_PREFIX = "tableside_append"

_GRANTS = """\
GRANT USAGE ON SCHEMA public TO {role};
GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON ALL TABLES IN SCHEMA public TO {role};
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO {role};
ALTER DEFAULT PRIVILEGES IN SCHEMA public
    GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON TABLES TO {role};
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO {role};
REVOKE INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON {append_only} FROM {role};
REVOKE INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON {read_only} FROM {role};
{sequences}
DO $grants$
DECLARE f regprocedure;
BEGIN
    FOR f IN SELECT p.oid::regprocedure FROM pg_proc p
             JOIN pg_namespace n ON n.oid = p.pronamespace
             WHERE n.nspname = 'public' AND p.proname LIKE '{prefix}%'
    LOOP
        EXECUTE format('ALTER FUNCTION %s SECURITY DEFINER SET search_path = public, pg_temp', f);
    END LOOP;
END
$grants$;
"""


def grant_sql(role: str = APP_ROLE, tables: tuple[str, ...] | None = None) -> str:
    """The grant script for the server's role (run by the owner after the migrations)."""
    protected = tables if tables is not None else APPEND_ONLY
    quoted = sql.Identifier(role).as_string(None)
    sequences = "".join(
        f"REVOKE ALL ON SEQUENCE {SEQUENCES[t]} FROM {quoted};\n"
        for t in protected
        if t in SEQUENCES
    )
    return _GRANTS.format(
        role=quoted,
        append_only=", ".join(protected),
        read_only=", ".join(READ_ONLY),
        sequences=sequences,
        prefix=DEFINER_PREFIX,
    )


def grant(conn: psycopg.Connection, role: str) -> None:
    """Run the grant script on a migrated database (as the owner of its objects)."""
    present = tuple(t for t in APPEND_ONLY if _exists(conn, t))
    conn.execute(grant_sql(role, present).encode())


def register_key(url: str, public_key: bytes) -> str | None:
    """Register a checkpoint signing key (raw Ed25519 public key) as the migrations' role:
    only a checkpoint signed by a registered key is stored (schema/011). None when it is
    registered (now or before); else why not (the role may not register keys)."""
    with psycopg.connect(url, autocommit=True) as conn:
        known = conn.execute(
            "SELECT 1 FROM checkpoint_keys WHERE public_key = %s", (public_key,)
        ).fetchone()
        if known:
            return None
        try:
            conn.execute(
                "INSERT INTO checkpoint_keys (public_key) VALUES (%s) ON CONFLICT DO NOTHING",
                (public_key,),
            )
        except psycopg.errors.InsufficientPrivilege:
            return (
                f"the checkpoint key {public_key.hex()} is not registered and this role may not"
                " register it: run `tableside migrate` as the owner (TABLESIDE_MIGRATE_URL)"
                " with the key file; until then every checkpoint is refused"
            )
    return None


def setup(superuser_url: str) -> tuple[str, str]:
    """Create both roles on a server we administer; return (owner URL, app URL).

    For the embedded server and the test harness (trust auth: the URLs carry no password).
    Objects an earlier version created as the superuser pass to the owner, once.
    """
    with psycopg.connect(superuser_url, autocommit=True) as conn:
        for role in (OWNER_ROLE, APP_ROLE):
            _create_role(conn, role)
        conn.execute(
            sql.SQL("GRANT USAGE, CREATE ON SCHEMA public TO {}").format(sql.Identifier(OWNER_ROLE))
        )
        _adopt(conn, OWNER_ROLE)
    return with_user(superuser_url, OWNER_ROLE), with_user(superuser_url, APP_ROLE)


def can_rewrite_history(conn: psycopg.Connection) -> str | None:
    """Why the connected role could rewrite stored events (superuser, owner), or None."""
    row = conn.execute(
        "SELECT r.rolsuper, pg_has_role(current_user, c.relowner, 'USAGE')"
        " FROM pg_roles r LEFT JOIN pg_class c ON c.oid = to_regclass('stored_events')"
        " WHERE r.rolname = current_user"
    ).fetchone()
    if row is None:
        return None
    if row[0]:
        return "is a superuser"
    if row[1]:
        return "owns stored_events"
    return None


def _create_role(conn: psycopg.Connection, role: str) -> None:
    exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
    if exists:
        return
    # Another process may make it a moment before us.
    with contextlib.suppress(psycopg.errors.DuplicateObject, psycopg.errors.UniqueViolation):
        conn.execute(
            sql.SQL(
                "CREATE ROLE {} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS"
            ).format(sql.Identifier(role))
        )


_NOT_OWNED = """
SELECT CASE c.relkind WHEN 'c' THEN 'TYPE' WHEN 'v' THEN 'VIEW'
                      WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE 'TABLE' END,
       c.oid::regclass::text
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'c')
  AND pg_get_userbyid(c.relowner) <> %(owner)s
UNION ALL
SELECT 'ROUTINE', p.oid::regprocedure::text
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname = 'public' AND pg_get_userbyid(p.proowner) <> %(owner)s
"""


def _adopt(conn: psycopg.Connection, owner: str) -> None:
    """Give the owner role every object in `public` that another role owns."""
    rows = conn.execute(_NOT_OWNED, {"owner": owner}).fetchall()
    with conn.transaction():
        for kind, name in rows:
            conn.execute(
                sql.SQL("ALTER {} {} OWNER TO {}").format(
                    sql.SQL(kind), sql.SQL(name), sql.Identifier(owner)
                )
            )


def _exists(conn: psycopg.Connection, table: str) -> bool:
    row = conn.execute("SELECT to_regclass(%s) IS NOT NULL", (table,)).fetchone()
    return bool(row and row[0])
