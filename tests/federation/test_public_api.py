"""The federation's public read side over HTTP (issue 49, point 4; decision 0174): a real
venue's event and match kept at the federation, served by the public Router from a real
server process — the event as its venue publishes it, search by player, club, event and
season, a player's page across events, the season's list, a receipt checked against the
venue's key and the kept record; bad input answered 4xx with a code, never a 500."""

from __future__ import annotations

import base64
import json
import uuid

import pytest
from support.competition_play import Comp
from support.federation_read import (
    finished_round_robin,
    keep_venue,
    project,
    public_server,
    read_side_database,
)
from support.harness import Api
from support.recorded import record_match

PLAYERS = ["Kati Põld", "Ilze Ozola", "Jón Jónsson", "Mari Kask"]
BG_PLAYERS = ["Gunnar Sigurðsson", "Ólafur Jónsson", "Einar Þórsson"]
BG_GUIDE = {
    "sport": "backgammon",
    "ruleset": "KSI",
    "discipline": "open_singles",
    "points": {"win": 1, "draw": 0.5, "loss": 0},
    "tie_breaks": ["games_diff"],
    "playoff_games": 1,
    "backgammon": {"lengths": [1], "final_length": 1},
}


@pytest.fixture(scope="module")
def published(pg_server_url, module_database_url, server, head, checkpoint_key):
    """A round robin of four (one linked by the TD) and a signed match at the venue, kept and
    projected at the federation; the public server over it."""
    import asyncio

    import asyncpg
    from tableside.federation.register.players import add_player

    url = read_side_database(pg_server_url)

    async def register():
        conn = await asyncpg.connect(url)
        try:
            return (await add_player(conn, "Kati Põld", "registrar", club="Kalev")).federation_id
        finally:
            await conn.close()

    kati = asyncio.run(register())
    members = [
        {"name": n, "birth_year": 1990, "sex": "F", "club": "Kalev" if i == 0 else "Rīga"}
        for i, n in enumerate(PLAYERS)
    ]
    members[0]["federation_id"] = str(kati)
    comp = finished_round_robin(head, "Talvekarikas", members)
    islanders = [{"name": n, "birth_year": 1985, "sex": "M"} for n in BG_PLAYERS]
    backgammon = finished_round_robin(head, "Reykjavík Open", islanders, **BG_GUIDE)
    venue_doc = comp.settled()
    match = record_match(head, table=7, seed=5, games=1)
    receipt = head.get(f"/api/receipts/{match.match_id}").json()["receipt"]
    venue = uuid.uuid4()
    keep_venue(url, module_database_url, checkpoint_key, venue)
    project(url, venue)
    srv = public_server(url)
    standings = head.get(f"/api/competitions/{comp.id}/standings").json()
    bg_standings = head.get(f"/api/competitions/{backgammon.id}/standings").json()
    yield {
        "api": Api(srv.base), "venue": str(venue), "comp": comp.id, "kati": kati,
        "venue_doc": venue_doc, "standings": standings, "receipt": receipt, "url": url,
        "backgammon": backgammon.id, "bg_standings": bg_standings,
    }  # fmt: skip
    srv.stop()


def test_a_backgammon_event_is_served_as_its_venue_publishes_it(published) -> None:
    api = published["api"]
    event = api.get(f"/api/public/events/{published['venue']}/{published['backgammon']}").json()
    assert (event["sport"], event["discipline"]) == ("backgammon", "open_singles")
    assert event["standings"] == published["bg_standings"]["rows"]
    assert event["doc"]["placings"] == published["bg_standings"]["placings"]
    found = api.get("/api/public/events", q="Sigurðsson").json()["events"]
    assert [e["stream_id"] for e in found] == [published["backgammon"]]


def test_the_event_is_served_as_its_venue_publishes_it(published) -> None:
    api = published["api"]
    r = api.get(f"/api/public/events/{published['venue']}/{published['comp']}")
    assert r.status_code == 200, r.text
    event = r.json()
    venue_doc = published["venue_doc"]
    for key in ("placings", "results", "entrants", "rounds", "finished", "guide"):
        assert event["doc"][key] == venue_doc[key], key
    assert event["standings"] == published["standings"]["rows"]
    assert event["finished"] and event["season"] == venue_doc["guide"]["event_year"]
    assert event["players"] == [
        {"entrant": "e0", "federation_id": published["kati"], "name": "Kati Põld"}
    ]
    assert len(event["venue_key"]) == 64 and event["alarms"] == 0


@pytest.mark.parametrize(
    "q, found",
    [
        ("talvekarikas", True),
        ("Ozola", True),
        ("rīga", True),
        ("Kalev", True),
        ("nobody here", False),
    ],
    ids=["event", "player", "club", "club_of_a_linked_player", "nothing"],
)
def test_search_by_event_player_and_club(published, q, found) -> None:
    r = published["api"].get("/api/public/events", q=q)
    assert r.status_code == 200, r.text
    assert [e["stream_id"] for e in r.json()["events"]] == ([published["comp"]] if found else [])


@pytest.mark.parametrize("lang", ["et", "en"])
def test_the_results_file_is_the_venues_own(published, head, lang) -> None:
    ours = published["api"].get(
        f"/api/public/events/{published['venue']}/{published['comp']}/results.csv", lang=lang
    )
    theirs = head.get(f"/api/competitions/{published['comp']}/results.csv", lang=lang)
    assert ours.status_code == 200, ours.text
    assert (
        ours.content == theirs.content
        and ours.headers["content-type"] == theirs.headers["content-type"]
    )
    xlsx = published["api"].get(
        f"/api/public/events/{published['venue']}/{published['comp']}/results.xlsx"
    )
    assert xlsx.status_code == 200 and xlsx.content[:2] == b"PK"  # a workbook is a zip
    desk = (
        published["api"].get(f"/api/public/events/{published['venue']}/{published['comp']}").json()
    )
    assert desk["matches"] == {}  # recorded at the desk: no match stream, no protocol


