"""Team matches on tablets (issue 13, point 6; EKML §29): a team match of three boards is
called to a block of three tables, one board on each. Each table's judge finds its board's
match by itself (the table's current match), plays it stroke by stroke, and each board's end
records that board; the team result and the standings follow. A block with one busy table
is refused, saying which table and what holds it."""

from __future__ import annotations

import asyncio
import json
import random
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
import websockets
from support.competition_play import REGISTRY, Comp, player
from support.harness import Api, run_async, wait_for
from support.play import fold_response, play
from tableside.eventlog import EventStore
from tableside.plugins.korona.competition_flow import match_result
from tableside.plugins.korona.folding import Record, fold_records

from competition.test_competition_double import play_until_ended

PROBLEM = "application/problem+json"
CLUBS = {"Kalev": ("Kask", "Kuusk", "Kadakas"), "Tartu": ("Tamm", "Toom", "Taru")}


@pytest.fixture(scope="module")
def clubs(head) -> Comp:
    return _club_cup(head, "Club cup")


def _club_cup(head: Api, name: str, **settings) -> Comp:
    """Two clubs of three boards in a round robin: one team match, R1-1."""
    guide = {
        "name": name,
        "format": "round_robin",
        "games_per_match": 1,
        "teams": {"boards": 3, "substitutes": 1, "play_all": settings.pop("play_all", True)},
        "tie_breaks": ["board_points"],
        **settings,
    }
    comp = Comp.create(head, guide)
    for club, names in CLUBS.items():
        comp.do(
            {
                "type": "RegisterEntrant",
                "entrant_id": club.lower(),
                "name": club,
                "members": [player(n) for n in (*names, f"{club} reserve")],
                "team": {"boards": list(names), "substitutes": [f"{club} reserve"]},
            }
        )
        comp.do({"type": "ApproveEntrant", "entrant_id": club.lower()})
        comp.do({"type": "CheckInEntrant", "entrant_id": club.lower()})
    comp.do({"type": "MakeDraw", "seed": 2})
    return comp


def _hall(api: Api) -> dict[int, dict]:
    r = api.get("/api/hall")
    assert r.status_code == 200, r.text
    return {h["table"]: h for h in r.json()}


def _refused(r, title: str, reason: str) -> dict:
    assert r.status_code == 409, r.text
    assert r.headers["content-type"].startswith(PROBLEM)
    body = r.json()
    assert body["title"] == title and body["reason"] == reason
    return body


def test_a_block_with_a_busy_table_is_refused(clubs, head):
    r = head.create(12, ["Walk Up"], ["Drop In"])
    assert r.status_code == 201, r.text
    wait_for(lambda: 12 in _hall(head))
    before = clubs.settled()["version"]
    match_id = clubs.settled()["waiting"][0]["match_id"]
    body = _refused(
        clubs.post({"type": "CallMatch", "match_id": match_id, "table": 10}),
        "Table 12 is busy",
        "table_busy",
    )
    assert body["table"] == 12 and "Walk Up" in body["detail"]
    listed = {"type": "CallMatch", "match_id": match_id, "table": 4, "tables": [4, 12, 5]}
    _refused(clubs.post(listed), "Table 12 is busy", "table_busy")
    body = _refused(
        clubs.post({"type": "CallNextMatches", "free_tables": [10, 11, 12, 14]}),
        "No free block of tables",
        "no_free_block",
    )
    assert body["boards"] == 3 and body["tables"] == [10, 11, 14]
    for tables, rule in (([4, 5], "EKML §29(2)"), ([4, 5, 10_000], "EKML §17(3)")):
        bad = {"type": "CallMatch", "match_id": match_id, "table": 4, "tables": tables}
        r = clubs.post(bad)
        assert r.status_code == 422 and r.headers["content-type"].startswith(PROBLEM), r.text
        assert r.json()["rule"] == rule
    doc = clubs.settled()
    assert doc["version"] == before and not doc["calls"]


