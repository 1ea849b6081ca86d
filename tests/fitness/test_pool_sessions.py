"""The server's asyncpg pool hands connections back without a reset round trip
(`server/lifespan._keep_session`): that holds only while no code leaves session state on a
pool connection. This test fails when someone starts to."""

from __future__ import annotations

import re
from pathlib import Path

BACKEND = Path(__file__).resolve().parents[2] / "backend" / "tableside"

# A statement that starts with SET (not SET TRANSACTION / SET LOCAL, which end with the
# transaction), a session-level advisory lock, a cursor held past its transaction.
SESSION_STATE = re.compile(r"""["']\s*SET\s+(?!TRANSACTION|LOCAL)|pg_advisory_lock|WITH HOLD""")
LISTENER = "eventlog/listener.py"  # LISTEN on its own connection, never a pool's
OWN_CONNECTIONS = {"db/migrations.py"}  # psycopg connections of its own, closed after use


def test_no_code_leaves_session_state_on_a_pool_connection():
    found = []
    for path in sorted(BACKEND.rglob("*.py")):
        text = path.read_text()
        rel = path.relative_to(BACKEND).as_posix()
        if rel in OWN_CONNECTIONS:
            continue
        found += [f"{rel}: {m.group(0)!r}" for m in SESSION_STATE.finditer(text)]
        if "add_listener(" in text and rel != LISTENER:
            found.append(f"{rel}: add_listener")
    assert not found, found
