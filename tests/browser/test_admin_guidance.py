"""Console polish (issue 13, build point 5): the guide form adapts to the format, tie-breaks
and settings in words, a refusal reads as guidance, and "Finish and publish" is disabled with
its reason while matches are unplayed — in et, lv and en."""

from __future__ import annotations

import json

import pytest

from .admin_helpers import checked_in
from .harness import ROOT

CATALOGUES = {
    lang: json.loads((ROOT / "pwa" / "i18n" / f"admin.{lang}.json").read_text())
    for lang in ("en", "et", "lv")
}


@pytest.fixture
def viewport() -> dict[str, int]:
    return {"width": 1280, "height": 800}


def log_in(page) -> None:
    page.goto("/admin")
    page.fill("#login-user", "head")
    page.fill("#login-pass", "head-secret-1")
    page.click("[data-login] button[type=submit]")
    page.wait_for_selector("[data-guide]")


def test_guide_form_adapts_to_the_format_and_names_tie_breaks(page):
    log_in(page)
    rounds = page.locator("#f-rounds")
    ties = page.locator("[data-tie-breaks]")
    page.select_option("#f-format", "round_robin")
    assert not rounds.is_visible() and ties.is_visible()
    assert not page.locator("#f-playoff-games").is_visible()
    page.select_option("#f-format", "double_elimination")
    assert not ties.is_visible() and not page.locator("#f-h2h").is_visible()
    page.select_option("#f-format", "swiss_playoff")
    assert rounds.is_visible() and page.locator("#f-playoff-games").is_visible()
    en = CATALOGUES["en"]
    order = page.locator("[data-tie-order] li").all_inner_texts()
    assert order == [
        en["admin.tiebreak.buchholz"],
        en["admin.tiebreak.sonneborn_berger"],
        en["admin.tiebreak.games_ratio"],
    ]
    page.uncheck("#f-tb-buchholz")
    page.check("#f-tb-head_to_head")
    page.select_option("#f-unplayed", "virtual_opponent")
    page.select_option("#f-h2h", "partial")
    page.fill("#f-name", "Polished")
    page.fill("#f-rounds", "3")
    page.fill("#f-games", "1")
    page.click("[data-create]")
    page.wait_for_selector("[data-competition-name]")
    comp = page.evaluate("new URLSearchParams(location.hash.slice(1)).get('c')")
    guide = page.evaluate(
        f"fetch('/api/competitions/{comp}').then(r => r.json()).then(d => d.guide)"
    )
    assert guide["tie_breaks"] == ["sonneborn_berger", "games_ratio", "head_to_head"]
    assert guide["unplayed_games_in_buchholz"] == "virtual_opponent"
    assert guide["head_to_head"] == "partial" and guide["playoff_games"] == 5
    page.click("[data-tab=standings]")
    for lang in ("et", "lv", "en"):
        page.click(f"language-picker [data-lang={lang}]")
        page.wait_for_function(f"document.documentElement.lang === '{lang}'")
        words = CATALOGUES[lang]["admin.tiebreak.head_to_head"]
        page.wait_for_function(
            "w => document.querySelector('[data-section=\"admin.standings.title\"]')"
            ".innerText.includes(w)",
            arg=words,
        )


def test_refusal_reads_as_guidance_and_finish_says_why_not(page):
    log_in(page)
    page.fill("#f-name", "Guided")
    page.select_option("#f-format", "round_robin")
    page.click("[data-create]")
    page.wait_for_selector("[data-competition-name]")
    page.fill("#f-entry-list", "Solo One; 1990; M; Tartu")
    page.click("[data-entry-list] button[type=submit]")
    page.wait_for_function("document.querySelectorAll('[data-entrant]').length === 1")
    page.click("[data-check-in-all]")
    page.wait_for_function("document.querySelectorAll('[data-status=checked_in]').length === 1")
    page.click("[data-tab=rounds]")
    page.click("[data-action=draw]")
    banner = page.locator("[data-banner]")
    banner.wait_for()
    text = banner.inner_text()
    assert text.startswith("Not possible now:") and "EKML §9(3)" in text
    assert "Rule violation" not in text
    page.click("[data-tab=entrants]")
    page.fill("#f-entry-list", "\n".join(f"Guided {i}; 1990; M; Tartu" for i in range(2, 5)))
    page.click("[data-entry-list] button[type=submit]")
    page.wait_for_function("document.querySelectorAll('[data-entrant]').length === 4")
    page.click("[data-check-in-all]")
    page.wait_for_function("document.querySelectorAll('[data-status=checked_in]').length === 4")
    page.click("[data-tab=rounds]")
    page.click("[data-action=draw]")
    page.wait_for_selector("[data-round='3']")
    page.click("[data-tab=standings]")
    finish = page.locator("[data-action=finish]")
    finish.wait_for()
    assert finish.is_disabled()
    # Mid-event no heading says "Final placings" (issue 34).
    headings = page.eval_on_selector_all(
        "[data-section] h3, [data-section] h2", "(h) => h.map((x) => x.textContent)"
    )
    assert CATALOGUES["en"]["admin.standings.placings"] not in headings
    assert CATALOGUES["en"]["admin.standings.placings_now"] in headings
    why = page.locator("[data-why=finish]").inner_text()
    assert why == CATALOGUES["en"]["admin.standings.unplayed"].replace("{count}", "6")


