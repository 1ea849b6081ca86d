"""A backgammon match (KSI) over real HTTP into the shared store: commands, refusals citing the
paragraph, idempotent retries, the state, the .mat export, and a whole simulated match."""

from __future__ import annotations

import json
import random
import uuid
from pathlib import Path

import msgspec
import pytest
from support.harness import Api, wait_for
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import decide, fold, initial_state
from tableside.disciplines.backgammon.simulate import next_command
from tableside.eventlog.jsonl import verify_export
from tableside.settings import PWA_DIR

from backgammon.test_scenario import Table, _play_until_flag, scenario_seed  # tests/backgammon

DATA = Path(__file__).resolve().parents[1] / "backgammon" / "data"


def _create(api: Api, length: int = 3, **extra) -> tuple[str, dict]:
    body = {
        "command_id": str(uuid.uuid4()),
        "player_a": "Ása",
        "player_b": "Bjarni",
        "length": length,
        **extra,
    }
    r = api.http.post("/api/backgammon/matches", json=body, headers=api.headers())
    assert r.status_code == 201, r.text
    return r.json()["match_id"], r.json()


def _post(api: Api, match_id: str, version: int, command: c.Command, command_id=None):
    body = {
        "command_id": str(command_id or uuid.uuid4()),
        "expected_version": version,
        "command": msgspec.to_builtins(command),
    }
    return api.http.post(
        f"/api/backgammon/matches/{match_id}/commands", json=body, headers=api.headers()
    )


def _state(api: Api, match_id: str) -> dict:
    r = api.get(f"/api/backgammon/matches/{match_id}")
    assert r.status_code == 200, r.text
    return r.json()


@pytest.fixture(scope="module")
def dropped(head: Api) -> tuple[str, list[dict]]:
    """A 3-point match: A opens 31, B doubles, A drops (0-1); the events as stored."""
    match_id, created = _create(head)
    v, events = created["last_version"], [e["event"] for e in created["events"]]
    for cmd in (
        c.StartGame(),
        c.RollOpening(die_a=3, die_b=1),
        c.Play(side="A", moves=((8, 5), (6, 5))),
        c.Double(side="B"),
        c.Drop(side="A"),
    ):
        r = _post(head, match_id, v, cmd)
        assert r.status_code == 201, r.text
        v = r.json()["last_version"]
        events += [e["event"] for e in r.json()["events"]]
    return match_id, events


def test_commands_are_stored_with_their_paragraph(head: Api, dropped) -> None:
    match_id, events = dropped
    doc = _state(head, match_id)
    assert doc["version"] == len(events)
    assert doc["state"]["score"] == [0, 1] and doc["state"]["game"]["phase"] == "over"
    rules = {e["type"]: e["rule"] for e in events}
    assert rules["BgDoubleDropped"] == "KSI 4.4.3" and rules["BgGameStarted"] == "KSI 4.4.1"
    assert rules["BgGameEnded"] == "KSI 4.4.3" and rules["BgDoubleOffered"] == "KSI 4.4.2"
    assert all(e["rule"].startswith("KSI ") for e in events)
    mat = head.get(f"/api/backgammon/matches/{match_id}/match.mat").text
    assert "  1) 31: 8/5 6/5                  Doubles => 2\n" in mat
    assert "  2)  Drops                       Wins 1 point\n" in mat


def test_a_refused_command_cites_the_paragraph_and_changes_nothing(head: Api) -> None:
    match_id, created = _create(head)
    v = created["last_version"]
    for cmd in (c.StartGame(), c.RollOpening(die_a=3, die_b=1)):
        v = _post(head, match_id, v, cmd).json()["last_version"]
    r = _post(head, match_id, v, c.Double(side="A"))  # after rolling
    assert r.status_code == 422
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["rule"] == "KSI 4.4.2"
    r = _post(head, match_id, v, c.Concede(side="B", kind="single"))
    assert r.status_code == 422 and r.json()["rule"] == "KSI 4.5"
    assert _state(head, match_id)["version"] == v


