"""Issue 12, faces: the audit replay of a backgammon match at /audit/match/<id>.

Each stored event in words with its KSI paragraph; after it the position, cube, score and both
clocks (<bg-board> and the state table) as the server folds them at that version; stepping
with the buttons and the keys; "Verify record" answers for the chain, and finds an event
changed behind the store's back.
"""

from __future__ import annotations

import json

import psycopg
import pytest
from support.harness import Api
from support.recorded import auditor

from .bg_helpers import BgMatch
from .harness import assert_no_horizontal_overflow, axe_violations, screenshot


@pytest.fixture(scope="module")
def jury(head_api: Api) -> Api:
    return auditor(head_api, name="bgjury")


@pytest.fixture
def session(context, jury: Api):
    context.add_init_script(f"localStorage.setItem('tableside.audit-token', '{jury.token}')")


@pytest.fixture(scope="module")
def recorded(head_api: Api) -> BgMatch:
    """A clocked game: A opens 3-1, B doubles, A takes, B plays, A redoubles, B drops."""
    m = BgMatch(head_api, length=5, clock=True)
    m.post(
        {"type": "StartGame"},
        {"type": "StartClock", "at_ms": 0},
        {"type": "RollOpening", "die_a": 3, "die_b": 1},
        {"type": "PressClock", "side": "B", "at_ms": 1_000},
        {"type": "Play", "side": "A", "moves": [[8, 5], [6, 5]]},
        {"type": "PressClock", "side": "A", "at_ms": 31_000},  # 30 s: 18 s off A's time
        {"type": "Double", "side": "B"},
        {"type": "Take", "side": "A"},
        {"type": "Roll", "side": "B", "dice": [6, 4]},
        {"type": "Play", "side": "B", "moves": [[24, 18], [13, 9]]},
        {"type": "PressClock", "side": "B", "at_ms": 41_000},
        {"type": "Double", "side": "A"},
        {"type": "Drop", "side": "B"},
    )
    return m


def at(page, version: int) -> None:
    page.wait_for_selector(f"[data-state][data-version='{version}'] table.state")


def cells(page) -> dict[str, list[str]]:
    rows = page.locator("[data-state] td").evaluate_all(
        "tds => tds.map(td => [td.dataset.field, td.textContent])"
    )
    out: dict[str, list[str]] = {}
    for field, text in rows:
        out.setdefault(field, []).append(text)
    return out


@pytest.mark.usefixtures("axe_ready")
def test_each_step_shows_the_event_its_paragraph_and_the_board_after_it(
    page, session, recorded: BgMatch, jury: Api
) -> None:
    record = jury.get(f"/api/matches/{recorded.id}/record").json()
    page.goto(f"/audit/match/{recorded.id}")
    at(page, 1)
    assert page.locator("[data-timeline] li").count() == len(record)
    assert page.locator("[data-d=words]").inner_text() == "Match to 5 points: Ása — Bjarni"
    # step through every event; the table matches the server's board at that version
    for item in record[1:]:
        page.keyboard.press("ArrowRight")
        at(page, item["version"])
        board = jury.get(f"/api/backgammon/matches/{recorded.id}/at/{item['version']}").json()
        shown = cells(page)
        assert shown["score"] == [str(s) for s in board["board"]["score"]], item["type"]
        assert shown["pips"] == [str(board["board"]["pips"][s]) for s in "AB"], item["type"]
        assert page.locator("[data-d=rule]").inner_text() == item["event"]["rule"]
        assert page.locator("bg-board").get_attribute("data-version") == str(item["version"])
    # the play, the taken double and its cube, the clocks after a press
    by_type = {item["type"]: item["version"] for item in record}
    first_play = next(i["version"] for i in record if i["type"] == "BgPlayRecorded")
    page.locator(f"[data-timeline] li[data-version='{first_play}']").click()
    at(page, first_play)
    assert page.locator("[data-d=words]").inner_text() == "Ása plays 3-1: 8/5 6/5"
    assert page.locator("[data-d=rule]").inner_text() == "KSI 1.2.1"
    assert page.locator("bg-board [data-point='5']").get_attribute("data-a") == "2"
    page.locator(f"[data-timeline] li[data-version='{by_type['BgDoubleTaken']}']").click()
    at(page, by_type["BgDoubleTaken"])
    assert page.locator("[data-d=rule]").inner_text() == "KSI 4.4.3"
    assert cells(page)["cube"] == ["2 · Ása"]
    assert page.locator("bg-board [data-player=A] [data-cube]").inner_text() == "2"
    assert cells(page)["clock"] == ["9:42", "10:00"]  # A: 30 s less the 12 s delay
    page.locator("[data-step=last]").click()
    at(page, record[-1]["version"])
    assert page.locator("[data-d=words]").inner_text() == "Ása wins 2 (single, double dropped): 2:0"
    assert cells(page)["score"] == ["2", "0"]
    assert_no_horizontal_overflow(page)
    assert axe_violations(page) == []
    screenshot(page, "bg-audit-360")


