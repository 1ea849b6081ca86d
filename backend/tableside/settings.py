"""Settings, read once from the environment at start-up and passed down explicitly."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

DEFAULT_DATA_DIR = Path("var/pgdata")


def bundled(name: str) -> Path:
    """A folder the package ships (`pwa`, `schema`), found through importlib.resources: in a
    wheel it is package data under tableside/bundled/; in a checkout (an editable install)
    tableside/bundled/<name> is a symlink to the top-level folder, so edits show at once."""
    return Path(str(resources.files("tableside") / "bundled" / name)).resolve()


# The faces, and the words every face and the protocol PDF share (pwa/i18n/codes.<lang>.json).
PWA_DIR = bundled("pwa")


class SettingsError(ValueError):
    """A configuration value is present but unusable."""


@dataclass(frozen=True)
class Settings:
    """Where the database is and where to serve; nothing here connects to anything."""

    database_url: str | None = None
    # The owner's URL for migrations when DATABASE_URL is the server's least-privilege role.
    migrate_url: str | None = None
    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: Path = DEFAULT_DATA_DIR
    db_pool_size: int = 5
    # The service (issue 4): demo tables, first head-judge account, websocket Origin
    # allow-list (empty = this server's own http://host:port), per-token command rate.
    demo: bool = False
    # How long the demo keeps a Swiss round's last board for a visitor at table 5 (600 s;
    # a test shortens it to see a simulated table take it over: decision 0190).
    demo_hold_seconds: int = 600
    admin_user: str | None = None
    admin_password: str | None = None
    allowed_origins: tuple[str, ...] = ()
    command_rate: float = 10.0
    command_burst: int = 30
    # Hardening (issue 11): judge tokens live this many hours (None: to the end of the
    # competition day); staff logins lock after `login_failures` wrong passwords in a row for
    # `login_lockout_minutes`; each client gets `login_per_minute` attempts a minute.
    judge_token_hours: float | None = None
    login_failures: int = 10
    login_lockout_minutes: int = 15
    login_per_minute: int = 20
    # PDFs drawn per client address a minute (#50: 300 anonymous protocols at 8.9/s were all
    # drawn); a client may take a minute's worth at once.
    pdf_per_minute: int = 60
    # Signed checkpoints (issue 10): the Ed25519 key file, outside the database (default
    # beside the data dir, in a folder of the store's own (#50): ./var/keys/pgdata/
    # checkpoint-ed25519.pem for ./var/pgdata), and minutes between them.
    key_file: Path | None = None
    checkpoint_minutes: float = 5.0
    # The signer's witness log (issue 29): default beside the key (`….log`); "off" keeps
    # none (only for throwaway stores sharing one key, as the test suite's do).
    checkpoint_log: str | None = None
    # A disputed record (#41) is signed again only when the head judge says so on the
    # record: `serve --accept-disputed` (TABLESIDE_ACCEPT_DISPUTED=1), recorded as an event.
    accept_disputed: bool = False
    # The federation (issue 49): its URL (`serve --federation`), the one-time enrolment code
    # (env or the uplink folder's `code` file, never a URL), the uplink's folder (credential,
    # acknowledgements, status; default beside the data dir), its round and longest back-off.
    federation_url: str | None = None
    federation_code: str | None = None
    uplink_dir: Path | None = None
    uplink_seconds: float = 0.5
    uplink_backoff_max: float = 60.0
    uplink_heartbeat: float = 30.0  # a push at least this often (the relay's offline notice)

    @property
    def uplink_folder(self) -> Path:
        """Where the uplink keeps its credential, the federation's acknowledgements and
        what it saw last."""
        return (self.uplink_dir or self.data_dir.parent / "uplink").expanduser()

    @property
    def signing_key_path(self) -> Path:
        """Where the checkpoint signing key is (made there on first use): by default in a
        folder named after the data dir, so two stores side by side never share a key or
        its log (#50, decision 0161)."""
        return self.key_file or self.keys_folder / self.data_dir.name / "checkpoint-ed25519.pem"

    @property
    def keys_folder(self) -> Path:
        """The machine's folder of keys beside the data dir (./var/keys)."""
        return self.data_dir.parent / "keys"

    @property
    def checkpoint_log_path(self) -> Path | None:
        """Where the signer keeps every checkpoint it signs, outside the database."""
        if self.checkpoint_log == "off":
            return None
        if self.checkpoint_log:
            return Path(self.checkpoint_log).expanduser()
        return self.signing_key_path.expanduser().with_suffix(".log")

    live_per_client: int = 200  # open /live sockets per client address (issue 11, point 3)
    # A second machine (issue 33): the embedded PostgreSQL also listens on TCP `HOST:PORT`
    # for a streaming standby; with `standby_required`, commits wait for one rather than go
    # on unprotected; `peers` are the other servers' base URLs the faces move to by themselves.
    replication: str | None = None
    standby_required: bool = False
    peers: tuple[str, ...] = ()
    live_behind_kib: int = 256  # unsent KiB before a caught-up /live socket is dropped (issue 17)
    # Bounded waits (issue 28): seconds a request waits for a pooled connection (or its turn
    # at the hall's call lock) before it is answered 503 + Retry-After; the app's sessions'
    # lock_timeout and statement_timeout; seconds SIGTERM lets requests finish before they
    # are cut. The pool guard (tests) makes a task that holds a connection and asks for a
    # second one fail loudly, and writes each finding to `pool_guard_file` if set.
    db_acquire_seconds: float = 5.0
    db_lock_seconds: float = 5.0
    db_statement_seconds: float = 30.0
    shutdown_seconds: float = 5.0
    pool_guard: bool = False
    pool_guard_file: Path | None = None
    # The hall network (issue 40): `tls` "auto" speaks HTTPS on a non-loopback host, "on"
    # always, "off" never (behind a proxy that ends TLS); an operator's certificate and key
    # (`tls_cert`, `tls_key`: a federation's real name) or the venue CA's, which covers this
    # machine's names and addresses and `tls_names`; beside HTTPS, plain HTTP on `http_port`
    # (default: the next port) answers the setup page and refuses logins and tokens.
    # `https_origin` is where a face on plain HTTP is sent and the one origin links name
    # (serve sets it; tests set it); `served_names` every DNS name and address the serving
    # certificate carries (serve sets it: each is an origin /live accepts, issue 52).
    tls: str = "auto"
    tls_cert: Path | None = None
    tls_key: Path | None = None
    tls_names: tuple[str, ...] = ()
    http_port: int | None = None
    https_origin: str | None = None
    served_names: tuple[str, ...] = ()
    tls_renew_seconds: float = 3600.0  # how often a serving process checks its certificate

    @property
    def tls_folder(self) -> Path:
        """Where the venue CA and the server certificate live: beside a given signing key,
        else the machine's keys folder (one venue CA for every store the laptop serves)."""
        return self.key_file.expanduser().parent if self.key_file else self.keys_folder

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Read DATABASE_URL, HOST, PORT and the TABLESIDE_* variables (README lists them)."""
        env = os.environ if env is None else env
        return cls(
            database_url=env.get("DATABASE_URL") or None,
            migrate_url=env.get("TABLESIDE_MIGRATE_URL") or None,
            host=env.get("HOST") or cls.host,
            port=_within(env, "PORT", cls.port, 1, 65535),
            data_dir=Path(env.get("TABLESIDE_DATA_DIR") or DEFAULT_DATA_DIR),
            db_pool_size=_within(env, "TABLESIDE_DB_POOL_SIZE", cls.db_pool_size, 1, 100),
            demo=env.get("TABLESIDE_DEMO", "") in ("1", "true", "yes"),
            demo_hold_seconds=_within(
                env, "TABLESIDE_DEMO_HOLD_SECONDS", cls.demo_hold_seconds, 10, 86_400
            ),
            admin_user=env.get("TABLESIDE_ADMIN_USER") or None,
            admin_password=env.get("TABLESIDE_ADMIN_PASSWORD") or None,
            allowed_origins=tuple(o for o in env.get("TABLESIDE_ORIGINS", "").split(",") if o),
            command_rate=float(_count(env, "TABLESIDE_COMMAND_RATE", int(cls.command_rate))),
            command_burst=_count(env, "TABLESIDE_COMMAND_BURST", cls.command_burst),
            judge_token_hours=_hours(env, "TABLESIDE_JUDGE_TOKEN_HOURS"),
            login_failures=_count(env, "TABLESIDE_LOGIN_FAILURES", cls.login_failures),
            login_lockout_minutes=_count(
                env, "TABLESIDE_LOGIN_LOCKOUT_MINUTES", cls.login_lockout_minutes
            ),
            login_per_minute=_count(env, "TABLESIDE_LOGIN_PER_MINUTE", cls.login_per_minute),
            pdf_per_minute=_count(env, "TABLESIDE_PDF_PER_MINUTE", cls.pdf_per_minute),
            key_file=Path(env["TABLESIDE_KEY_FILE"]) if env.get("TABLESIDE_KEY_FILE") else None,
            checkpoint_minutes=_minutes(
                env, "TABLESIDE_CHECKPOINT_MINUTES", cls.checkpoint_minutes
            ),
            checkpoint_log=env.get("TABLESIDE_CHECKPOINT_LOG") or None,
            accept_disputed=env.get("TABLESIDE_ACCEPT_DISPUTED", "") in ("1", "true", "yes"),
            federation_url=(env.get("TABLESIDE_FEDERATION_URL") or "").rstrip("/") or None,
            federation_code=env.get("TABLESIDE_FEDERATION_CODE") or None,
            uplink_dir=_path(env, "TABLESIDE_UPLINK_DIR"),
            uplink_seconds=_seconds(env, "TABLESIDE_UPLINK_SECONDS", cls.uplink_seconds),
            uplink_backoff_max=_seconds(
                env, "TABLESIDE_UPLINK_BACKOFF_MAX", cls.uplink_backoff_max
            ),
            uplink_heartbeat=_seconds(env, "TABLESIDE_UPLINK_HEARTBEAT", cls.uplink_heartbeat),
            live_per_client=_count(env, "TABLESIDE_LIVE_PER_CLIENT", cls.live_per_client),
            live_behind_kib=_within(
                env, "TABLESIDE_LIVE_BEHIND_KIB", cls.live_behind_kib, 16, 65536
            ),
            db_acquire_seconds=_seconds(
                env, "TABLESIDE_DB_ACQUIRE_SECONDS", cls.db_acquire_seconds
            ),
            db_lock_seconds=_seconds(env, "TABLESIDE_DB_LOCK_SECONDS", cls.db_lock_seconds),
            db_statement_seconds=_seconds(
                env, "TABLESIDE_DB_STATEMENT_SECONDS", cls.db_statement_seconds
            ),
            shutdown_seconds=_seconds(env, "TABLESIDE_SHUTDOWN_SECONDS", cls.shutdown_seconds),
            pool_guard=env.get("TABLESIDE_POOL_GUARD", "") in ("1", "true", "yes"),
            pool_guard_file=Path(env["TABLESIDE_POOL_GUARD_FILE"])
            if env.get("TABLESIDE_POOL_GUARD_FILE")
            else None,
            replication=env.get("TABLESIDE_REPLICATION_LISTEN") or None,
            standby_required=env.get("TABLESIDE_STANDBY_REQUIRED", "") in ("1", "true", "yes"),
            peers=_peers(env.get("TABLESIDE_PEERS", "")),
            tls=_choice(env, "TABLESIDE_TLS", ("auto", "on", "off"), cls.tls),
            tls_cert=_path(env, "TABLESIDE_TLS_CERT"),
            tls_key=_path(env, "TABLESIDE_TLS_KEY"),
            tls_names=tuple(
                n.strip() for n in env.get("TABLESIDE_TLS_NAMES", "").split(",") if n.strip()
            ),
            http_port=_int(env, "TABLESIDE_HTTP_PORT", 0) or None,
            tls_renew_seconds=_seconds(env, "TABLESIDE_TLS_RENEW_SECONDS", cls.tls_renew_seconds),
            https_origin=(env.get("TABLESIDE_HTTPS_ORIGIN") or "").rstrip("/") or None,
        )

    @property
    def database(self) -> str:
        """The database URL, once resolved (`create_app` refuses settings without one)."""
        if not self.database_url:
            raise RuntimeError("the database URL is resolved before the app is built")
        return self.database_url

    def replace(self, **changes: object) -> Settings:
        """Return a copy with some fields changed (command-line flags win over env)."""
        kept: dict[str, Any] = {k: v for k, v in changes.items() if v is not None}
        return replace(self, **kept)


def _int(env: Mapping[str, str], key: str, default: int) -> int:
    raw = env.get(key)
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise SettingsError(f"{key} must be an integer, got {raw!r}") from None


def _choice(env: Mapping[str, str], key: str, allowed: tuple[str, ...], default: str) -> str:
    raw = (env.get(key) or default).strip().lower()
    if raw not in allowed:
        raise SettingsError(f"{key} must be one of {', '.join(allowed)}, got {raw!r}")
    return raw


def _path(env: Mapping[str, str], key: str) -> Path | None:
    return Path(env[key]).expanduser() if env.get(key) else None


def _count(env: Mapping[str, str], key: str, default: int) -> int:
    value = _int(env, key, default)
    if value < 1:
        raise SettingsError(f"{key} must be at least 1, got {value}")
    return value


def _within(env: Mapping[str, str], key: str, default: int, low: int, high: int) -> int:
    """A whole number in [low, high] (issue 46: a setting past its edge is named at start-up,
    never a server that cannot serve: a pool of 0, a port past 65535, no /live room)."""
    value = _int(env, key, default)
    if not low <= value <= high:
        raise SettingsError(f"{key} must be between {low} and {high}, got {value}")
    return value


def _minutes(env: Mapping[str, str], key: str, default: float) -> float:
    """Minutes between checkpoints: 0 (only on shutdown) up to a day."""
    value = _float(env, key, default)
    if not 0 <= value <= 1440:
        raise SettingsError(f"{key} must be minutes between 0 and 1440, got {value}")
    return value


def _hours(env: Mapping[str, str], key: str) -> float | None:
    raw = env.get(key)
    if not raw:
        return None
    try:
        hours = float(raw)
    except ValueError:
        hours = 0.0
    if not 0 < hours <= 24 * 14:
        raise SettingsError(f"{key} must be a number of hours between 0 and 336, got {raw!r}")
    return hours


def _float(env: Mapping[str, str], key: str, default: float) -> float:
    raw = env.get(key)
    if not raw:
        return default
    try:
        return float(raw)
    except ValueError:
        raise SettingsError(f"{key} must be a number, got {raw!r}") from None


def _seconds(env: Mapping[str, str], key: str, default: float) -> float:
    """A bounded wait: more than 0 and at most an hour."""
    value = _float(env, key, default)
    if not 0 < value <= 3600:
        raise SettingsError(f"{key} must be seconds between 0 and 3600, got {value}")
    return value


def _peers(raw: str) -> tuple[str, ...]:
    """TABLESIDE_PEERS: comma-separated http(s)://host:port base URLs, no path."""
    from urllib.parse import urlsplit

    peers = []
    for item in filter(None, (p.strip().rstrip("/") for p in raw.split(","))):
        split = urlsplit(item)
        if split.scheme not in ("http", "https") or not split.netloc or split.path:
            raise SettingsError(f"TABLESIDE_PEERS: {item!r} is not an http(s)://host:port address")
        peers.append(item)
    return tuple(peers)