def _guide_of(page) -> dict:
    page.wait_for_selector("[data-competition-name]")
    comp = page.evaluate("new URLSearchParams(location.hash.slice(1)).get('c')")
    return page.evaluate(
        f"fetch('/api/competitions/{comp}').then(r => r.json()).then(d => d.guide)"
    )


def test_guide_form_sets_age_class_registration_draw_time_and_teams(page):
    """Issue 13 point 6: the console's guide gains age class (EKML §7), the registration window
    and draw time (§3(4)), women in a men's event (§8(3)) and team settings (§29)."""
    log_in(page)
    page.fill("#f-name", "Youth teams")
    page.select_option("#f-format", "round_robin")
    assert not page.locator("#f-late-entry").is_visible()  # late entry is a Swiss setting
    assert not page.locator("[data-team-settings]").is_visible()
    page.select_option("#f-age_class", "youth")
    page.fill("#f-event-year", "2026")
    page.fill("#f-reg-opens", "2026-03-01T10:00")
    page.fill("#f-reg-closes", "2026-03-14T18:00")
    page.fill("#f-draw-at", "2026-03-15T09:30")
    page.check("#f-women-in-mens")
    page.check("#f-team")
    page.locator("[data-team-settings]").wait_for()
    page.fill("#f-boards", "4")
    page.fill("#f-substitutes", "1")
    page.uncheck("#f-all-boards")
    page.click("[data-create]")
    guide = _guide_of(page)
    assert guide["age_class"] == {
        "name": "youth",
        "born_from": 2008,
        "born_to": 2015,
        "sex": "M",
    }
    assert guide["event_year"] == 2026 and guide["women_in_mens"] is True
    assert guide["registration"]["opens"] < guide["registration"]["closes"]
    assert guide["registration"]["opens"].endswith("Z") and guide["draw_at"].endswith("Z")
    assert guide["late_entry"] is False
    assert guide["teams"] == {"boards": 4, "substitutes": 1, "play_all": False}


def test_guide_form_entry_defaults_leave_an_open_event(page):
    log_in(page)
    page.fill("#f-name", "Open Swiss")
    page.select_option("#f-discipline", "womens_singles")
    page.select_option("#f-age_class", "veterans")
    page.fill("#f-event-year", "2026")
    page.click("[data-create]")
    guide = _guide_of(page)
    assert guide["age_class"] == {
        "name": "veterans",
        "born_from": None,
        "born_to": 1990,
        "sex": "F",
    }
    assert guide["late_entry"] is True and guide["teams"] is None
    assert guide["registration"] is None and guide["draw_at"] is None


def test_admin_words_for_pucks_and_the_withdraw_action():
    """Issue 14 point 5: pucks are "seibid" / "kauliņi" (not buttons, not the striker), and the
    Withdraw button says what it does, unlike the status it leads to."""
    assert CATALOGUES["et"]["admin.col.pucks"].startswith("Seibid")
    assert CATALOGUES["lv"]["admin.col.pucks"].startswith("Kauliņi")
    for lang in ("et", "lv", "en"):
        words = CATALOGUES[lang]
        assert words["admin.entrants.withdraw"] != words["admin.status.withdrawn"]
        assert "Nupud" not in json.dumps(words, ensure_ascii=False)
        assert "Ripas" not in json.dumps(words, ensure_ascii=False)


def test_the_head_judge_frees_a_table_a_walk_up_match_holds(page, head_api):
    """Issue 13: a match outside the competitions holds its table (a call there is refused);
    the head judge closes it from the Tables view with their words, and the table is free."""
    log_in(page)
    page.fill("#f-name", "Shared hall")
    page.select_option("#f-format", "round_robin")
    page.click("[data-create]")
    page.wait_for_selector("[data-competition-name]")
    made = head_api.create(2, ["Walk Up"], ["Drop In"])
    assert made.status_code == 201, made.text
    page.click("[data-tab=tables]")
    card = page.locator("[data-table='2']")
    page.wait_for_selector("[data-table='2'][data-state=busy] [data-close-match]")
    card.locator("[data-close-match]").click()
    page.locator("[data-confirm-close]").click()  # no words yet: nothing is sent
    assert page.locator("[data-close-dialog]").is_visible()
    page.fill("#f-close-note", "players went home")
    page.locator("[data-confirm-close]").click()
    page.wait_for_selector("[data-table='2'][data-state=free]")
    history = head_api.get(f"/api/matches/{made.json()['match_id']}/history").json()
    assert "closed_by_head_judge (players went home)" in str(history)


