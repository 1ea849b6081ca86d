"""Issue 44, point 4: backgammon where the hall looks. A KSI competition's match plays on a
hall table beside a korona match: the venue screen and the spectators' front page show both
(the backgammon row: players, score, cube, clock), the front page does not say "no table in
play" above it; the TD console's Rulings tab shows the KSI dispute with its KSI paragraphs,
where it stands and the jury (no EKML, no pucks), and the Tables tab knows the backgammon
table is playing."""

from __future__ import annotations

import pytest
from support.backgammon_play import document, post, stream_of
from support.competition_play import event_people
from support.harness import wait_for
from tableside.disciplines.backgammon import commands as c

from .test_admin_console import log_in
from .test_screen import TEXT_SIZES, TV

KORONA_TABLE = 81
BG_TABLES = [82, 83]


@pytest.fixture(scope="module")
def hall(head_api) -> dict:
    """A korona match on table 81; a KSI competition's two first-round matches called to 82
    and 83, the one on 82 under way with a dispute the jury has decided."""
    r = head_api.create(KORONA_TABLE, ["Mari Tamm"], ["Jaan Kask"], games=3)
    assert r.status_code == 201, r.text
    comp = event_people(head_api, ("Ása Jónsdóttir", "Bjarni Þór", "Dóra", "Egill"))
    event_people(head_api, ("Freyja", "Gunnar", "Helga"))  # the jury: of the event (KSI 1.3.2)
    comp.do({"type": "MakeDraw", "seed": 3})
    comp.do({"type": "CallNextMatches", "free_tables": BG_TABLES})
    call = next(x for x in comp.settled()["calls"] if x["table"] == BG_TABLES[0])
    stream = stream_of(comp, call["match_id"])
    version = wait_for(lambda: document(head_api, stream), timeout=10)["version"]
    for command in (
        c.StartGame(),
        c.RollOpening(die_a=3, die_b=1),
        c.Play(side="A", moves=((8, 5), (6, 5))),
        c.Double(side="B"),
        c.Take(side="A"),
        c.CallTD(side="A", reason="the dice were cocked"),
        c.GiveRuling(text="the roll stands", favours="B"),
        c.Appeal(side="A"),
        c.DecideAppeal(jury=("Freyja", "Gunnar", "Helga"), overturn_votes=1),
    ):
        version = post(head_api, stream, version, command)["last_version"]
    return {
        "comp": comp,
        "stream": stream,
        "players": document(head_api, stream)["state"]["players"],
        "version": version,
    }


@pytest.mark.parametrize("viewport", [TV], ids=["1920x1080"])
def test_the_screen_and_the_front_page_show_backgammon_beside_korona(
    page, head_api, hall, viewport
) -> None:
    page.goto("/screen?every=60")
    page.wait_for_selector(f".screen .match-card[data-table='{KORONA_TABLE}']", state="attached")
    row = page.locator(f"[data-bg-match='{hall['stream']}']")
    row.wait_for(state="attached")
    text = row.text_content()
    assert all(name in text for name in hall["players"]), text
    assert row.locator("[data-bg-score]").text_content() == "0 : 0"
    assert page.locator(".screen-empty").is_hidden()
    hall["version"] = post(head_api, hall["stream"], hall["version"],
                           c.Roll(side="B", dice=(2, 1)))["last_version"]  # fmt: skip
    assert row.locator("[data-bg-cube]").text_content() == "Cube 2"  # the feed's board
    small = [(text, size) for text, size in page.evaluate(TEXT_SIZES) if size < 40]
    assert small == [], small  # readable from 10 m, the backgammon rows too

    page.goto("/")
    page.wait_for_selector(f"[data-tables] [data-table='{KORONA_TABLE}']", state="attached")
    page.wait_for_selector(f"[data-bg-matches] [data-bg-match='{hall['stream']}']")
    assert page.locator("[data-tables] ~ [data-bg-matches], [data-bg-matches]").count() >= 1
    empty = page.locator("p[data-i18n='spec.no_tables']")
    assert empty.count() == 0 or empty.is_hidden()


def test_the_console_shows_the_ksi_dispute_and_the_playing_backgammon_table(page, hall) -> None:
    comp = hall["comp"]
    log_in(page, "head", "head-secret-1")
    page.wait_for_selector("[data-competitions], [data-competition-name], [data-create]")
    page.goto(f"/admin#c={comp.id}")
    page.wait_for_selector("[data-tab=rulings]")
    page.click("[data-tab=rulings]")
    page.wait_for_selector("[data-ksi-rulings][data-loaded='1'] [data-dispute]")
    dispute = page.locator(f"[data-dispute='{hall['stream']}']")
    assert dispute.get_attribute("data-state") == "final"
    cites = dispute.locator("[data-cite]").all_text_contents()
    assert cites and all(c.startswith("(KSI ") for c in cites), cites
    assert {"(KSI 5.1)", "(KSI 5.2)"} <= set(cites), cites
    assert "Freyja" in dispute.text_content()  # the jury named
    assert all(name in dispute.text_content() for name in hall["players"])
    tab = page.locator("[data-ksi-rulings]").text_content()
    assert "EKML" not in tab and page.locator("#f-correct-p").count() == 0  # no pucks

    page.click("[data-tab=tables]")
    page.fill("#f-table-count", str(max(BG_TABLES)))
    page.dispatch_event("#f-table-count", "change")
    card = page.locator(f"[data-tables] [data-table='{BG_TABLES[0]}']")
    card.wait_for()
    page.wait_for_function(
        f"document.querySelector(\"[data-tables] [data-table='{BG_TABLES[0]}']\")"
        ".dataset.state === 'playing'"
    )


WORDS_SPLIT = """() => [...document.querySelectorAll('[data-standings] th, [data-standings] td')]
  .flatMap((cell) => [...cell.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim())
    .map((node) => { const range = document.createRange(); range.selectNodeContents(node);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      return [node.textContent.trim(), lines, node.textContent.trim().split(/[\\s-]+/).length]; }))
  .filter(([, lines, words]) => lines > words)"""


@pytest.mark.parametrize("viewport", [{"width": 360, "height": 740}], ids=["360"])
def test_the_consoles_standings_keep_words_whole_at_360(page, hall, viewport) -> None:
    """Issue 44: at 360 px the standings broke every word letter by letter; a cell's words
    stay whole (no more lines than words, a hyphen being a break between two), the table scrolls
    inside its box instead."""
    log_in(page, "head", "head-secret-1")
    page.wait_for_selector("[data-competitions], [data-competition-name], [data-create]")
    page.goto(f"/admin#c={hall['comp'].id}")
    page.click("[data-tab=standings]")
    page.wait_for_selector("[data-standings] td")
    assert page.evaluate(WORDS_SPLIT) == []
