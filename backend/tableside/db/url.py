"""PostgreSQL connection URLs: parse, describe, and point at another database."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit, urlunsplit

from psycopg.conninfo import conninfo_to_dict


def conninfo(url: str) -> dict[str, str]:
    """Split a URL into libpq keywords (host, port, dbname, user, password)."""
    parts = {k: str(v) for k, v in conninfo_to_dict(url).items() if v is not None}
    parts.setdefault("host", "localhost")
    parts.setdefault("port", "5432")
    parts.setdefault("user", "postgres")
    parts.setdefault("password", "")
    parts.setdefault("dbname", parts["user"])
    return parts


def describe(url: str) -> str:
    """Name the server a URL points at, for messages: `host:port/dbname`, never a password."""
    try:
        parts = conninfo(url)
    except Exception:
        return _host_only(url)
    return f"{parts['host']}:{parts['port']}/{parts['dbname']}"


def _host_only(url: str) -> str:
    split = urlsplit(url)
    host = split.hostname or parse_qs(split.query).get("host", ["?"])[0]
    return f"{host}{':' + str(split.port) if split.port else ''}"


def with_dbname(url: str, dbname: str) -> str:
    """Return the same URL pointing at another database on the same server."""
    split = urlsplit(url)
    return urlunsplit(split._replace(path="/" + dbname))


def with_user(url: str, user: str) -> str:
    """Return the same URL connecting as another role, with no password.

    For the embedded server (Unix socket, trust): the role's credentials never appear in a
    URL, so nothing printed or logged can leak them.
    """
    split = urlsplit(url)
    host = split.netloc.rpartition("@")[2]
    return urlunsplit(split._replace(netloc=f"{user}@{host}"))


def user_of(url: str) -> str:
    """The role a URL connects as (libpq's default `postgres` when it names none)."""
    return conninfo(url)["user"]
