"""A backgammon match on a hall table (issue 12, faces: "either player or a monitor records;
both players can confirm a game's result"; issue 13: the hall knows every table), over real
HTTP and websockets: the table holds its match in the hall, the table's device (its judge token)
records what happens at the board and is refused what only the TD records, another table's
device is refused, both players confirm the score after a game (KSI 4.7), the table's feed
announces the match, and once the TD has confirmed the result the device records no more."""

from __future__ import annotations

import asyncio
import json
import uuid

import msgspec
import websockets
from support.competition_play import event_people
from support.harness import Api, run_async
from tableside.disciplines.backgammon import commands as c

TABLE, OTHER_TABLE = 31, 32


def _create(api: Api, table: int, **extra):
    body = {"command_id": str(uuid.uuid4()), "player_a": "Ása", "player_b": "Bjarni",
            "length": 1, "table": table, **extra}  # fmt: skip
    return api.http.post("/api/backgammon/matches", json=body, headers=api.headers())


def _post(api: Api, match_id: str, version: int, command: c.Command):
    body = {"command_id": str(uuid.uuid4()), "expected_version": version,
            "command": msgspec.to_builtins(command)}  # fmt: skip
    return api.http.post(
        f"/api/backgammon/matches/{match_id}/commands", json=body, headers=api.headers()
    )


class Recording:
    """Commands posted one after another by whoever `api` is, at the version last stored."""

    def __init__(self, match_id: str, version: int) -> None:
        self.id, self.version = match_id, version

    def post(self, api: Api, command: c.Command, status: int = 201) -> dict:
        r = _post(api, self.id, self.version, command)
        assert r.status_code == status, r.text
        if status == 201:
            self.version = r.json()["last_version"]
        return r.json()


async def _announced(server, table: int, token: str, create) -> dict:
    """The first backgammon message on the table's feed once `create()` ran."""
    ws = await websockets.connect(
        f"{server.ws}/live?table={table}", subprotocols=["tableside.auth"]
    )
    async with ws:
        await ws.send(json.dumps({"type": "auth", "token": token}))
        while json.loads(await asyncio.wait_for(ws.recv(), 10))["kind"] != "caught_up":
            pass
        await asyncio.to_thread(create)
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if msg.get("discipline") == "backgammon":
                return msg


def test_the_tables_device_records_its_backgammon_match(server, head: Api) -> None:
    device = Api(server.base, head.judge_token(TABLE)["token"])
    created = {}

    def create() -> None:
        r = _create(head, TABLE)
        assert r.status_code == 201, r.text
        created.update(r.json())

    news = run_async(_announced(server, TABLE, device.token, create))
    assert news["type"] == "BgMatchCreated" and news["match_id"] == created["match_id"]
    assert news["board"]["table"] == TABLE
    on_table = head.get(f"/api/backgammon/tables/{TABLE}", min_position=news["position"])
    assert on_table.status_code == 200 and on_table.json()["match_id"] == created["match_id"]
    assert Api(server.base).get(f"/api/backgammon/tables/{OTHER_TABLE}").status_code == 404

    # The hall: the table is held, for korona walk-ups and for backgammon alike.
    busy = head.create(TABLE, ["Kalle"], ["Malle"])
    assert busy.status_code == 409 and busy.json()["reason"] == "table_busy", busy.text
    assert "Ása – Bjarni" in busy.json()["detail"]
    again = _create(head, TABLE)
    assert again.status_code == 409 and again.json()["table"] == TABLE

    match = Recording(created["match_id"], created["last_version"])
    match.post(device, c.StartGame())
    match.post(device, c.RollOpening(die_a=3, die_b=1))
    refused = match.post(device, c.RecordLateness(side="B", minutes=5), status=403)
    assert "head_judge, secretary" in refused["title"], refused
    stranger = Api(server.base, head.judge_token(OTHER_TABLE)["token"])
    other = match.post(stranger, c.Play(side="A", moves=((8, 5), (6, 5))), status=403)
    assert f"table {OTHER_TABLE}" in other["title"] and f"table {TABLE}" in other["title"]
    match.post(device, c.Play(side="A", moves=((8, 5), (6, 5))))
    match.post(device, c.Double(side="B"))
    ended = match.post(device, c.Drop(side="A"))
    assert [e["type"] for e in ended["events"]][-1] == "BgMatchEnded"

    # KSI 4.7: both players confirm the score on their sheets after the game, once each.
    sheet = match.post(device, c.ConfirmScore(side="A"))["events"][0]["event"]
    assert sheet == {"type": "BgScoreConfirmed", "rule": "KSI 4.7", "side": "A",
                     "game_no": 1, "score": [0, 1]}  # fmt: skip
    twice = match.post(device, c.ConfirmScore(side="A"), status=422)
    assert twice["rule"] == "KSI 4.7", twice
    match.post(device, c.ConfirmScore(side="B"))
    board = head.get(f"/api/backgammon/matches/{match.id}").json()["board"]
    assert board["sheets"] == ["A", "B"]

    # KSI 4.6: the winner reports from the table, the TD confirms; the device is done.
    match.post(device, c.ReportResult(side="B"))
    match.post(device, c.ConfirmResult(), status=403)
    match.post(head, c.ConfirmResult())
    done = match.post(device, c.UndoLast(), status=403)
    assert "KSI 4.6" in done["title"]
    recorders = {e["role"] for e in _record(head, match.id)}
    assert recorders == {"head_judge", "table_judge"}
    assert head.get(f"/api/backgammon/tables/{TABLE}").status_code == 404  # free again


