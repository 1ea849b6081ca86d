"""A 16-pair double elimination run end to end through the API: calls create the match
streams, table judges play them (simulated), results flow back; the standings read model
rebuilt from zero equals the live one."""

from __future__ import annotations

import random
import uuid
from collections import Counter

import msgspec
import pytest
from support.competition_play import Comp, Tables, player, wait_results
from support.harness import wait_for
from support.play import fold_response
from tableside.disciplines.korona import commands as rc
from tableside.disciplines.korona import simulate
from tableside.plugins.korona.competition_flow import match_result

pytestmark = pytest.mark.long  # started first under `make test` (tests/conftest.py)

GUIDE = {
    "name": "Kuusalu pairs",
    "discipline": "mixed_pairs",
    "format": "double_elimination",
    "games_per_match": 1,
    "points": {"win": 4, "draw": 2, "loss": 0},
}
TABLES = list(range(1, 9))


def test_sixteen_pairs_double_elimination(server, head, module_database_url):
    comp = Comp.create(head, GUIDE)
    comp.enter(
        [(f"p{i:02d}", [player(f"Mees {i}"), player(f"Naine {i}", "F")]) for i in range(1, 17)]
    )
    comp.do({"type": "MakeDraw", "seed": 7})
    tables = Tables(server, head, module_database_url, seed=16)
    try:
        played = 0
        while not comp.settled()["placings"] or comp.settled()["waiting"]:
            comp.do({"type": "CallNextMatches", "free_tables": TABLES})
            played += tables.play_calls(comp)
            doc = wait_results(comp, played)
    finally:
        tables.close()
    assert_double_elimination(doc)
    comp.do({"type": "FinishCompetition"})
    assert_rebuild_equal(module_database_url)


def assert_double_elimination(doc: dict) -> None:
    """Everyone but the champion is out after exactly two losses; everyone is placed."""
    lost = Counter()
    for r in doc["results"].values():
        lost[r["b"] if r["a_games"] > r["b_games"] else r["a"]] += 1
    champion = doc["placings"][0][0]
    assert lost[champion] <= 1
    assert {e for e, k in lost.items() if k == 2} == {f"p{i:02d}" for i in range(1, 17)} - {
        champion
    }
    assert sum(len(g) for g in doc["placings"]) == 16
    assert all(not r["forfeit"] for r in doc["results"].values())


def assert_rebuild_equal(url: str) -> None:
    """Standings rows are the same bytes after `tableside projections rebuild standings`."""
    import os
    import subprocess
    import sys

    import psycopg

    query = (
        "SELECT (SELECT string_agg(doc::text, '|' ORDER BY competition_id) FROM "
        "competition_view), (SELECT string_agg(row::text, '|' ORDER BY competition_id, "
        "rank) FROM competition_standings)"
    )
    wait_for(lambda: _standings_caught_up(url))  # compare a live view that has seen it all
    with psycopg.connect(url) as conn:
        live = conn.execute(query).fetchone()
    done = subprocess.run(
        [sys.executable, "-m", "tableside.cli", "projections", "rebuild", "standings"],
        env={**os.environ, "DATABASE_URL": url},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "rebuilt standings" in done.stdout
    with psycopg.connect(url) as conn:
        again = conn.execute(query).fetchone()
    assert live[0] and live == again


def test_a_match_corrected_after_its_end_corrects_the_competition(
    server, head, module_database_url
):
    """The judge undoes the match's last entry after it ended and plays on: the competition's
    result follows the match stream again (CorrectResult from the results processor)."""
    comp = Comp.create(head, {"name": "Two", "format": "round_robin", "games_per_match": 1})
    comp.enter([("x1", [player("Ann Org")]), ("x2", [player("Bob Puu")])])
    comp.do({"type": "MakeDraw", "seed": 1})
    comp.do({"type": "CallNextMatches", "free_tables": [20]})
    match_id = comp.settled()["calls"][0]["match_id"]
    stream = uuid.uuid5(uuid.UUID(comp.id), match_id)
    tables = Tables(server, head, module_database_url, seed=2)
    judge = tables.judge(20)
    try:
        view = wait_for(lambda: tables._view(stream))
        rng = random.Random(3)
        view = play_until_ended(judge, head, stream, view, rng)
        first = wait_results(comp, 1)["results"][match_id]
        for _ in range(10):
            undo = judge.command(
                stream, view.version, {"type": "UndoLastEntry", "reason": "entered by mistake"}
            )
            assert undo.status_code == 201, undo.text
            view = fold_response(view, stream, undo.json())
            view = play_until_ended(judge, head, stream, view, rng)
            now = match_result(tables.store.read(stream))[1]
            if msgspec.to_builtins(now) != {k: first[k] for k in msgspec.to_builtins(now)}:
                break
        expected = msgspec.to_builtins(now)
        doc = wait_for(
            lambda: (
                (d := comp.settled())
                and d["results"][match_id] == {"a": first["a"], "b": first["b"], **expected}
                and d
            ),
            timeout=10,
        )
    finally:
        judge.http.close()
        tables.close()
    assert doc["results"][match_id] != first


def play_until_ended(judge, head, stream, view, rng):
    """Simulated commands until the match has ended (the protocol left unsigned)."""
    while not view.state.ended:
        command = simulate.next_command(view.state, rng)
        sender = head if isinstance(command, rc.CorrectDecision) else judge
        r = sender.command(stream, view.version, msgspec.to_builtins(command))
        assert r.status_code == 201, r.text
        view = fold_response(view, stream, r.json())
    return view


def _standings_caught_up(url: str) -> bool:
    import psycopg

    with psycopg.connect(url) as conn:
        head = conn.execute("SELECT max(notification_id) FROM stored_events").fetchone()[0]
        seen = conn.execute(
            "SELECT position FROM projection_tracking WHERE name = 'standings'"
        ).fetchone()[0]
    return head == seen
