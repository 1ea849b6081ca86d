"""Issue 30, the dispute path through the faces, in Icelandic (KSI 1.5.1), on a phone.

A clocked 5-point match: Sigurður rolls before Guðrún has finished her move (KSI 4.1.5.1).
On the recorder's TD sheet: Guðrún calls the TD (the clock stops, 4.3.2.4), a witness is heard
(5.4), the TD rules that the roll stands (5.1), Guðrún appeals, and a jury of three chosen
from the people known to the event — never a player or the TD, whatever the letter case
(1.3.2) — overturns it 2-1 with the reroll (5.2): the dice are gone, Sigurður rolls again,
the board and the clocks are as at the call. Undo cannot take the decision back (refused in
Icelandic). A monitor is appointed and files a report (1.3.3). Spectators, the audit replay
and the protocol PDF show the outcome, the votes and the jurors; no face falls back to
another language on the way.
"""

from __future__ import annotations

import re
import time
import uuid

import pytest
from support.competition_play import event_people
from support.harness import Api
from support.pdf_text import pdf_text
from support.recorded import auditor
from support.words import raw_codes

from .bg_helpers import VERSION, BgMatch, open_recorder
from .test_bg_td import _td
from .test_i18n import CATALOGUES, _english_only

PLAYERS = ("Guðrún Jónsdóttir", "Sigurður Þórsson")
JURY = ("Dóra Sveinsdóttir", "Egill Helgason", "Freyja Bjarnadóttir")
# the event's people: the jurors, a monitor, the players — and the same names in other cases
KNOWN = (*JURY, "Kári Einarsson", *PLAYERS, "guðrún jónsdóttir", "HEAD")
OWN_NAMES = frozenset(c["language.name"] for c in CATALOGUES.values())


def _icelandic_only(text: str, faces: list[str], ids) -> None:
    text = re.sub(r"\S*/\S*", " ", text)  # a path or an address is not English
    # a program's and a command's name, paths out first: a PDF's text may run another line's
    # address in between ("tableside audit …/receipt verify", in a full run)
    text = re.sub(r"GNU\W+Backgammon|tableside\W+audit\W+verify", " ", text)
    fallen = {}
    for words in _english_only(faces):  # whole words: "tableside" is not "table"
        found = re.search(rf"(?<!\w){re.escape(words)}(?!\w)", text)
        if found:
            fallen[words] = text[max(0, found.start() - 60) : found.end() + 60]
    assert not fallen, fallen
    assert raw_codes(text, "is", frozenset(ids) | OWN_NAMES) == []


def _pdf_text(pdf: bytes, tmp_path) -> str:
    return pdf_text(pdf, tmp_path, "protocol.pdf")


def _early_roll(head: Api) -> BgMatch:
    """Guðrún opens 3-1; Sigurður rolls 6-4 before she has finished; she plays 8/5 6/5."""
    event_people(head, KNOWN)
    match = BgMatch(head, length=5, clock=True, players=PLAYERS)
    t0 = int(time.time() * 1000)
    match.post(
        {"type": "StartClock", "at_ms": t0},
        {"type": "StartGame"},
        {"type": "RollOpening", "die_a": 3, "die_b": 1},
        {"type": "PressClock", "side": "B", "at_ms": t0 + 500},  # Guðrún's time runs
        {"type": "Roll", "side": "B", "dice": [6, 4]},  # early (KSI 4.1.5.1)
        {"type": "Play", "side": "A", "moves": [[8, 5], [6, 5]]},
    )
    return match


def _refused_jury(match: BgMatch, jury: list[str]) -> dict:
    body = {
        "command_id": str(uuid.uuid4()),
        "expected_version": match.version,
        "command": {"type": "DecideAppeal", "jury": jury, "overturn_votes": 2},
    }
    headers = match.api.headers() | {"Accept-Language": "is"}
    url = f"/api/backgammon/matches/{match.id}/commands"
    r = match.api.http.post(url, json=body, headers=headers)
    assert r.status_code == 422, r.text
    return r.json()


