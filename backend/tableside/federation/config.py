"""The federation's settings, read once from the environment (TABLESIDE_FEDERATION_*)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from tableside.settings import Settings, SettingsError, bundled

SCHEMA_DIR = bundled("schema") / "federation"
DEFAULT_DATA_DIR = Path("var/federation/pgdata")
# What one push may carry: a venue catching up after hours sends many of these in a row.
MAX_BATCH_EVENTS = 2000
MAX_BATCH_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class FederationSettings:
    """Where the federation's database is, where it serves, which key signs its
    acknowledgements, who its first admin is."""

    database_url: str | None = None
    migrate_url: str | None = None
    # A read replica for the public pages (the read side's `read_pool`); the primary without.
    read_url: str | None = None
    data_dir: Path = DEFAULT_DATA_DIR
    host: str = "127.0.0.1"
    port: int = 8100
    key_file: Path | None = None
    admin_user: str | None = None
    admin_password: str | None = None
    db_pool_size: int = 5
    db_acquire_seconds: float = 5.0
    db_statement_seconds: float = 30.0
    db_lock_seconds: float = 5.0
    pool_guard: bool = False  # the tests' nesting guard (db/pool.py), as the venue's
    pool_guard_file: Path | None = None

    @property
    def signing_key_path(self) -> Path:
        """The federation's own Ed25519 key (made on first start, 0600), beside its data."""
        return self.key_file or self.data_dir.parent / "keys" / "federation-ed25519.pem"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> FederationSettings:
        """TABLESIDE_FEDERATION_DATABASE_URL (else the embedded server in
        TABLESIDE_FEDERATION_DATA_DIR), _MIGRATE_URL, _READ_URL, _HOST, _PORT, _KEY_FILE,
        _ADMIN_USER, _ADMIN_PASSWORD."""
        env = os.environ if env is None else env
        get = lambda name: env.get(f"TABLESIDE_FEDERATION_{name}") or None  # noqa: E731
        port = get("PORT") or str(cls.port)
        if not port.isdigit() or not 1 <= int(port) <= 65535:
            raise SettingsError(f"TABLESIDE_FEDERATION_PORT must be a port, not {port!r}")
        return cls(
            database_url=get("DATABASE_URL"),
            migrate_url=get("MIGRATE_URL"),
            read_url=get("READ_URL"),
            data_dir=Path(get("DATA_DIR") or DEFAULT_DATA_DIR),
            host=get("HOST") or cls.host,
            port=int(port),
            key_file=Path(key) if (key := get("KEY_FILE")) else None,
            admin_user=get("ADMIN_USER"),
            admin_password=get("ADMIN_PASSWORD"),
            pool_guard=env.get("TABLESIDE_POOL_GUARD", "") in ("1", "true", "yes"),
            pool_guard_file=Path(f) if (f := env.get("TABLESIDE_POOL_GUARD_FILE")) else None,
        )

    def replace(self, **changes: object) -> FederationSettings:
        """A copy with some fields changed (flags win over the environment)."""
        return replace(self, **{k: v for k, v in changes.items() if v is not None})

    def as_venue_settings(self) -> Settings:
        """The shared database plumbing (`db/runtime.database`, `db/pool.open_pool`) reads
        the venue's Settings: these fields, and nothing of a venue's."""
        return Settings(
            database_url=self.database_url,
            migrate_url=self.migrate_url,
            data_dir=self.data_dir,
            db_pool_size=self.db_pool_size,
            db_acquire_seconds=self.db_acquire_seconds,
            db_statement_seconds=self.db_statement_seconds,
            db_lock_seconds=self.db_lock_seconds,
            pool_guard=self.pool_guard,
            pool_guard_file=self.pool_guard_file,
        )
