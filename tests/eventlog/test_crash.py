"""kill -9 of the server while 4 clients post 500 commands with retries: each stored once."""

from __future__ import annotations

import random
import threading
import time
import uuid

import httpx
import psycopg
from support.harness import Api, Server
from support.play import create, fold_response
from tableside.eventlog.audit_source import records_from_database
from tableside.eventlog.verify import verify

CLIENTS, PER_CLIENT = 4, 125
KILLS: list = []
RETRIES: list = []  # command ids re-sent after a lost connection


def _post_until_acknowledged(api: Api, match_id, version: int, command: dict, stop_at: float):
    command_id = uuid.uuid4()
    while time.monotonic() < stop_at:
        try:
            r = api.command(match_id, version, command, command_id=command_id)
        except httpx.HTTPError:
            RETRIES.append(command_id)
            time.sleep(0.05)
            continue
        if r.status_code == 201:
            return command_id, r.json()
        if r.status_code >= 500:
            time.sleep(0.05)
            continue
        raise AssertionError(r.text)
    raise AssertionError("server never came back")


def _client(api: Api, match_id, view, acked: list, stop_at: float) -> None:
    for _ in range(PER_CLIENT):
        stroke = {"type": "RecordStroke", "player": view.state.game.turn, "facts": {}}
        command_id, body = _post_until_acknowledged(api, match_id, view.version, stroke, stop_at)
        acked.append((command_id, body))
        view = fold_response(view, match_id, body)


def _killer(server: Server, acked: list, kills: int) -> None:
    for n in range(kills):
        while len(acked) < (n + 1) * 500 // (kills + 1):
            time.sleep(0.005)
        server.kill9()
        server.start()
        KILLS.append(n)


def test_kill_9_loses_nothing_and_duplicates_nothing(module_database_url):
    server = Server(module_database_url).start()
    try:
        head = Api(server.base).login()
        matches = []
        for i in range(CLIENTS):
            match_id, view = create(head, 41 + i, random.Random(i))
            r = head.command(
                match_id,
                view.version,
                {"type": "AssignOpeningShot", "method": "lot", "lot_winner": "A"},
            )
            matches.append((match_id, fold_response(view, match_id, r.json())))
        acked: list = []
        stop_at = time.monotonic() + 240
        threads = [
            threading.Thread(
                target=_client, args=(Api(server.base, head.token), m, v, acked, stop_at)
            )
            for m, v in matches
        ]
        threads.append(threading.Thread(target=_killer, args=(server, acked, 2)))
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(acked) == CLIENTS * PER_CLIENT
        assert len(KILLS) == 2 and RETRIES
        _check_stored_once(module_database_url, acked)
    finally:
        server.stop()


def _check_stored_once(url: str, acked: list) -> None:
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT command_id, array_agg(notification_id ORDER BY "
            "notification_id) FROM stored_events GROUP BY command_id"
        ).fetchall()
    stored = {cid: positions for cid, positions in rows}
    for command_id, body in acked:
        assert stored[command_id] == body["positions"]  # exactly the acknowledged events, once
    report = verify(records_from_database(url))
    assert report.broken is None, report.broken.describe()
