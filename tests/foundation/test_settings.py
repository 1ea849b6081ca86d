"""Settings and connection URLs: read once, bad values named."""

from __future__ import annotations

from pathlib import Path

import pytest
from tableside.db.url import conninfo, describe, with_dbname
from tableside.settings import Settings, SettingsError

SOCKET_URL = "postgresql://postgres:@/postgres?host=/srv/var/pgdata"


def test_settings_defaults_and_environment() -> None:
    assert Settings.from_env({}) == Settings()
    env = {
        "DATABASE_URL": "postgresql://a@db/x",
        "HOST": "0.0.0.0",
        "PORT": "9000",
        "TABLESIDE_DATA_DIR": "/data/pg",
    }
    settings = Settings.from_env(env)
    assert (settings.database_url, settings.host, settings.port, settings.data_dir) == (
        "postgresql://a@db/x",
        "0.0.0.0",
        9000,
        Path("/data/pg"),
    )
    assert settings.replace(port=None, host="::1").host == "::1"
    assert settings.replace(port=None).port == 9000


def test_a_bad_port_is_named() -> None:
    with pytest.raises(SettingsError, match="PORT must be an integer"):
        Settings.from_env({"PORT": "eighty"})


def test_socket_urls_keep_their_socket_dir() -> None:
    assert conninfo(SOCKET_URL)["host"] == "/srv/var/pgdata"
    assert with_dbname(SOCKET_URL, "other") == (
        "postgresql://postgres:@/other?host=/srv/var/pgdata"
    )


def test_describe_never_shows_the_password() -> None:
    text = describe("postgresql://judge:s3cret@db.example:6543/tableside")
    assert text == "db.example:6543/tableside"


def test_roles_and_checkpoint_settings() -> None:
    settings = Settings.from_env(
        {
            "DATABASE_URL": "postgresql://app:pw@db/x",
            "TABLESIDE_MIGRATE_URL": "postgresql://owner:pw@db/x",
            "TABLESIDE_KEY_FILE": "/secrets/cp.pem",
            "TABLESIDE_CHECKPOINT_MINUTES": "0.5",
        }
    )
    assert settings.migrate_url == "postgresql://owner:pw@db/x"
    assert settings.signing_key_path == Path("/secrets/cp.pem")
    assert settings.checkpoint_minutes == 0.5
    default = Settings.from_env({"TABLESIDE_DATA_DIR": "/srv/var/pgdata"})
    assert default.signing_key_path == Path("/srv/var/keys/pgdata/checkpoint-ed25519.pem")
    assert default.tls_folder == Path("/srv/var/keys")  # one venue CA for the laptop
    with pytest.raises(SettingsError, match="TABLESIDE_CHECKPOINT_MINUTES must be a number"):
        Settings.from_env({"TABLESIDE_CHECKPOINT_MINUTES": "often"})


def test_the_server_roles_url_carries_no_password() -> None:
    from tableside.db.url import with_user

    assert with_user(SOCKET_URL, "tableside_app") == (
        "postgresql://tableside_app@/postgres?host=/srv/var/pgdata"
    )


def test_bounded_waits_and_the_pool_guard_from_env() -> None:
    """Issue 28: every wait has a bound, read once; the pool guard is off unless asked for."""
    default = Settings.from_env({})
    assert (default.db_acquire_seconds, default.db_lock_seconds) == (5.0, 5.0)
    assert (default.db_statement_seconds, default.shutdown_seconds) == (30.0, 5.0)
    assert default.pool_guard is False and default.pool_guard_file is None
    given = Settings.from_env(
        {
            "TABLESIDE_DB_ACQUIRE_SECONDS": "2.5",
            "TABLESIDE_DB_LOCK_SECONDS": "1",
            "TABLESIDE_DB_STATEMENT_SECONDS": "60",
            "TABLESIDE_SHUTDOWN_SECONDS": "3",
            "TABLESIDE_POOL_GUARD": "1",
            "TABLESIDE_POOL_GUARD_FILE": "/tmp/nested.txt",
        }
    )
    assert (given.db_acquire_seconds, given.db_lock_seconds) == (2.5, 1.0)
    assert (given.db_statement_seconds, given.shutdown_seconds) == (60.0, 3.0)
    assert given.pool_guard is True and str(given.pool_guard_file) == "/tmp/nested.txt"
    for wait in ("0", "-1", "3601"):
        with pytest.raises(SettingsError, match="TABLESIDE_DB_LOCK_SECONDS must be seconds"):
            Settings.from_env({"TABLESIDE_DB_LOCK_SECONDS": wait})


