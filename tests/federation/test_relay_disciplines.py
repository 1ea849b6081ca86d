"""The relay carries both disciplines (issue 51, point 4): a backgammon match played stroke
by stroke at the venue (KSI), followed by remote spectators on its own stream
(`stream=<uuid>`) — each sent exactly the kept events of that stream, in order, none twice;
the korona tests (test_relay*.py) follow whole venues."""

from __future__ import annotations

import random

import psycopg
from support.backgammon_play import play_calls, stream_of
from support.competition_play import Comp, player
from support.harness import Api, wait_for
from support.relay_setup import pushed, venue_and_nodes
from support.remote_crowd import Crowd

BG_GUIDE = {
    "name": "Reykjavík Open",
    "format": "round_robin",
    "games_per_match": 1,
    "sport": "backgammon",
    "ruleset": "KSI",
    "discipline": "open_singles",
    "points": {"win": 1, "draw": 0.5, "loss": 0},
    "tie_breaks": ["games_diff"],
    "playoff_games": 1,
    "backgammon": {"lengths": [3], "final_length": 3},
}
KEPT = (
    "SELECT position, type_name FROM venue_events WHERE venue_id = %s AND stream_id = %s"
    " AND position > %s ORDER BY position"
)


def test_relay_both_disciplines_a_backgammon_match_followed_on_its_stream(
    new_database, federation_database, tmp_path
) -> None:
    url = new_database()
    with venue_and_nodes(url, federation_database, tmp_path, 2) as (venue, nodes, vid):
        head = Api(venue.base).login()
        comp = Comp.create(head, BG_GUIDE)
        comp.enter([("e0", [player("Gunnar Sigurðsson")]), ("e1", [player("Ólafur Jónsson")])])
        comp.do({"type": "MakeDraw", "seed": 3})
        comp.do({"type": "CallNextMatches", "free_tables": [1]})
        (call,) = comp.settled()["calls"]
        stream = stream_of(comp, call["match_id"])
        pushed(nodes[0].base, vid, url)
        crowd = Crowd([n.ws for n in nodes], vid, 10, stream=stream).start()
        try:
            wait_for(lambda: crowd.all(lambda s: s.caught_up), timeout=60)
            play_calls(comp, head, random.Random(5))
            final = pushed(nodes[0].base, vid, url)
            with psycopg.connect(federation_database) as conn:
                kept = conn.execute(KEPT, (vid, stream, 0)).fetchall()
            assert len(kept) > 5
            wait_for(lambda: crowd.all(lambda s: s.positions[-1:] == [kept[-1][0]]), timeout=60)
        finally:
            crowd.stop()
    assert final >= kept[-1][0]
    for s in crowd.spectators:
        assert (s.duplicates, s.resets) == (0, 0)
        assert s.positions == [p for p, _ in kept if p > s.start]
        assert len(s.positions) > 5
