"""Issue 51, done when: a federation node killed under 1,000 remote spectators — every one
resumes on another node and misses nothing (decision 0196: `after=` is served from the other
node's ring, or from the kept rows further back; the venue's positions are dense, so each
spectator checks it was sent every one, once, in order)."""

from __future__ import annotations

import threading

from support.harness import Api, wait_for
from support.recorded import record_match
from support.relay_setup import held, pushed, venue_and_nodes
from support.remote_crowd import Crowd

SPECTATORS = 1000


def test_a_node_killed_under_1000_remote_spectators_every_one_resumes_and_misses_nothing(
    new_database, federation_database, tmp_path
) -> None:
    url = new_database()
    with venue_and_nodes(url, federation_database, tmp_path, 3) as (venue, nodes, vid):
        head = Api(venue.base).login()
        record_match(head, table=1, games=1)
        before = pushed(nodes[0].base, vid, url)
        # the spectators on the two nodes the venue does not push to; node 1 is killed
        crowd = Crowd([nodes[1].ws, nodes[2].ws, nodes[0].ws], vid, SPECTATORS).start()
        try:
            wait_for(lambda: crowd.all(lambda s: s.caught_up), timeout=120, step=0.2)
            on_killed = [s for s in crowd.spectators if s.node == 0]
            playing = threading.Thread(target=record_match, args=(head,), kwargs={"table": 2})
            playing.start()
            # mid-match: the spectators have been sent some of it, and more is coming
            wait_for(lambda: held(nodes[0].base, vid) > before + 20, timeout=120, step=0.1)
            nodes[1].kill9()
            playing.join(180)
            assert not playing.is_alive()
            final = pushed(nodes[0].base, vid, url)
            wait_for(lambda: crowd.all(lambda s: s.last == final), timeout=180, step=0.2)
        finally:
            crowd.stop()
    assert len(on_killed) >= SPECTATORS // 3
    for s in crowd.spectators:
        assert (s.gaps, s.duplicates, s.resets) == (0, 0, 0), s
        assert s.events == final - s.start
    for s in on_killed:
        assert s.reconnects >= 1 and len(s.nodes) >= 2  # resumed on another node
