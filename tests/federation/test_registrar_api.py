"""The registrar's routes over HTTP (issue 49, point 5; decision 0171), on a real venue's kept
record: only the federation's signed-in staff change the register; players added under the
name rule, renamed with their history; an entrant suggested by its spelling is linked only
when confirmed, and the season's list follows; an event's level moves its points. The tests
run in the file's order on one kept record (the register they build up is the next one's)."""

from __future__ import annotations

import uuid

import asyncpg
import pytest
from support.federation_read import (
    finished_round_robin,
    keep_venue,
    project,
    public_server,
    read_side_database,
)
from support.harness import Api, run_async
from tableside.staff import accounts

PEOPLE = ["Kadri Kuusk", "Liina Lepp", "Maie Mänd"]
REGISTRAR = ("registrar1", "registrar-secret-1")


def _registrar_token(url: str) -> str:
    async def run() -> str:
        conn = await asyncpg.connect(url)
        try:
            await accounts.add_account(conn, REGISTRAR[0], "registrar", REGISTRAR[1])
            token, role, _ = await accounts.login(conn, *REGISTRAR)
            assert role == "registrar"
            return token
        finally:
            await conn.close()

    return run_async(run())


@pytest.fixture(scope="module")
def desk(pg_server_url, module_database_url, head, checkpoint_key):
    url = read_side_database(pg_server_url)
    members = [{"name": n, "birth_year": 1990, "sex": "F"} for n in PEOPLE]
    comp = finished_round_robin(head, "Sügisturniir", members)
    venue = uuid.uuid4()
    keep_venue(url, module_database_url, checkpoint_key, venue)
    project(url, venue)
    srv = public_server(url)
    yield {
        "anyone": Api(srv.base), "registrar": Api(srv.base, _registrar_token(url)),
        "venue": str(venue), "comp": comp.id,
    }  # fmt: skip
    srv.stop()


def _post(api: Api, path: str, body: dict):
    return api.http.post(path, json=body, headers=api.headers())


def _points(desk) -> dict[str, int]:
    (listed,) = desk["anyone"].get("/api/public/rankings").json()["lists"]
    got = desk["anyone"].get(f"/api/public/rankings/{listed['key']}").json()
    return {got["players"][r["player"]]["name"]: r["points"] for r in got["edition"]["points"]}


def test_only_signed_in_staff_change_the_register(desk) -> None:
    r = _post(desk["anyone"], "/api/federation/register/players", {"name": "Kadri Kuusk"})
    assert (r.status_code, r.json()["code"]) == (401, "login_needed")
    stranger = Api(str(desk["anyone"].http.base_url), "ts_" + "0" * 40)
    r = _post(stranger, "/api/federation/register/players", {"name": "Kadri Kuusk"})
    assert (r.status_code, r.json()["code"]) == (401, "token_invalid")
    assert (
        desk["anyone"].get(f"/api/federation/register/suggestions/{desk['venue']}").status_code
        == 401
    )


def test_a_suggestion_links_nobody_until_a_registrar_confirms_it(desk) -> None:
    registrar = desk["registrar"]
    r = _post(
        registrar, "/api/federation/register/players", {"name": "Kadri Kuusk", "club": "Kalev"}
    )
    assert r.status_code == 201, r.text
    kadri = r.json()["federation_id"]
    assert _points(desk) == {}  # her spelling alone puts her on no list
    offered = registrar.get(f"/api/federation/register/suggestions/{desk['venue']}").json()
    (suggestion,) = offered["suggestions"]
    assert (suggestion["name"], [c["federation_id"] for c in suggestion["candidates"]]) == (
        "Kadri Kuusk",
        [kadri],
    )
    link = {
        "venue_id": desk["venue"],
        "competition_id": suggestion["competition_id"],
        "entrant_id": suggestion["entrant_id"],
        "member": suggestion["member"],
        "federation_id": kadri,
    }
    r = _post(registrar, "/api/federation/register/links", link)
    assert r.status_code == 201, r.text
    assert _points(desk) == {"Kadri Kuusk": 25}  # 1st of an open event
    other = _post(registrar, "/api/federation/register/players", {"name": "Kadri Kask"}).json()
    r = _post(
        registrar,
        "/api/federation/register/links",
        {**link, "federation_id": other["federation_id"]},
    )
    assert (r.status_code, r.json()["code"]) == (422, "register_already_linked")