def test_three_boards_on_three_tables_played_by_their_judges(
    clubs, server, head, module_database_url
):
    clubs.do({"type": "CallNextMatches", "free_tables": [1, 2, 3, 4]})
    calls = clubs.settled()["calls"]
    assert [(c["table"], c["board"]) for c in calls] == [(1, 1), (2, 2), (3, 3)]
    a, b = calls[0]["a"], calls[0]["b"]
    lineups = {k: (CLUBS[a.title()][k - 1], CLUBS[b.title()][k - 1]) for k in (1, 2, 3)}
    assert {c["board"]: tuple(c["players"]) for c in calls} == lineups
    hall = wait_for(lambda: _boards_on_tables(head))
    for k in (1, 2, 3):
        assert hall[k]["match_id"] == calls[0]["match_id"] and hall[k]["board"] == k
        teams = f"{a.title()} – {b.title()}"
        assert hall[k]["players"] == f"{' – '.join(lineups[k])} ({teams})"
    live = run_async(_hall_feed_boards(server))
    assert {t: (m["board"], *m["side_a"], *m["side_b"]) for t, m in live.items()} == {
        k: (k, *lineups[k]) for k in (1, 2, 3)
    }
    store = EventStore.connect(REGISTRY, module_database_url, 3)
    try:
        views = _play_every_board(server, head, lineups, store)
    finally:
        store.close()
    doc = wait_for(lambda: _with_result(clubs), timeout=30)
    result = doc["results"][calls[0]["match_id"]]
    won = [sum(1 for v in views if v.state.won[i] > v.state.won[1 - i]) for i in (0, 1)]
    assert (result["a_games"], result["b_games"]) == tuple(won)
    assert result["drawn_games"] == 3 - sum(won)
    _standings_follow(clubs, a, b, won)
    wait_for(lambda: not {1, 2, 3} & set(_hall(head)))


async def _hall_feed_boards(server) -> dict[int, dict]:
    """The whole-venue feed's snapshot (`/live?hall=all`): the match on tables 1–3."""
    async with websockets.connect(f"{server.ws}/live?hall=all") as ws:
        snapshot = json.loads(await asyncio.wait_for(ws.recv(), 5))
    assert snapshot["kind"] == "snapshot"
    return {m["table"]: m for m in snapshot["matches"] if m["table"] in (1, 2, 3)}


def _boards_on_tables(head: Api) -> dict[int, dict] | None:
    hall = _hall(head)
    ready = all(hall.get(k, {}).get("state") == "waiting" for k in (1, 2, 3))
    named = all(hall.get(k, {}).get("board") == k for k in (1, 2, 3))
    return hall if ready and named and _tables_have_boards(head) else None


def _tables_have_boards(head: Api) -> bool:
    """Each table's current match is its board's (the match stream exists)."""
    docs = [head.get(f"/api/tables/{k}") for k in (1, 2, 3)]
    return all(r.status_code == 200 and r.json().get("board") == k for k, r in enumerate(docs, 1))


def _play_every_board(server, head: Api, lineups: dict, store: EventStore) -> list:
    """Each table's judge, with the table's own token, plays what the table holds now."""
    tokens = {k: head.judge_token(k)["token"] for k in (1, 2, 3)}

    def board(k: int):
        judge, chief = Api(server.base, tokens[k]), Api(server.base, head.token)
        try:
            table = judge.get(f"/api/tables/{k}").json()
            assert table["board"] == k and tuple(table["side_a"] + table["side_b"]) == lineups[k]
            stream = uuid.UUID(table["match_id"])
            return play(chief, judge, str(stream), _fold(store, stream), random.Random(k))
        finally:
            judge.http.close()
            chief.http.close()

    with ThreadPoolExecutor(3) as pool:
        return list(pool.map(board, (1, 2, 3)))


def _with_result(comp: Comp) -> dict | None:
    doc = comp.settled()
    return doc if doc["results"] else None


def _standings_follow(comp: Comp, a: str, b: str, won: list[int]) -> None:
    rows = {r["entrant"]: r for r in comp.doc("/standings")["rows"]}
    if won[0] == won[1]:
        assert rows[a]["drawn"] == rows[b]["drawn"] == 1
        return
    winner, loser = (a, b) if won[0] > won[1] else (b, a)
    assert rows[winner]["won"] == 1 and rows[loser]["lost"] == 1
    assert rows[winner]["place"] == 1 and rows[winner]["points"] > rows[loser]["points"]


def _boards_started(head: Api, tables: tuple[int, ...]) -> bool:
    docs = [head.get(f"/api/tables/{t}") for t in tables]
    return all(r.status_code == 200 and r.json().get("board") for r in docs)


def _closed(head: Api, tables: tuple[int, ...], reason: str) -> None:
    """Every board's table shows its match abandoned with the reason, and the hall frees it."""

    def done():
        docs = [head.get(f"/api/tables/{t}").json() for t in tables]
        return all(d["status"] == "abandoned" and d.get("abandoned") == reason for d in docs)

    wait_for(done, timeout=15)
    wait_for(lambda: not set(tables) & set(_hall(head)))


def test_a_withdrawal_closes_every_board_left_unplayed(head):
    comp = _club_cup(head, "Withdrawal cup")
    comp.do({"type": "CallMatch", "match_id": "R1-1", "table": 20})
    wait_for(lambda: _boards_started(head, (20, 21, 22)), timeout=15)
    comp.do({"type": "WithdrawEntrant", "entrant_id": "tartu"})
    result = wait_for(lambda: _with_result(comp), timeout=15)["results"]["R1-1"]
    assert result["forfeit"] and result["withdrawal"]
    _closed(head, (20, 21, 22), "forfeit_recorded")