def test_stale_version_retry_and_wrong_callers(head: Api, server) -> None:
    match_id, created = _create(head)
    v = created["last_version"]
    cid = uuid.uuid4()
    first = _post(head, match_id, v, c.StartGame(), command_id=cid)
    again = _post(head, match_id, v, c.StartGame(), command_id=cid)
    assert first.status_code == again.status_code == 201 and first.json() == again.json()
    assert _post(head, match_id, v, c.StartGame()).status_code == 409
    anonymous = Api(server.base)
    assert _post(anonymous, match_id, v + 1, c.RollOpening(die_a=3, die_b=1)).status_code == 401
    assert head.get(f"/api/backgammon/matches/{uuid.uuid4()}").status_code == 404
    bad = {"command_id": str(uuid.uuid4()), "expected_version": v + 1, "command": {"type": "Fly"}}
    r = head.http.post(
        f"/api/backgammon/matches/{match_id}/commands", json=bad, headers=head.headers()
    )
    assert r.status_code == 422


def test_a_reused_command_id_with_another_command_is_409_and_stores_nothing(head: Api) -> None:
    match_id, created = _create(head)
    v = created["last_version"]
    cid = uuid.uuid4()
    assert _post(head, match_id, v, c.StartGame(), command_id=cid).status_code == 201
    reused = _post(head, match_id, v + 1, c.RollOpening(die_a=3, die_b=1), command_id=cid)
    assert reused.status_code == 409, reused.text
    assert reused.headers["content-type"].startswith("application/problem+json")
    assert _state(head, match_id)["version"] == v + 1


def test_a_whole_simulated_match_over_http_and_its_mat_export(head: Api) -> None:
    match_id, created = _create(head, length=3)
    v = created["last_version"]
    rng, local = random.Random(4), initial_state()
    local = fold(
        decide(local, c.CreateMatch(match_id="x", player_a="Ása", player_b="Bjarni", length=3))
    )
    while not local.over:
        cmd = next_command(local, rng)
        r = _post(head, match_id, v, cmd)
        assert r.status_code == 201, (cmd, r.text)
        v = r.json()["last_version"]
        local = fold(decide(local, cmd), local)
    doc = _state(head, match_id)
    assert doc["state"]["score"] == list(local.score) and doc["state"]["over"]
    mat = head.get(f"/api/backgammon/matches/{match_id}/match.mat")
    assert mat.status_code == 200 and mat.headers["content-type"].startswith("text/plain")
    assert " 3 point match" in mat.text and " Game 1" in mat.text and "Wins" in mat.text


def test_the_record_downloads_and_verifies_like_a_korona_match(head: Api, dropped) -> None:
    match_id, _ = dropped
    r = head.get(f"/api/matches/{match_id}/record.jsonl")
    assert r.status_code == 200, r.text
    lines = r.content.splitlines(keepends=True)
    assert verify_export(lines)[1] is None
    events = [line for line in lines if b'"kind":"event"' in line]
    assert len(events) == _state(head, match_id)["version"]


def test_a_mat_file_gnubg_wrote_is_recorded_through_the_engine(head: Api) -> None:
    text = (DATA / "gnubg_5pt.mat").read_text()
    body = {"command_id": str(uuid.uuid4()), "text": text}
    r = head.http.post("/api/backgammon/matches/import", json=body, headers=head.headers())
    assert r.status_code == 201, r.text
    doc = _state(head, r.json()["match_id"])
    assert doc["state"]["score"] == [7, 3] and doc["state"]["over"]
    again = head.get(f"/api/backgammon/matches/{r.json()['match_id']}/match.mat")
    assert " Game 5" in again.text
    bad = {"command_id": str(uuid.uuid4()), "text": "not a match"}
    r = head.http.post("/api/backgammon/matches/import", json=bad, headers=head.headers())
    assert r.status_code == 422 and "mat" in r.json()["title"]
    illegal = {
        "command_id": str(uuid.uuid4()),
        "text": " 1 point match\n\n Game 1\n a : 0    b : 0\n  1) 31: 9/6 7/6\n",
    }
    r = head.http.post("/api/backgammon/matches/import", json=illegal, headers=head.headers())
    assert r.status_code == 422 and r.json()["rule"] == "KSI 1.2.1"
    assert "line 5, game 1" in r.json()["detail"], r.json()