@pytest.mark.parametrize("lang", ["et", "lv", "en", "is"])
def test_a_matchs_protocol_is_drawn_from_the_kept_events(published, lang) -> None:
    match = published["receipt"]["match_id"]
    r = published["api"].get(
        f"/api/public/matches/{published['venue']}/{match}/protocol.pdf", lang=lang
    )
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/pdf" and r.content.startswith(b"%PDF")
    missing = published["api"].get(f"/api/public/matches/{published['venue']}/{match}/nothing.pdf")
    assert (missing.status_code, missing.json()["code"]) == (404, "no_export")


def test_search_by_season(published) -> None:
    season = published["venue_doc"]["guide"]["event_year"]
    listed = published["api"].get("/api/public/events", season=season).json()
    both = {published["comp"], published["backgammon"]}
    assert {e["stream_id"] for e in listed["events"]} == both
    assert listed["seasons"] == [season]
    assert published["api"].get("/api/public/events", season=season - 1).json()["events"] == []


def test_a_players_page_across_events(published) -> None:
    api = published["api"]
    assert [
        p["federation_id"] for p in api.get("/api/public/players", q="põld").json()["players"]
    ] == [published["kati"]]
    page = api.get(f"/api/public/players/{published['kati']}").json()
    assert (page["name"], page["names"], page["club"]) == ("Kati Põld", ["Kati Põld"], "Kalev")
    placed = {row["entrant"]: row["place"] for row in published["standings"]["rows"]}
    assert [(e["stream_id"], e["place"]) for e in page["events"]] == [
        (published["comp"], placed["e0"])
    ]


def test_the_seasons_list_is_public(published) -> None:
    api = published["api"]
    lists = {
        entry["key"].split("/")[1]: entry
        for entry in api.get("/api/public/rankings").json()["lists"]
    }
    assert set(lists) == {"korona", "backgammon"}  # one list per sport, discipline and class
    season, sport, discipline, age_class = lists["korona"]["key"].split("/")
    got = api.get(f"/api/public/rankings/{season}/{sport}/{discipline}/{age_class}").json()
    kati = str(published["kati"])
    assert [row["player"] for row in got["edition"]["points"]] == [kati]  # the one linked
    assert got["players"][kati]["name"] == "Kati Põld"
    assert [e["number"] for e in got["editions"]] == [1]


def test_a_receipt_is_checked_against_the_venues_key_and_the_kept_record(published) -> None:
    api, receipt = published["api"], published["receipt"]
    as_link = base64.urlsafe_b64encode(json.dumps(receipt).encode()).rstrip(b"=").decode()
    verdict = api.get("/api/public/receipts", r=f"https://venue.example/verify#r={as_link}").json()
    assert verdict["receipt"] == "holds", verdict
    forged = {**receipt, "result": "a result nobody signed"}
    assert (
        api.get("/api/public/receipts", r=json.dumps(forged)).json()["receipt"] == "bad_signature"
    )
    strange = {**receipt, "public_key": "ab" * 32}
    assert (
        api.get("/api/public/receipts", r=json.dumps(strange)).json()["receipt"] == "unknown_venue"
    )
    assert api.get("/api/public/receipts", r="not a receipt").json()["receipt"] == "unreadable"


@pytest.mark.parametrize(
    "path, params, status, code",
    [
        (f"/api/public/events/{uuid.UUID(int=1)}/{uuid.UUID(int=2)}", {}, 404, "archive_no_event"),
        ("/api/public/players/424242", {}, 404, "register_no_player"),
        ("/api/public/rankings/2026/korona/nothing/main", {}, 404, "ranking_no_list"),
        ("/api/public/events", {"q": "x" * 101}, 400, "invalid_field"),
        ("/api/public/events", {"season": "soon"}, 400, "invalid_field"),
        ("/api/public/receipts", {}, 400, "invalid_field"),
    ],
    ids=["event", "player", "list", "long_query", "season_not_a_year", "no_receipt"],
)
def test_bad_input_is_a_coded_4xx(published, path, params, status, code) -> None:
    r = published["api"].get(path, **params)
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["code"] == code


def test_a_live_event_is_shown_and_a_later_push_catches_up(
    published, head, module_database_url, checkpoint_key
) -> None:
    """Last in this file: it adds an event. The venue's next push (only the events after the
    tracked position are read) brings a competition still in progress: listed first, live."""
    url, venue = published["url"], uuid.UUID(published["venue"])
    comp = Comp.create(
        head, {"name": "Kevadturniir", "format": "round_robin", "games_per_match": 1}
    )
    comp.enter(
        [
            (f"k{i}", [{"name": n, "birth_year": 1980, "sex": "M"}])
            for i, n in enumerate(["Aare Ots", "Ülo Uus"])
        ]
    )
    assert keep_venue(url, module_database_url, checkpoint_key, venue) > 0
    project(url, venue)
    first = published["api"].get("/api/public/events").json()["events"][0]
    assert (first["stream_id"], first["finished"], first["finished_on"]) == (comp.id, False, None)
    event = published["api"].get(f"/api/public/events/{venue}/{comp.id}").json()
    assert [e["name"] for e in event["doc"]["entrants"]] == ["Aare Ots", "Ülo Uus"]