def test_novus08_23_2_a_decided_team_match_closes_the_boards_left(head):
    comp = _club_cup(head, "Stop-when-decided cup", play_all=False, ruleset="NOVUS08")
    comp.do({"type": "CallMatch", "match_id": "R1-1", "table": 30, "tables": [30, 34, 32]})
    wait_for(lambda: _boards_started(head, (30, 34, 32)), timeout=15)
    assert 31 not in _hall(head) and _hall(head)[34]["board"] == 2
    for board in (1, 2):  # typed from paper protocols; two boards to none decides three
        won = {"a_games": 1, "b_games": 0}
        comp.do({"type": "RecordBoardResult", "match_id": "R1-1", "board": board, "result": won})
    result = wait_for(lambda: _with_result(comp), timeout=15)["results"]["R1-1"]
    assert (result["a_games"], result["b_games"]) == (2, 0)
    _closed(head, (30, 34, 32), "team_result_recorded")


def test_a_board_corrected_after_its_end_corrects_the_team_result(
    server, head, module_database_url
):
    """A board's judge undoes the last entry after the board ended and plays on: the board's
    result is corrected and the team result follows (CorrectBoardResult from the processor)."""
    comp = _club_cup(head, "Correction cup")
    comp.do({"type": "CallMatch", "match_id": "R1-1", "table": 40})
    wait_for(lambda: _boards_started(head, (40, 41, 42)), timeout=15)
    streams = [uuid.UUID(head.get(f"/api/tables/{t}").json()["match_id"]) for t in (40, 41, 42)]
    tokens = [head.judge_token(t)["token"] for t in (40, 41, 42)]
    store = EventStore.connect(REGISTRY, module_database_url, 3)
    judges = [Api(server.base, token) for token in tokens]
    try:
        views = [_fold(store, s) for s in streams]
        rng = random.Random(7)
        for i, stream in enumerate(streams):
            views[i] = play_until_ended(judges[i], head, stream, views[i], rng)
        first = wait_for(lambda: _with_result(comp), timeout=15)["results"]["R1-1"]
        assert first == {**first, **_team(store, streams)}
        before = match_result(store.read(streams[2]))[1]
        for _ in range(10):
            undo = {"type": "UndoLastEntry", "reason": "entered by mistake"}
            r = judges[2].command(streams[2], views[2].version, undo)
            assert r.status_code == 201, r.text
            views[2] = fold_response(views[2], streams[2], r.json())
            views[2] = play_until_ended(judges[2], head, streams[2], views[2], rng)
            if match_result(store.read(streams[2]))[1] != before:
                break
        expected = _team(store, streams)
        doc = wait_for(lambda: _team_result_is(comp, expected), timeout=15)
    finally:
        for judge in judges:
            judge.http.close()
        store.close()
    assert doc["results"]["R1-1"] != first


def _fold(store: EventStore, stream: uuid.UUID):
    stored = store.read(stream)
    return fold_records(
        [Record(s.stream_id, s.version, s.position, s.type, s.event, None) for s in stored]
    )


def _team(store: EventStore, streams: list[uuid.UUID]) -> dict:
    """The team result the boards give: boards won each, drawn boards, pucks summed."""
    boards = [match_result(store.read(s))[1] for s in streams]
    a = sum(1 for r in boards if r.a_games > r.b_games)
    b = sum(1 for r in boards if r.b_games > r.a_games)
    pucks = sum(r.a_pucks_diff for r in boards)
    return {"a_games": a, "b_games": b, "drawn_games": 3 - a - b, "a_pucks_diff": pucks}


def _team_result_is(comp: Comp, expected: dict) -> dict | None:
    doc = comp.settled()
    result = doc["results"].get("R1-1", {})
    return doc if result == {**result, **expected} else None


def test_ekml_29_6_a_substitute_plays_the_absent_players_board(head):
    comp = _club_cup(head, "Substitute cup")
    call = {"type": "CallMatch", "match_id": "R1-1", "table": 50, "absent": ["Nobody"]}
    r = comp.post(call)
    assert r.status_code == 422 and r.json()["rule"] == "EKML §29(6)", r.text
    comp.do({**call, "absent": ["Kuusk"]})
    wait_for(lambda: _boards_started(head, (50, 51, 52)), timeout=15)
    board_two = head.get("/api/tables/51").json()
    assert "Kalev reserve" in board_two["side_a"] + board_two["side_b"]
    assert "Kuusk" not in board_two["side_a"] + board_two["side_b"]
    assert "Kalev reserve" in _hall(head)[51]["players"]