def test_verify_record_checks_the_backgammon_chain(
    page, session, head_api: Api, pwa_server, jury: Api
) -> None:
    m = BgMatch(head_api, length=3)
    m.post(
        {"type": "StartGame"},
        {"type": "RollOpening", "die_a": 3, "die_b": 1},
        {"type": "Play", "side": "A", "moves": [[8, 5], [6, 5]]},
    )
    page.goto(f"/audit/match/{m.id}")
    at(page, 1)
    page.locator("[data-verify]").click()
    page.wait_for_selector("[data-verdict=intact]")
    assert "all 4 events" in page.locator(".verdict").inner_text()
    assert page.locator("[data-mat]").get_attribute("href").endswith("/match.mat")
    pdf = page.locator("[data-pdf]").get_attribute("href")
    assert pdf == f"/api/backgammon/matches/{m.id}/protocol.pdf?lang=en", pdf
    got = head_api.http.get(pdf)
    assert got.status_code == 200 and got.content.startswith(b"%PDF"), got.text[:200]
    with psycopg.connect(pwa_server.database_url, autocommit=True) as conn:
        conn.execute("SET session_replication_role = replica")  # no triggers in this session
        (state,) = conn.execute(
            "SELECT state FROM stored_events WHERE originator_id = %s AND originator_version = 3",
            (m.id,),
        ).fetchone()
        event = json.loads(bytes(state))
        event["die_a"] = 4
        conn.execute(
            "UPDATE stored_events SET state = %s WHERE originator_id = %s "
            "AND originator_version = 3",
            (json.dumps(event, separators=(",", ":")).encode(), m.id),
        )
    page.locator("[data-verify]").click()
    page.wait_for_selector("[data-verdict=broken]")
    assert page.locator(".verdict").inner_text() == "The record is broken at event 3."


def test_an_undone_entry_links_to_the_undo(page, session, head_api: Api) -> None:
    m = BgMatch(head_api, length=3)
    m.post(
        {"type": "StartGame"},
        {"type": "RollOpening", "die_a": 3, "die_b": 1},
        {"type": "Play", "side": "A", "moves": [[8, 5], [6, 5]]},
        {"type": "Roll", "side": "B", "dice": [2, 2]},  # a slip: B rolled 4-4
        {"type": "UndoLast"},
    )
    page.goto(f"/audit/match/{m.id}#v=6")
    at(page, 6)
    assert page.locator("[data-d=words]").inner_text() == "Entry undone: back to event 4"
    assert (
        page.locator("[data-d=rule]").inner_text() == "none (a fact the judge recorded)"
    )  # an undo cites no paragraph
    page.locator("[data-d=correction] [data-goto='5']").click()
    at(page, 5)
    assert page.locator("[data-d=words]").inner_text() == "Bjarni rolls 2-2"
    assert "corrected" in page.locator("[data-timeline] li[data-version='5']").get_attribute(
        "class"
    )
    page.locator("[data-d=correction] [data-goto='6']").click()
    at(page, 6)
    assert page.locator("bg-board [data-dice]").get_attribute("data-dice") == ""  # back to roll
    page.select_option("[data-filter]", "corrections")
    shown = page.locator("[data-timeline] li").evaluate_all(
        "els => els.map(e => e.dataset.version)"
    )
    assert shown == ["5", "6"]


@pytest.mark.parametrize("viewport", [{"width": 360, "height": 640}], ids=["360"])
@pytest.mark.parametrize("lang", ["is", "en", "et", "lv"])
def test_the_replay_fits_a_phone_in_every_language(
    page, session, recorded: BgMatch, viewport, lang
) -> None:
    """Issue 53: in Icelandic the audit page was wider than a 360 px phone (the state table's
    words); at every step of the replay it fits, in each language the face speaks."""
    page.goto(f"/audit/match/{recorded.id}?lang={lang}")
    at(page, 1)
    assert_no_horizontal_overflow(page)
    page.locator("[data-step=last]").click()
    page.wait_for_selector(f"[data-state][data-version='{recorded.version}'] table.state")
    assert_no_horizontal_overflow(page)
