"""KSI 1.6.4 over a real server: the TD bars spectators at a player's request (over HTTP), and
while barred the match reaches no public face — `/live?match=` (snapshot and deltas) and
`/live?hall=backgammon` say only "spectators barred at the player's request (KSI 1.6.4)",
the spectators' list (`/api/backgammon/live`, the venue screen's) leaves it out, its public
reads are refused with the code — while the staff (their token) still read it whole; lifted,
it is public again."""

from __future__ import annotations

import asyncio
import uuid

import msgspec
from support.harness import Api, run_async
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import decide, fold

from .test_live_backgammon import BgMatch, _deltas_until, _following, _message


def _td(match: BgMatch, cmd: c.Command) -> list[int]:
    body = {"command_id": str(uuid.uuid4()), "expected_version": match.version,
            "command": msgspec.to_builtins(cmd)}  # fmt: skip
    r = match.api.http.post(
        f"/api/backgammon/matches/{match.id}/commands", json=body, headers=match.api.headers()
    )
    assert r.status_code == 201, r.text
    match.version = r.json()["last_version"]
    match.state = fold(decide(match.state, cmd), match.state)
    return r.json()["positions"]


def _barred_notice(msg: dict, match: BgMatch) -> None:
    assert msg["barred"] is True and msg["match_id"] == match.id, msg
    assert msg["code"] == "bg_spectators_barred" and msg["rule"] == "KSI 1.6.4"
    assert "board" not in msg and "event" not in msg


def test_ksi_1_6_4_a_barred_match_reaches_no_spectator(server, head):
    match = BgMatch(head, seed=21, length=5)
    match.play(3)
    anonymous = Api(server.base)
    stored: list[int] = []

    async def scenario():
        async with (
            _following(server, f"match={match.id}") as (watching, _, _),
            _following(server, "hall=backgammon") as (hall, _, _),
        ):
            positions = await asyncio.to_thread(_td, match, c.BarSpectators(requested_by="B"))
            positions += await asyncio.to_thread(match.play, 3)
            stored.extend(positions)
            for ws in (watching, hall):
                got = [m for m in await _deltas_until(ws, positions[-1])
                       if m["match_id"] == match.id]  # fmt: skip
                assert [m["position"] for m in got] == positions
                for msg in got:
                    _barred_notice(msg, match)
        # a spectator arriving now gets the notice, nothing of the board or the log
        async with _following(server, f"match={match.id}") as (_, snapshot, _):
            bg = snapshot["backgammon"]
            assert bg["barred"] is True and bg["code"] == "bg_spectators_barred"
            assert bg["board"] is None and bg["entries"] == []

    run_async(scenario())
    listed = anonymous.http.get("/api/backgammon/live", params={"min_position": stored[-1]}).json()
    assert match.id not in {m["match_id"] for m in listed}
    kernel = (f"/api/matches/{match.id}/events", f"/api/disciplines/backgammon/matches/{match.id}")
    kernel += tuple(f"{kernel[1]}/{tail}" for tail in ("at/1", "record.mat", "protocol.pdf"))
    own = (f"/api/backgammon/matches/{match.id}{p}" for p in ("", "/plays", "/match.mat", "/at/1"))
    for path in (*own, f"/api/backgammon/matches/{match.id}/protocol.pdf", *kernel):
        r = anonymous.http.get(path)  # its own reads and the kernel's, whatever the discipline
        assert r.status_code == 403, (path, r.text)
        assert r.json()["code"] == "bg_spectators_barred", r.json()
        assert "KSI 1.6.4" in r.json()["title"], r.json()
    staff = head.get(f"/api/backgammon/matches/{match.id}")
    assert staff.status_code == 200 and staff.json()["board"]["spectators_barred"] is True
    assert staff.json()["version"] == match.version


def test_ksi_1_6_4_words_the_refusal_in_icelandic(server, head):
    match = BgMatch(head, seed=22)
    _td(match, c.BarSpectators(requested_by="A"))
    r = Api(server.base).http.get(
        f"/api/backgammon/matches/{match.id}", headers={"Accept-Language": "is"}
    )
    assert r.status_code == 403 and "áhorfendum" in r.json()["title"].lower(), r.text


def test_ksi_1_6_4_lifted_the_match_is_public_again(server, head):
    match = BgMatch(head, seed=23)
    _td(match, c.BarSpectators(requested_by="A"))
    last = _td(match, c.AdmitSpectators())[-1]

    async def scenario():
        async with _following(server, f"match={match.id}") as (ws, snapshot, _deltas):
            bg = snapshot["backgammon"]
            assert "barred" not in bg and bg["board"]["spectators_barred"] is False
            positions = await asyncio.to_thread(match.play, 2)
            msg = await _message(ws)
            assert msg["position"] == positions[0] and msg["board"]["players"][0] == "Ása"

    run_async(scenario())
    r = Api(server.base).http.get("/api/backgammon/live", params={"min_position": last})
    assert match.id in {m["match_id"] for m in r.json()}
    assert Api(server.base).http.get(f"/api/backgammon/matches/{match.id}").status_code == 200


def test_ksi_1_6_4_only_the_td_bars(server, head):
    match = BgMatch(head, seed=24)
    device = Api(server.base, head.judge_token(7)["token"])
    body = {"command_id": str(uuid.uuid4()), "expected_version": match.version,
            "command": {"type": "BarSpectators", "requested_by": "A"}}  # fmt: skip
    r = device.http.post(
        f"/api/backgammon/matches/{match.id}/commands", json=body, headers=device.headers()
    )
    assert r.status_code == 403, r.text
