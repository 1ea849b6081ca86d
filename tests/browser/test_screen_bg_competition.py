"""Issue 44: the venue screen filtered to a KSI competition (`/screen?competition=<id>`) shows
that competition's backgammon matches only. Two KSI competitions play on the hall's tables at
once; the screen filtered to one lists its matches (from the feed's snapshot, and a move on
one of them in place) and none of the other's, whether they were under way when the screen
opened or started after (a delta); the whole hall's screen shows both."""

from __future__ import annotations

import pytest
from support.backgammon_play import document, post, stream_of
from support.competition_play import event_people
from support.harness import wait_for
from tableside.disciplines.backgammon import commands as c

from .test_screen import TV

ONE_TABLES = [91, 92]
OTHER_TABLES = [93, 94, 95]


def _called(api, names: tuple[str, ...], tables: list[int]) -> list[str]:
    """A KSI competition whose first round is called to these tables: its match streams, each
    created by the competition's flow."""
    comp = event_people(api, names)
    comp.do({"type": "MakeDraw", "seed": 5})
    comp.do({"type": "CallNextMatches", "free_tables": tables})
    streams = [stream_of(comp, call["match_id"]) for call in comp.settled()["calls"]]
    for stream in streams:
        wait_for(lambda stream=stream: document(api, stream), timeout=10)
    return [comp.id, *streams]


ROWS = "rows => rows.map((row) => row.dataset.bgMatch)"


def _rows(page) -> set[str]:
    return set(page.eval_on_selector_all("[data-bg-match]", ROWS))


@pytest.mark.parametrize("viewport", [TV], ids=["1920x1080"])
def test_the_screen_filtered_to_a_competition_shows_only_its_backgammon(
    page, head_api, viewport
) -> None:
    one, *mine = _called(head_api, ("Ása Björk", "Baldur", "Dagný", "Einar"), ONE_TABLES)
    _, *before = _called(head_api, ("Fríða", "Gísli", "Hildur", "Ingi"), OTHER_TABLES[:2])
    page.goto(f"/screen?competition={one}&every=60")
    for stream in mine:
        page.locator(f"[data-bg-match='{stream}']").wait_for(state="attached")
    assert _rows(page) == set(mine)  # the other's matches under way are not in the snapshot

    _, *after = _called(head_api, ("Jóna", "Kári"), OTHER_TABLES[2:])  # a delta: created now
    version = document(head_api, mine[0])["version"]
    for command in (
        c.StartGame(),
        c.RollOpening(die_a=3, die_b=1),
        c.Play(side="A", moves=((8, 5), (6, 5))),
        c.Double(side="B"),
        c.Take(side="A"),
    ):
        version = post(head_api, mine[0], version, command)["last_version"]
    # the feed's deltas come in order: the other's creation came before this move
    page.locator(f"[data-bg-match='{mine[0]}'] [data-bg-cube]").wait_for(state="attached")
    assert _rows(page) == set(mine), (before, after)

    page.goto("/screen?every=60")  # the whole hall: both competitions' matches
    for stream in (*mine, *before, *after):
        page.locator(f"[data-bg-match='{stream}']").wait_for(state="attached")