@pytest.mark.parametrize("viewport", [{"width": 360, "height": 640}])
def test_a_jury_overturns_through_the_faces_in_icelandic(
    browser, pwa_server, head_api: Api, viewport, tmp_path
) -> None:
    match = _early_roll(head_api)
    watcher = auditor(head_api, name="endurskodandi")
    context = browser.new_context(
        bypass_csp=True, base_url=pwa_server.base, locale="is-IS", viewport=viewport
    )
    context.add_init_script(f"localStorage.setItem('tableside.audit-token', '{watcher.token}')")
    try:
        page = context.new_page()
        open_recorder(page, match)
        page.wait_for_selector("html[lang=is]")
        page.click("[data-td] summary")
        seen = [page.locator("body").inner_text()]

        _td(page, "call", side="A", reason="Sigurður kastaði áður en ég lauk leik")
        page.wait_for_selector("[data-frozen]")  # no play pad while the TD decides (KSI 5.1)
        at_call = match.state()["board"]
        assert at_call["clock"]["stopped"] and at_call["dice"] == [6, 4]
        _td(page, "testimony", witness="Kári Einarsson", text="Ég sá Sigurð kasta of snemma")
        _td(page, "ruling", text="Kastið stendur")
        _td(page, "appeal", side="A")
        page.wait_for_selector("[data-jurors] input[name=juror]")
        offered = page.locator("[data-jurors] input[name=juror]").evaluate_all(
            "xs => xs.map(x => x.value)"
        )
        assert set(JURY) <= set(offered)  # chosen from the event's people, not typed
        barred = {n.casefold() for n in (*PLAYERS, "head")}
        assert not [n for n in offered if n.casefold() in barred], offered
        seen.append(page.locator("body").inner_text())
        match.version = page.evaluate(VERSION)
        for jury in (["guðrún jónsdóttir", *JURY[:2]], ["HEAD", *JURY[:2]]):  # a player, the TD
            said = _refused_jury(match, jury)
            assert (said["title"], said["rule"]) == ("Reglubrot", "KSI 1.3.2")
            assert said["detail"] == "hvorki mótsstjóri né keppandi situr í dómnefnd"

        for name in JURY:
            page.locator(f"[data-jurors] input[value='{name}']").check()
        _td(page, "decide", votes=2, remedy="reroll")
        after = match.state()
        decided = [e for e in match.events() if e["type"] == "BgAppealDecided"]
        assert [(d["event"]["jury"], d["event"]["overturn_votes"]) for d in decided] == [
            (list(JURY), 2)
        ]
        board = after["board"]
        assert board["dice"] == [] and board["turn"] == "B" and board["dispute"] == "final"
        assert board["position"] == at_call["position"]  # the board as at the call
        assert board["clock"]["remaining_ms"] == at_call["clock"]["remaining_ms"]
        page.wait_for_selector("[data-dice-for=B] [data-die='1']")  # Sigurður rolls again
        assert page.locator("[data-frozen]").count() == 0

        page.click("[data-action=undo]")  # KSI 5.2: final — the decision stays on the record
        page.click("[data-action=undo-yes]")
        page.wait_for_function(
            "() => document.querySelector('[data-banner=problem]')?.textContent"
            ".includes('ákvörðun dómnefndar er endanleg')"
        )
        banner = page.locator("[data-banner=problem]").inner_text()
        assert "Reglubrot" in banner and "KSI 5.2" in banner, banner
        assert match.state()["board"]["dispute"] == "final"

        _td(page, "monitor", name="Kári Einarsson", side="A")
        _td(page, "report", text="Sigurður kastaði tvisvar of snemma")
        reported = match.events()[-1]["event"]
        assert (reported["name"], reported["rule"]) == ("Kári Einarsson", "KSI 1.3.3")
        seen.append(page.locator("body").inner_text())
        ids = (*KNOWN, "head", "endurskodandi", str(match.id))  # names and the match's id
        _icelandic_only("\n".join(seen), ["shared", "backgammon"], ids)

        overturned = f"Dómnefnd ({', '.join(JURY)}) hnekkir úrskurðinum, 2 af 3; endanlegt"
        page.goto(f"/watch?match={match.id}")  # the spectators, in the language remembered
        page.wait_for_selector("section.spectator[data-live=true]")
        page.wait_for_function(
            "(v) => Number(document.querySelector('[data-bg-board]')?.dataset.version || 0) >= v",
            arg=match.state()["version"],
        )
        log = page.locator("[data-log]").inner_text()
        assert overturned in log and "Sigurður kastaði tvisvar of snemma" in log
        _icelandic_only(page.locator("body").inner_text(), ["shared", "backgammon"], ids)

        page.goto(f"/audit/match/{match.id}")
        version = decided[0]["version"]
        page.wait_for_selector(f"[data-timeline] li[data-version='{version}']")
        page.locator(f"[data-timeline] li[data-version='{version}']").click()
        page.wait_for_selector(f"[data-state][data-version='{version}']")
        assert page.locator("[data-d=words]").inner_text() == overturned
        faces = ["shared", "spectator", "audit", "backgammon"]
        _icelandic_only(page.locator("body").inner_text(), faces, ids)
    finally:
        context.close()

    pdf = head_api.get(f"/api/backgammon/matches/{match.id}/protocol.pdf", lang="is")
    assert pdf.status_code == 200, pdf.text
    text = _pdf_text(pdf.content, tmp_path)
    assert f"Dómnefnd ({', '.join(JURY)}): úrskurði hnekkt, 2 af 3; endanlegt" in text
    assert text.count("úrskurði hnekkt") == 1  # one decision, as made
    assert "Sigurður kastaði tvisvar of snemma" in text and "Kári Einarsson" in text
    _icelandic_only(text, ["shared", "backgammon"], ids)
