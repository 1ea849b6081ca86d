"""Issue 49's done-when for the season's list: two events of one season at a real venue,
twelve players, their kept record folded by the federation into the archive and the list;
the list equals the hand computation of decision 0170's method on that fixed example; nobody
is on it by spelling alone; a rename keeps the history; the list is recomputed from the
events alone (decisions 0170–0172)."""

from __future__ import annotations

import asyncio
import json
import uuid

import asyncpg
import pytest
from support.competition_play import Comp
from support.federation_read import keep_venue, read_side_database
from support.harness import Api
from support.ranking_by_hand import hand_ratings
from tableside.federation.archive.kept import registry
from tableside.federation.archive.project import catch_up, rebuild
from tableside.federation.ranking.levels import set_level
from tableside.federation.ranking.project import recompute
from tableside.federation.register.links import confirm, suggestions
from tableside.federation.register.players import add_player, names_of, rename

NAMES = [
    "Jaan Tamm", "Mart Kask", "Peeter Saar", "Toomas Mets", "Andres Lepp", "Rein Kuusk",
    "Tiit Mänd", "Urmas Pärn", "Aivar Sepp", "Margus Kivi", "Indrek Rebane", "Priit Ilves",
]  # fmt: skip
EVENT_A = list(range(1, 7))  # players 1–6: the lower number wins every match
EVENT_B = list(range(5, 13))  # players 5–12: the higher number wins every match
TD_LINKED = {"A": {1, 2, 3}, "B": {5, 7, 8, 9}}  # the rest are suggested, then confirmed
KEY = "2026/korona/mens_singles/main"

# The points by hand (decision 0170): event A a championship (×3): 75, 60, 48, 39, 33, 30;
# event B a ranking event (×2), placed 12, 11, … 5: 50, 40, 32, 26, 22, 20, 18, 16.
HAND_POINTS = {
    1: 75, 2: 60, 3: 48, 4: 39, 5: 33 + 16, 6: 30 + 18,
    7: 20, 8: 22, 9: 26, 10: 32, 11: 40, 12: 50,
}  # fmt: skip
HAND_PLACES = [(1, 1), (2, 2), (3, 12), (4, 5), (5, 3), (5, 6), (7, 11), (8, 4), (9, 10),
               (10, 9), (11, 8), (12, 7)]  # fmt: skip


def _run(coro):
    return asyncio.run(coro)


async def _with(url: str, work):
    conn = await asyncpg.connect(url)
    try:
        return await work(conn)
    finally:
        await conn.close()


def _play_event(
    head: Api, label: str, players: list[int], fids: dict[int, int]
) -> tuple[str, list]:
    """A round robin at the venue, every match recorded by the rule of `label`; the
    competition and its matches as (player a, player b, winner) in the order recorded."""
    comp = Comp.create(
        head,
        {
            "name": f"Event {label}",
            "format": "round_robin",
            "games_per_match": 1,
            "event_year": 2026,
        },
    )
    people = []
    for n in players:
        member = {"name": NAMES[n - 1], "birth_year": 1980, "sex": "M"}
        if n in TD_LINKED[label]:
            member["federation_id"] = str(fids[n])
        people.append((f"p{n:02d}", [member]))
    comp.enter(people)
    comp.do({"type": "MakeDraw", "seed": 7})
    played = []
    while waiting := comp.settled()["waiting"]:
        for match in waiting:
            a, b = int(match["a"][1:]), int(match["b"][1:])
            a_wins = (a < b) == (label == "A")
            result = {"a_games": 1, "b_games": 0} if a_wins else {"a_games": 0, "b_games": 1}
            comp.do({"type": "RecordResult", "match_id": match["match_id"], "result": result})
            played.append((a, b, "a" if a_wins else "b"))
    comp.do({"type": "FinishCompetition"})
    return comp.id, played


@pytest.fixture(scope="module")
def season(pg_server_url, module_database_url, server, head, checkpoint_key):
    """The federation's database after both events were played at the venue and kept."""
    url = read_side_database(pg_server_url)

    async def register(conn):
        return {
            n: (await add_player(conn, name, "registrar")).federation_id
            for n, name in enumerate(NAMES, 1)
        }

    fids = _run(_with(url, register))
    a_id, a_played = _play_event(head, "A", EVENT_A, fids)
    b_id, b_played = _play_event(head, "B", EVENT_B, fids)
    venue = uuid.uuid4()
    assert keep_venue(url, module_database_url, checkpoint_key, venue) > 0
    return {
        "url": url, "venue": venue, "fids": fids,
        "A": (uuid.UUID(a_id), a_played), "B": (uuid.UUID(b_id), b_played),
    }  # fmt: skip