def test_a_match_imported_from_a_file_is_not_listed_as_played_in_the_hall(head: Api) -> None:
    """Issue 53: matches imported from files showed on the spectators' front page beside the
    event's, an unfinished one looking live ("to 7"). An imported match is history: the hall's
    list (`/api/backgammon/live`, the `hall:backgammon` snapshot) lists the match being played
    and not the file's."""
    text = " 7 point match\n\n Game 1\n Ása : 0    Bjarni : 0\n  1) 31: 8/5 6/5\n"
    text += "      Wins 1 point\n"  # Ása resigns nothing: 1:0 of 7, unfinished
    body = {"command_id": str(uuid.uuid4()), "text": text}
    r = head.http.post("/api/backgammon/matches/import", json=body, headers=head.headers())
    assert r.status_code == 201, r.text
    imported = r.json()["match_id"]
    assert not _state(head, imported)["state"]["over"]  # unfinished: it would look live
    live, _ = _create(head)

    def listed():
        ids = [m["match_id"] for m in head.get("/api/backgammon/live").json()]
        return ids if live in ids else None

    assert imported not in wait_for(listed, timeout=15)


def test_a_refused_mat_file_says_what_it_refuses_in_the_readers_words(head: Api) -> None:
    """Issue 53: a refusal named only a line number. Text that is not a point names the text;
    a record the rules refuse says, in the reader's language, the engine's own words for it."""
    words = {lang: _codes(lang) for lang in ("is", "en")}
    bad = " 1 point match\n\n Game 1\n a : 0    b : 0\n  1) 31: 8/5 6/x\n"
    for lang in ("is", "en"):
        body = {"command_id": str(uuid.uuid4()), "text": bad}
        r = head.http.post(f"/api/backgammon/matches/import?lang={lang}", json=body,
                           headers=head.headers())  # fmt: skip
        said = r.json()
        assert r.status_code == 422 and said["code"] == "mat_not_a_point", said
        wanted = words[lang]["code.mat_not_a_point"].format(line=5, text="x")
        assert said["title"] == wanted, said
    illegal = " 1 point match\n\n Game 1\n a : 0    b : 0\n  1) 31: 9/6 7/6\n"
    body = {"command_id": str(uuid.uuid4()), "text": illegal}
    r = head.http.post("/api/backgammon/matches/import?lang=is", json=body, headers=head.headers())
    said = r.json()
    assert r.status_code == 422 and said["code"] == "mat_refused", said
    why = words["is"][f"code.{said['refused']}"].format(**said["params"])
    assert said["detail"] == words["is"]["code.mat_refused"].format(line=5, why=why), said
    assert "line" not in said["detail"]  # no English left in it


def _codes(lang: str) -> dict[str, str]:
    return json.loads((PWA_DIR / "i18n" / f"codes.{lang}.json").read_text("utf-8"))


def test_undo_takes_back_the_last_command_then_the_one_before(head: Api) -> None:
    match_id, created = _create(head)
    v = created["last_version"]
    for cmd in (c.StartGame(), c.RollOpening(die_a=3, die_b=1)):
        v = _post(head, match_id, v, cmd).json()["last_version"]
    after_opening = _state(head, match_id)["state"]
    v = _post(head, match_id, v, c.Play(side="A", moves=((8, 5), (6, 5)))).json()["last_version"]
    v = _post(head, match_id, v, c.Roll(side="B", dice=(6, 4))).json()["last_version"]
    r = _post(head, match_id, v, c.UndoLast())
    assert r.status_code == 201 and r.json()["events"][0]["event"]["rule"] == ""
    assert _state(head, match_id)["state"]["game"]["phase"] == "roll"
    r = _post(head, match_id, r.json()["last_version"], c.UndoLast())
    assert r.status_code == 201
    assert _state(head, match_id)["state"]["game"] == after_opening["game"]
    r = _post(head, match_id, r.json()["last_version"], c.UndoLast())  # the opening roll
    assert r.status_code == 201
    r = _post(head, match_id, r.json()["last_version"], c.UndoLast())  # not past the start
    assert r.status_code == 422 and r.json()["rule"] == ""