@pytest.mark.parametrize(
    ("key", "value", "says"),
    [
        ("PORT", "0", "PORT must be between 1 and 65535"),
        ("PORT", "70000", "PORT must be between 1 and 65535"),
        ("TABLESIDE_DB_POOL_SIZE", "0", "between 1 and 100"),
        ("TABLESIDE_DB_POOL_SIZE", "-3", "between 1 and 100"),
        ("TABLESIDE_COMMAND_RATE", "0", "at least 1"),
        ("TABLESIDE_COMMAND_BURST", "0", "at least 1"),
        ("TABLESIDE_LIVE_PER_CLIENT", "0", "at least 1"),
        ("TABLESIDE_LIVE_BEHIND_KIB", "0", "between 16 and 65536"),
        ("TABLESIDE_LIVE_BEHIND_KIB", "10000000", "between 16 and 65536"),
        ("TABLESIDE_CHECKPOINT_MINUTES", "-1", "between 0 and 1440"),
        ("TABLESIDE_CHECKPOINT_MINUTES", "nan", "between 0 and 1440"),
        ("TABLESIDE_CHECKPOINT_MINUTES", "inf", "between 0 and 1440"),
        ("TABLESIDE_DB_ACQUIRE_SECONDS", "0", "between 0 and 3600"),
        ("TABLESIDE_DB_LOCK_SECONDS", "nan", "between 0 and 3600"),
        ("TABLESIDE_DB_STATEMENT_SECONDS", "inf", "between 0 and 3600"),
        ("TABLESIDE_SHUTDOWN_SECONDS", "-5", "between 0 and 3600"),
        ("TABLESIDE_LOGIN_FAILURES", "0", "at least 1"),
        ("TABLESIDE_LOGIN_LOCKOUT_MINUTES", "0", "at least 1"),
        ("TABLESIDE_LOGIN_PER_MINUTE", "0", "at least 1"),
        ("TABLESIDE_JUDGE_TOKEN_HOURS", "0", "between 0 and 336"),
        ("TABLESIDE_PEERS", "ftp://x", "not an http"),
    ],
)
def test_every_setting_past_its_edge_is_named(key: str, value: str, says: str) -> None:
    """Issue 46: a setting past its edge stops the start with its name, never a server that
    cannot serve (a pool of 0, every socket refused, a port that cannot be bound)."""
    with pytest.raises(SettingsError, match=says) as refused:
        Settings.from_env({key: value})
    assert key in str(refused.value)


@pytest.mark.parametrize(
    ("key", "value", "field", "expected"),
    [
        ("PORT", "65535", "port", 65535),
        ("TABLESIDE_DB_POOL_SIZE", "1", "db_pool_size", 1),
        ("TABLESIDE_LIVE_BEHIND_KIB", "16", "live_behind_kib", 16),
        ("TABLESIDE_CHECKPOINT_MINUTES", "0", "checkpoint_minutes", 0.0),
        ("TABLESIDE_DB_ACQUIRE_SECONDS", "3600", "db_acquire_seconds", 3600.0),
        ("TABLESIDE_LIVE_PER_CLIENT", "1", "live_per_client", 1),
    ],
)
def test_every_setting_at_its_edge_is_taken(key, value, field, expected) -> None:
    assert getattr(Settings.from_env({key: value}), field) == expected