async def _latest(conn) -> dict:
    body = await conn.fetchval(
        "SELECT body FROM ranking_editions WHERE list_key = $1 ORDER BY number DESC LIMIT 1", KEY
    )
    return json.loads(body)


def test_the_list_from_the_kept_events_equals_the_hand_computation(season) -> None:
    url, venue, fids = season["url"], season["venue"], season["fids"]
    by_fid = {str(f): n for n, f in fids.items()}

    async def first_pass(conn):
        changed = await catch_up(conn, registry(), venue)
        assert set(changed) == {season["A"][0], season["B"][0]}
        await set_level(conn, venue, season["A"][0], "championship", "registrar")
        await set_level(conn, venue, season["B"][0], "ranking", "registrar")
        await recompute(conn)
        return await _latest(conn), await suggestions(conn, venue)

    latest, offered = _run(_with(url, first_pass))
    on_list = {by_fid[row["player"]] for row in latest["points"]}
    assert on_list == {1, 2, 3, 5, 7, 8, 9}  # linked by the TD only: nobody by spelling
    six = [s for s in offered if s.entrant_id == "p06"]
    assert {(s.competition_id, s.candidates[0].federation_id) for s in six} == {
        (season["A"][0], fids[6]),
        (season["B"][0], fids[6]),
    }

    async def confirm_all(conn):
        for s in offered:
            await confirm(
                conn,
                venue,
                s.competition_id,
                s.entrant_id,
                s.member,
                s.candidates[0].federation_id,
                "registrar",
            )
        await recompute(conn)
        return await _latest(conn)

    latest = _run(_with(url, confirm_all))
    assert (
        latest["published_on"] == season_date(url, venue, season["B"][0]) or latest["published_on"]
    )
    assert [(row["place"], by_fid[row["player"]]) for row in latest["points"]] == HAND_PLACES
    assert {by_fid[row["player"]]: row["points"] for row in latest["points"]} == HAND_POINTS
    order = sorted(("A", "B"), key=lambda label: f"{venue}/{season[label][0]}")
    matches = [m for label in order for m in season[label][1]]
    hand = hand_ratings((str(fids[a]), str(fids[b]), w) for a, b, w in matches)
    for row in latest["rating"]:
        mu, sigma = hand[row["player"]]
        assert row["mu"] == pytest.approx(mu, abs=1e-9)
        assert row["sigma"] == pytest.approx(sigma, abs=1e-9)
    assert len(latest["rating"]) == 12


def season_date(url: str, venue: uuid.UUID, stream: uuid.UUID) -> str:
    async def read(conn):
        return await conn.fetchval(
            "SELECT finished_on::text FROM archive_competitions"
            " WHERE venue_id = $1 AND stream_id = $2",
            venue,
            stream,
        )

    return _run(_with(url, read))


def test_a_rename_keeps_the_history_and_the_list_recomputes_from_the_events(season) -> None:
    url, fids = season["url"], season["fids"]

    async def work(conn):
        before = await conn.fetch(
            "SELECT list_key, number, body FROM ranking_editions ORDER BY 1, 2"
        )
        await rename(conn, fids[3], "Peeter Saarepuu", "registrar")
        await rebuild(conn, registry())  # the archive again from the kept events alone
        await recompute(conn)
        after = await conn.fetch(
            "SELECT list_key, number, body FROM ranking_editions ORDER BY 1, 2"
        )
        return before, after, await names_of(conn, fids[3])

    before, after, names = _run(_with(url, work))
    assert [tuple(r) for r in after] == [tuple(r) for r in before]
    assert names == ["Peeter Saar", "Peeter Saarepuu"]


def test_several_nodes_recomputing_at_once_leave_the_same_lists(season) -> None:
    """Stateless nodes share the database: lists recomputed and the archive caught up by two
    connections at once, five times over, end as one recompute leaves them."""
    url = season["url"]

    async def work():
        first, second = await asyncpg.connect(url), await asyncpg.connect(url)
        try:
            # as one catch-up and recompute leave them, not as an earlier test happened to
            await catch_up(first, registry(), season["venue"])
            await recompute(first)
            before = await first.fetch(
                "SELECT list_key, number, body FROM ranking_editions ORDER BY 1, 2"
            )
            for _ in range(5):
                await asyncio.gather(recompute(first), recompute(second))
                await asyncio.gather(
                    catch_up(first, registry(), season["venue"]),
                    catch_up(second, registry(), season["venue"]),
                )
            after = await first.fetch(
                "SELECT list_key, number, body FROM ranking_editions ORDER BY 1, 2"
            )
            return before, after
        finally:
            await first.close()
            await second.close()

    before, after = _run(work())
    assert [tuple(r) for r in after] == [tuple(r) for r in before]
