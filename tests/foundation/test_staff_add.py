"""Issue 45, an operator's first start: `tableside staff add` makes a staff account from the
terminal — the password asked twice without echo, or read from stdin, never in argv — and
refuses in one clear line; the account signs in to the console of a real server."""

from __future__ import annotations

import os
import pty
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import psutil
import psycopg
import pytest
from tableside.staff.passwords import check_password
from test_serve import Serve, free_port, postmasters

TABLESIDE = str(Path(sys.executable).with_name("tableside"))


def _add(url: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TABLESIDE, "staff", "add", *args],
        env={**os.environ, "DATABASE_URL": url, "TABLESIDE_MIGRATE_URL": ""},
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def _hash(url: str, name: str) -> tuple[str, str] | None:
    with psycopg.connect(url) as conn:
        return conn.execute(
            "SELECT role, password_hash FROM staff_accounts WHERE username = %s", (name,)
        ).fetchone()


def test_staff_add_reads_the_password_from_stdin_and_makes_a_head_judge(database_url) -> None:
    done = _add(database_url, "anna", stdin="kohtunik-2026\n")
    assert done.returncode == 0, done.stderr
    assert "anna" in done.stdout and "head_judge" in done.stdout
    role, stored = _hash(database_url, "anna")
    assert role == "head_judge" and check_password("kohtunik-2026", stored)
    assert "kohtunik-2026" not in done.stdout + done.stderr


@pytest.mark.parametrize(
    ("name", "password", "says"),
    [
        ("anna", "lühike\n", "at least 8 characters"),
        ("anna", "\n", "no password given"),
        ("anna", "ANNA\n", "at least 8"),
        ("annaliisa", "AnnaLiisa\n", "must not be the account's name"),
        ("anna liisa", "kohtunik-2026\n", "no spaces"),
    ],
)
def test_staff_add_refuses_in_one_clear_line_and_makes_nothing(
    database_url, name: str, password: str, says: str
) -> None:
    done = _add(database_url, name, stdin=password)
    assert done.returncode == 1
    assert says in done.stderr and done.stderr.strip().count("\n") == 0, done.stderr
    assert "Traceback" not in done.stderr
    with psycopg.connect(database_url) as conn:
        assert conn.execute("SELECT count(*) FROM staff_accounts").fetchone()[0] == 0


def test_staff_add_refuses_a_taken_name_and_keeps_its_password(database_url) -> None:
    assert _add(database_url, "anna", stdin="kohtunik-2026\n").returncode == 0
    again = _add(database_url, "anna", "--role", "auditor", stdin="teine-parool-1\n")
    assert again.returncode == 1 and "there already" in again.stderr
    role, stored = _hash(database_url, "anna")
    assert role == "head_judge" and check_password("kohtunik-2026", stored)


def test_staff_add_has_no_password_argument(database_url) -> None:
    done = _add(database_url, "anna", "--password", "kohtunik-2026")
    assert done.returncode == 2 and "unrecognized arguments" in done.stderr
    assert _hash(database_url, "anna") is None


def _on_a_terminal(url: str, *answers: str) -> tuple[int, str]:
    """Run `staff add mari` on a pseudo-terminal, typing each answer after its prompt."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, with the pty as its terminal
        env = {**os.environ, "DATABASE_URL": url, "TABLESIDE_MIGRATE_URL": ""}
        os.execve(TABLESIDE, [TABLESIDE, "staff", "add", "mari"], env)
    seen, typed = b"", 0
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            chunk = os.read(fd, 1024)
        except OSError:  # the child closed the terminal: it has exited
            break
        seen += chunk
        if typed < len(answers) and seen.count(b"assword") > typed:
            os.write(fd, answers[typed].encode() + b"\n")
            typed += 1
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return os.waitstatus_to_exitcode(status), seen.decode(errors="replace")


def test_staff_add_on_a_terminal_asks_twice_without_echo(database_url) -> None:
    code, screen = _on_a_terminal(database_url, "kohtunik-2026", "kohtunik-2027")
    assert code == 1 and "the two passwords differ" in screen
    assert "kohtunik-202" not in screen  # never echoed
    assert _hash(database_url, "mari") is None
    code, screen = _on_a_terminal(database_url, "kohtunik-2026", "kohtunik-2026")
    assert code == 0, screen
    assert screen.count("assword") == 2 and "kohtunik-2026" not in screen
    assert check_password("kohtunik-2026", _hash(database_url, "mari")[1])


def test_a_first_serve_says_how_in_and_staff_add_opens_the_console() -> None:
    """Plain `serve` on a new store names `tableside staff add`; the account it makes (on the
    running server's embedded PostgreSQL) signs in to the console."""
    work = Path(tempfile.mkdtemp(prefix="tableside-staff-"))  # outside pytest's temp root
    data_dir = work / "pgdata"
    env = {"DATABASE_URL": "", "PORT": "", "HOST": "", "TABLESIDE_ADMIN_USER": ""}
    serve = Serve(data_dir, free_port(), **env)
    try:
        assert serve.health()["status"] == "ok"
        login = {"username": "anna", "password": "kohtunik-2026"}
        base = f"http://127.0.0.1:{serve.port}"
        assert httpx.post(f"{base}/api/login", json=login).status_code == 401
        done = subprocess.run(
            [TABLESIDE, "staff", "add", "anna", "--data-dir", str(data_dir)],
            env={**os.environ, **env},
            input="kohtunik-2026\n",
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        signed_in = httpx.post(f"{base}/api/login", json=login)
        assert signed_in.status_code == 201 and signed_in.json()["role"] == "head_judge"
        code, out, err = serve.stop()
        assert code == 0, err[-3000:]
        assert "no staff account yet" in out and "tableside staff add <name>" in out, out
        assert "TABLESIDE_ADMIN_USER" in out
    finally:
        if serve.proc.poll() is None:
            serve.proc.kill()
        for pid in postmasters(data_dir):
            psutil.Process(pid).kill()
        shutil.rmtree(work, ignore_errors=True)