class HttpTable(Table):
    """The scenario's table, every command posted to the server (and checked against a local
    fold: the server stores exactly the events the engine decides)."""

    api: Api

    def __init__(self) -> None:
        super().__init__()
        self.match_id = ""
        self.version = 0

    def do(self, cmd: c.Command) -> tuple:
        if isinstance(cmd, c.CreateMatch):
            self.match_id, created = _create(self.api, length=cmd.length, clock=cmd.clock)
            stored = created
        else:
            stored = _post(self.api, self.match_id, self.version, cmd).json()
        self.version = stored["last_version"]
        local = super().do(cmd)
        assert [e["type"] for e in stored["events"]] == [
            msgspec.to_builtins(e)["type"] for e in local
        ]
        return local


def test_the_issues_seven_point_match_through_the_api(head: Api) -> None:
    HttpTable.api = head
    table = _play_until_flag(scenario_seed(), HttpTable)
    doc = _state(head, table.match_id)
    assert doc["state"]["over"] and doc["state"]["winner"] == "B"
    assert doc["state"]["score"] == list(table.state.score)
    # the replay: the board and both clocks after every stored event
    frames = [
        head.get(f"/api/backgammon/matches/{table.match_id}/at/{v}").json()
        for v in (1, doc["version"] // 2, doc["version"])
    ]
    assert frames[0]["event"]["type"] == "BgMatchCreated"
    assert frames[1]["board"]["clock"] is not None and frames[1]["board"]["pips"]["A"] > 0
    assert frames[2]["event"]["type"] == "BgMatchEnded" and frames[2]["board"]["over"]
    assert head.get(f"/api/backgammon/matches/{table.match_id}/at/{10**6}").status_code == 404
    record = head.get(f"/api/matches/{table.match_id}/record.jsonl")
    assert verify_export(record.content.splitlines(keepends=True))[1] is None
    mat = head.get(f"/api/backgammon/matches/{table.match_id}/match.mat").text
    assert " 7 point match" in mat and "Drops" in mat


def test_the_legal_plays_endpoint_lists_every_order_of_single_moves(head: Api) -> None:
    match_id, created = _create(head)
    v = created["last_version"]
    plays = head.get(f"/api/backgammon/matches/{match_id}/plays").json()
    assert plays == {"version": v, "side": "", "dice": [], "orders": []}  # no game yet
    for cmd in (c.StartGame(), c.RollOpening(die_a=3, die_b=1)):
        v = _post(head, match_id, v, cmd).json()["last_version"]
    plays = head.get(f"/api/backgammon/matches/{match_id}/plays").json()
    assert plays["version"] == v and plays["side"] == "A" and plays["dice"] == [3, 1]
    orders = {tuple(map(tuple, o)) for o in plays["orders"]}
    assert ((8, 5), (6, 5)) in orders and ((6, 5), (8, 5)) in orders  # either order
    assert ((24, 21), (21, 20)) in orders and ((13, 10), (10, 9)) in orders
    assert all(len(o) == 2 for o in orders) and ((8, 5),) not in orders
    for order in orders:  # every one of them the engine records as legal
        state = decide(
            initial_state(), c.CreateMatch(match_id="x", player_a="a", player_b="b", length=3)
        )
        local = fold(state)
        for cmd in (c.StartGame(), c.RollOpening(die_a=3, die_b=1), c.Play(side="A", moves=order)):
            local = fold(decide(local, cmd), local)
        assert local.game.turn == "B" and local.game.phase == "roll", order
    assert head.get(f"/api/backgammon/matches/{uuid.uuid4()}/plays").status_code == 404
