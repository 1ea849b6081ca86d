"""Rebuilds that cannot lie (issue 10 point 4): `tableside projections rebuild` while judges
post on several tables ends with read models equal to a from-zero fold of the store.

Judges play simulated matches on four tables throughout; the CLI rebuild runs in the middle
of it. Then the posting stops, the server's runners catch up, and every read model table is
compared row for row with a second rebuild made while nothing writes.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time

import msgspec
import psycopg
from support.competition_play import Comp, player
from support.harness import Api, wait_for
from support.play import create, fold_response
from tableside.disciplines.korona import commands as rc
from tableside.disciplines.korona import simulate

READ_MODELS = (
    "match_live",
    "match_protocol",
    "table_overview",
    "match_history",
    "competition_view",
    "competition_standings",
    "projection_tracking",
)
TABLES = (31, 32, 33, 34)


def _rows(url: str) -> dict[str, list[str]]:
    with psycopg.connect(url) as conn:
        return {
            t: [r[0] for r in conn.execute(f"SELECT t::text FROM {t} t ORDER BY 1").fetchall()]
            for t in READ_MODELS
        }


def _caught_up(url: str) -> bool:
    with psycopg.connect(url) as conn:
        head = conn.execute("SELECT max(notification_id) FROM stored_events").fetchone()[0]
        low = conn.execute(
            "SELECT min(position) FROM projection_tracking WHERE name <> 'competition_results'"
        ).fetchone()[0]
    return head == low


def _rebuild(url: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATABASE_URL": url}
    return subprocess.run(
        [sys.executable, "-m", "tableside.cli", "projections", "rebuild"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _judge_table(server, head: Api, table: int, stop: threading.Event, posted: list) -> None:
    """Play simulated matches on one table, one after another, until told to stop."""
    rng = random.Random(table)
    judge = Api(server.base, head.judge_token(table)["token"])
    boss = Api(server.base, head.token)
    while not stop.is_set():
        match_id, view = create(boss, table, rng)
        while not stop.is_set():
            cmd = simulate.next_command(view.state, rng)
            if cmd is None:
                break
            sender = boss if isinstance(cmd, rc.CorrectDecision) else judge
            r = sender.command(match_id, view.version, msgspec.to_builtins(cmd))
            assert r.status_code == 201, r.text
            view = fold_response(view, match_id, r.json())
            posted.append(r.json()["last_version"])


def test_rebuild_while_judges_post_equals_a_fold_from_zero(server, head, module_database_url):
    comp = Comp.create(head, {"name": "Load cup", "format": "swiss", "rounds": 3})
    comp.enter([(f"e{i}", [player(f"Player {i}")]) for i in range(1, 5)])
    stop, posted = threading.Event(), []
    judges = [
        threading.Thread(target=_judge_table, args=(server, head, t, stop, posted)) for t in TABLES
    ]
    for t in judges:
        t.start()
    try:
        wait_for(lambda: len(posted) >= 400, timeout=120, step=0.1)
        during = _rebuild(module_database_url)
        posted_during = len(posted)
        time.sleep(1)  # and some more afterwards, on the runners' side
    finally:
        stop.set()
        for t in judges:
            t.join()
    assert during.returncode == 0, during.stderr
    assert len(posted) > posted_during  # judges were still posting when the rebuild ended
    wait_for(lambda: _caught_up(module_database_url), timeout=60, step=0.1)
    live = _rows(module_database_url)
    assert len(live["match_history"]) > 400
    idle = _rebuild(module_database_url)  # nothing writes now: a plain fold from zero
    assert idle.returncode == 0, idle.stderr
    folded = _rows(module_database_url)
    for table in READ_MODELS:
        assert live[table] == folded[table], f"{table} differs from a fold from zero"