def test_the_console_shows_what_other_competitions_have_waiting(page, head_api):
    """Issue 13's call queue on the console: the other competitions' matches waiting for a
    table, those they can call now first; a call there takes its match off the list."""
    from support.competition_play import Comp, player

    mine = Comp.create(head_api, {"name": "Queue mine", "format": "round_robin"})
    other = Comp.create(head_api, {"name": "Queue other", "format": "round_robin"})
    for comp, tag in ((mine, "M"), (other, "O")):
        comp.enter([(f"{tag}{i}", [player(f"{tag} player {i}")]) for i in range(1, 5)])
        comp.do({"type": "MakeDraw", "seed": 2})
    log_in(page)
    page.goto(f"/admin#c={mine.id}")
    page.wait_for_selector("[data-competition-name]")
    page.click("[data-tab=tables]")
    waiting = [m["match_id"] for m in other.settled()["waiting"]]
    queued = "[data-hall-queue] [data-queued]"
    for match_id in waiting:  # and none of this competition's own
        page.wait_for_selector(f"[data-hall-queue] [data-queued='{other.id}/{match_id}']")
    rows = page.locator(queued).all_inner_texts()
    assert not [r for r in rows if r.startswith("Queue mine")]
    ours = [r for r in rows if r.startswith("Queue other · ")]
    assert len(ours) == len(waiting) and ours[0].startswith(f"Queue other · {waiting[0]}: ")
    other.do({"type": "CallMatch", "match_id": waiting[0], "table": 44})
    gone = f"[data-hall-queue] [data-queued='{other.id}/{waiting[0]}']"
    page.wait_for_selector(gone, state="detached")
    blocked = page.locator(f"[data-hall-queue] [data-ready=false][data-queued^='{other.id}/']")
    assert blocked.count() >= 1
    busy = CATALOGUES["en"]["admin.tables.queue_player_busy"]
    assert busy in blocked.first.inner_text()


def test_a_click_whose_answer_is_lost_is_sent_again_and_stored_once(page):
    """The hall's wifi drops the answer to a TD's click (the server stored it): the console
    sends the same command again — the same command_id, so the second arrival is answered with
    what the first stored — and the TD sees the draw, not "No connection"."""
    log_in(page)
    checked_in(page, "Unanswered", "round_robin", 4, "Lost")
    sent: list[dict] = []

    def lose_the_first_answer(route) -> None:
        sent.append(json.loads(route.request.post_data))
        if len(sent) == 1:
            stored = route.fetch()  # it reaches the server and is stored …
            assert stored.status == 201, stored.text()
            route.abort("connectionreset")  # … and its answer never comes back
        else:
            route.continue_()

    page.route("**/api/competitions/*/commands", lose_the_first_answer)
    page.click("[data-tab=rounds]")
    page.click("[data-action=draw]")
    page.wait_for_selector("[data-round='3']")  # the feed shows the stored draw …
    for _ in range(50):  # … and the console sends its click again
        if len(sent) == 2:
            break
        page.wait_for_timeout(100)
    assert [s["command"]["type"] for s in sent] == ["MakeDraw", "MakeDraw"]
    assert sent[0]["command_id"] == sent[1]["command_id"]
    banner = page.locator("[data-banner]")
    assert not banner.is_visible() or banner.get_attribute("data-kind") != "error"


def test_single_elimination_flights_are_guide_settings(page):
    """A single elimination's guide names its flights: the consolation (on by default) and a
    last chance of the consolation's first-round losers; the draw shows the last chance's
    matches in words."""
    log_in(page)
    assert not page.locator("#f-last-chance").is_visible()  # a Swiss has no flights
    page.select_option("#f-format", "single_elimination")
    assert page.locator("#f-consolation").is_checked()
    assert not page.locator("#f-last-chance").is_checked()
    page.check("#f-last-chance")
    checked_in(page, "Flights", "single_elimination", 16, "Flight")
    comp = page.evaluate("new URLSearchParams(location.hash.slice(1)).get('c')")
    guide = page.evaluate(
        f"fetch('/api/competitions/{comp}').then(r => r.json()).then(d => d.guide)"
    )
    assert guide["consolation"] is True and guide["last_chance"] is True
    page.click("[data-tab=rounds]")
    page.click("[data-action=draw]")
    words = CATALOGUES["en"]["admin.stage.LC"]
    page.wait_for_function(f"document.body.innerText.includes('{words} · LC2-1')")


def test_the_guide_says_whether_lv_silences_are_filled_from_ekml(page):
    """Issue 35: filling LV's/NOVUS08's silences from EKML is the guide's choice (EKML §3(4));
    the form offers it in words, and the guide carries it into its matches."""
    log_in(page)
    page.fill("#f-name", "LV own text")
    page.select_option("#f-ruleset", "LV")
    offered = page.locator("#f-fill_silences option").evaluate_all(
        "(os) => os.map((o) => o.textContent)"
    )
    assert offered == [CATALOGUES["en"][f"admin.fill.{v}"] for v in ("ekml", "none")]
    page.select_option("#f-fill_silences", "none")
    page.click("[data-create]")
    assert _guide_of(page)["fill_silences"] == "none"