def test_the_level_moves_the_points_and_a_rename_keeps_the_history(desk) -> None:
    registrar = desk["registrar"]
    path = f"/api/federation/levels/{desk['venue']}/{desk['comp']}"
    r = registrar.http.put(path, json={"level": "championship"}, headers=registrar.headers())
    assert r.status_code == 200, r.text
    assert _points(desk) == {"Kadri Kuusk": 75}
    kadri = desk["anyone"].get("/api/public/players", q="Kadri Kuusk").json()["players"][0]
    r = _post(
        registrar,
        f"/api/federation/register/players/{kadri['federation_id']}/name",
        {"name": "Kadri Kuusik"},
    )
    assert (r.status_code, r.json()["names"]) == (200, ["Kadri Kuusk", "Kadri Kuusik"])
    assert _points(desk) == {"Kadri Kuusik": 75}  # the same id, the same history
    page = desk["anyone"].get(f"/api/public/players/{kadri['federation_id']}").json()
    assert [e["stream_id"] for e in page["events"]] == [desk["comp"]]


def test_ekml_29_2_a_teams_board_order_is_checked_against_the_list(desk) -> None:
    (listed,) = desk["anyone"].get("/api/public/rankings").json()["lists"]
    path = f"/api/public/rankings/{listed['key']}/board-order"
    kadri = desk["anyone"].get("/api/public/players", q="Kadri Kuusik").json()["players"][0]
    unlisted = desk["anyone"].get("/api/public/players", q="Kadri Kask").json()["players"][0]
    fine = (
        desk["anyone"]
        .get(path, boards=f"{kadri['federation_id']},{unlisted['federation_id']}")
        .json()
    )
    assert (fine["rule"], fine["findings"]) == ("EKML §29(2)", [])
    wrong = (
        desk["anyone"]
        .get(path, boards=f"{unlisted['federation_id']},{kadri['federation_id']}")
        .json()
    )
    (finding,) = wrong["findings"]
    assert (finding["board"], finding["place"], finding["later_board"], finding["later_place"]) == (
        1,
        0,
        2,
        1,
    )
    r = desk["anyone"].get(path, boards="1,x")
    assert (r.status_code, r.json()["code"]) == (400, "invalid_field")


@pytest.mark.parametrize(
    "method, path, body, status, code",
    [
        (
            "post",
            "/api/federation/register/players",
            {"name": "K\u0430dri Kuusik"},
            422,
            "name_lookalike",
        ),
        ("post", "/api/federation/register/players", {"name": "Ann", "role": "admin"}, 422, None),
        (
            "post",
            "/api/federation/register/players",
            {"name": "Ann", "player_class": "elite"},
            422,
            None,
        ),
        (
            "post",
            "/api/federation/register/players/424242/name",
            {"name": "Ann"},
            404,
            "register_no_player",
        ),
        (
            "put",
            f"/api/federation/levels/{uuid.UUID(int=1)}/{uuid.UUID(int=2)}",
            {"level": "open"},
            404,
            "archive_no_event",
        ),
        (
            "put",
            f"/api/federation/levels/{uuid.UUID(int=1)}/{uuid.UUID(int=2)}",
            {"level": "world"},
            422,
            None,
        ),
    ],
    ids=[
        "uts_39_lookalike",
        "unknown_field",
        "unknown_class",
        "no_player",
        "no_event",
        "no_such_level",
    ],
)
def test_bad_input_is_a_coded_4xx_and_nothing_is_written(
    desk, method, path, body, status, code
) -> None:
    registrar = desk["registrar"]
    before = registrar.get("/api/public/players", q="a").json()["players"]
    r = getattr(registrar.http, method)(path, json=body, headers=registrar.headers())
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["code"] == (code or r.json()["code"]) and r.json()["code"]
    assert registrar.get("/api/public/players", q="a").json()["players"] == before