def test_a_match_on_no_table_is_the_tds_alone(server, head: Api) -> None:
    r = _create(head, 0)
    assert r.status_code == 201, r.text
    device = Api(server.base, head.judge_token(33)["token"])
    refused = Recording(r.json()["match_id"], r.json()["last_version"]).post(
        device, c.StartGame(), status=403
    )
    assert "no table" in refused["title"]
    assert _create(device, 33).status_code == 403  # a device does not create matches


def appealed(head: Api) -> Recording:
    """Ása Jónsdóttir's 5-point match against Bjarni, B appealing the TD's ruling (KSI 5.2)."""
    r = _create(head, 0, length=5, player_a="Ása Jónsdóttir", player_b="Bjarni")
    assert r.status_code == 201, r.text
    match = Recording(r.json()["match_id"], r.json()["last_version"])
    for command in (c.StartGame(), c.RollOpening(die_a=3, die_b=1),
                    c.Play(side="A", moves=((8, 5), (6, 5))),
                    c.CallTD(side="B", reason="a checker touched"),
                    c.GiveRuling(text="play on", favours="A"), c.Appeal(side="B")):  # fmt: skip
        match.post(head, command)
    return match


def _record(api: Api, match_id: str) -> list[dict]:
    r = api.get(f"/api/matches/{match_id}/record")
    assert r.status_code == 200, r.text
    return r.json()


def test_a_jury_decision_is_final_and_the_tds_entries_are_the_tds_to_undo(server, head) -> None:
    """KSI 5.2: once the jury has decided, no undo reaches back past it, not even the TD's;
    a table's device takes back its own slips but never a ruling of the TD; the TD signed in
    is the one who ruled, and he cannot sit on the jury whatever the letter case (KSI 1.3.2)."""
    table = 34
    event_people(head, ("Dóra", "Egill", "Freyja"))  # the jury: of the event (KSI 1.3.2)
    device = Api(server.base, head.judge_token(table)["token"])
    r = _create(head, table, length=5)
    assert r.status_code == 201, r.text
    match = Recording(r.json()["match_id"], r.json()["last_version"])
    match.post(device, c.StartGame())
    match.post(device, c.RollOpening(die_a=3, die_b=1))
    match.post(device, c.Roll(side="B", dice=(6, 4)))  # early: A is still moving
    match.post(device, c.Play(side="A", moves=((8, 5), (6, 5))))
    match.post(device, c.CallTD(side="A", reason="B rolled early"))
    ruled = match.post(head, c.GiveRuling(text="the roll stands", favours="B"))
    assert ruled["events"][0]["event"]["td"] == "head"
    refused = match.post(device, c.UndoLast(), status=403)
    assert refused["code"] == "td_entries_td_undoes", refused  # no event's name (issue 43)
    assert "Ruling" not in refused["title"], refused
    match.post(device, c.Appeal(side="A"))
    jury = ["Dóra", "Egill", "HEAD"]
    on_jury = match.post(head, c.DecideAppeal(jury=jury, overturn_votes=2), status=422)
    assert on_jury["rule"] == "KSI 1.3.2", on_jury
    decided = match.post(
        head,
        c.DecideAppeal(jury=("Dóra", "Egill", "Freyja"), overturn_votes=2,
                       remedy=c.RequireReroll(side="A")),
    )  # fmt: skip
    types = [e["event"]["type"] for e in decided["events"]]
    assert types == ["BgRulingOverturned", "BgRerollRequired", "BgAppealDecided"], types
    final = match.post(head, c.UndoLast(), status=422)
    assert final["rule"] == "KSI 5.2", final
    board = head.get(f"/api/backgammon/matches/{match.id}").json()["state"]
    assert board["dispute"] == "final" and board["game"]["phase"] == "roll_only"


def test_ksi_1_3_2_a_player_is_refused_on_the_jury_through_the_api_however_written(
    server, head: Api
) -> None:
    """A juror is a person, not a spelling: Ása Jónsdóttir's name without its accents, in
    capitals or with extra spaces is still Ása Jónsdóttir, and she may not sit on the jury of
    her own match's appeal (KSI 1.3.2) — refused with the paragraph, nothing stored."""
    event_people(head, ("Ása Jónsdóttir", "Dóra", "Egill", "Freyja"))
    match = appealed(head)
    for written in ("Asa Jonsdottir", "ÁSA JÓNSDÓTTIR", "  Ása   Jónsdóttir "):
        refused = match.post(
            head, c.DecideAppeal(jury=(written, "Dóra", "Egill"), overturn_votes=1), status=422
        )
        assert refused["rule"] == "KSI 1.3.2", refused
    assert _record(head, match.id)[-1]["type"] == "BgAppealLodged"  # no half-write
    match.post(head, c.DecideAppeal(jury=("Dóra", "Egill", "Freyja"), overturn_votes=1))
