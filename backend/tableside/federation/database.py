"""The federation's database: its migrations (`schema/federation/`) and its server role's
grants. The server's role may read everything and add rows; it can change no kept venue
event, checkpoint, acknowledgement or alarm (decision 0165: a federation that cannot rewrite
what it witnessed)."""

from __future__ import annotations

import psycopg
from psycopg import sql

from tableside.db import migrations
from tableside.federation.config import SCHEMA_DIR

# Kept for ever as they were verified: SELECT and INSERT only.
APPEND_ONLY = ("venue_events", "venue_checkpoints", "venue_acks", "venue_alarms")

_GRANTS = """\
GRANT USAGE ON SCHEMA public TO {role};
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role};
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {role};
REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON {append_only} FROM {role};
"""


def migrate(url: str, app_role: str | None = None) -> list[migrations.Migration]:
    """Apply the federation's pending migrations; grant `app_role` its rights after."""
    applied = migrations.apply(url, SCHEMA_DIR)
    if app_role is not None:
        grant(url, app_role)
    return applied


def grant(url: str, role: str) -> None:
    """The server role's rights on a migrated federation database (run as the owner)."""
    script = _GRANTS.format(
        role=sql.Identifier(role).as_string(None), append_only=", ".join(APPEND_ONLY)
    )
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(script.encode())
