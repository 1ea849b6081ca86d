"""The relay sends each kept match's board as the hall draws it (issue 51, point 4; decision
0200): a korona match and a backgammon match played at a venue pushing to a federation node —
the node's snapshots (the match's, and the venue's list of boards) carry exactly the documents
the venue's own reads answer: korona's live board at the match's version
(`/api/matches/{id}/at/{version}`), backgammon's board document."""

from __future__ import annotations

import uuid

import httpx
from support.backgammon_play import document, play
from support.harness import Api
from support.recorded import record_match
from support.relay_setup import pushed, venue_and_nodes


def _bg_match(head: Api) -> str:
    body = {"command_id": str(uuid.uuid4()), "player_a": "Ása", "player_b": "Bjarni", "length": 1}
    r = head.http.post("/api/backgammon/matches", json=body, headers=head.headers())
    assert r.status_code == 201, r.text
    return r.json()["match_id"]


def test_relay_boards_are_the_halls_documents_for_both_disciplines(
    new_database, federation_database, tmp_path
) -> None:
    url = new_database()
    with venue_and_nodes(url, federation_database, tmp_path, 1) as (venue, nodes, vid):
        head = Api(venue.base).login()
        korona = record_match(head, table=2, games=1)
        bg = _bg_match(head)
        play(venue.base, head.token, bg, 0.5)
        pushed(nodes[0].base, vid, url)
        base = f"{nodes[0].base}/api/federation/live/{vid}"
        k = httpx.get(base, params={"stream": korona.match_id}, timeout=10).json()
        b = httpx.get(base, params={"stream": bg}, timeout=10).json()
        whole = httpx.get(base, timeout=10).json()
        version = k["events"][-1]["version"]
        hall_korona = head.get(f"/api/matches/{korona.match_id}/at/{version}").json()
        hall_bg = document(head, bg)["board"]
    assert k["board"] == {"discipline": "korona", "live": hall_korona}
    assert b["board"] == {"discipline": "backgammon", "board": hall_bg}
    assert whole["boards"][str(korona.match_id)] == k["board"]
    assert whole["boards"][bg] == b["board"]
