"""Every face under two tools nobody here wrote: axe-core (WCAG 2.0-2.2 A/AA and its best
practices) in all three languages, and Chromium's own layout-shift entries (CLS ≤ 0.01 on a
phone, a tablet and a 1920×1080 venue screen, in all three languages; no language button
squeezed); what each face's first load transfers. Also what the tools cannot see: the audit
timeline is one Tab stop with a skip link, and the spectators' pages and the venue
screen announce a score change in a live region."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import msgspec
import pytest
from support.competition_play import Comp, pairs, publish_by_results
from support.harness import Api, Server, wait_for
from support.play import create, fold_response, play
from support.recorded import auditor
from tableside.disciplines.korona import commands as rc
from tableside.disciplines.korona import simulate

from .bg_helpers import BgMatch
from .harness import (
    CLS_OBSERVER,
    SETTLE_OBSERVER,
    assert_no_horizontal_overflow,
    axe_violations,
    broken_words,
    layout_shifts,
    screenshot,
    wait_until_settled,
)
from .judge_helpers import new_table
from .test_spectator import Table

pytestmark = pytest.mark.long  # started first under `make test` (tests/conftest.py)

LANGUAGES = ["et", "lv", "en"]
VIEWPORTS = {
    "phone": {"width": 360, "height": 640},
    "tablet": {"width": 800, "height": 1280},
    "desk": {"width": 1920, "height": 1080},
}
MAX_SHIFT = 0.01  # issue 34: the audit finder shifted 0.072 (0.002 before)
LIVE = ".live-state[data-state=live]"
WITNESS_NOTICE = ".banner[data-witness-age=stale]"  # the console's notice on a fresh install


# A fresh install a few minutes into its day, as the TD's console first meets it: a checkpoint
# signed and no witness outside the laptop yet, so the console's notice ("no witness outside
# this machine yet") is up when the faces load (issue 54: it pushed the console 0.19-0.39 on
# a phone, while the suite's server, younger than its 5-minute interval, never showed it).
CHECKPOINT_MINUTES = 0.05


@pytest.fixture(scope="module")
def pwa_server(chromium_ready: None, new_database) -> Iterator[Server]:
    env = {"TABLESIDE_CHECKPOINT_MINUTES": str(CHECKPOINT_MINUTES)}
    server = Server(new_database(), env=env).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def venue(head_api: Api, pwa_server, events: dict[str, str]) -> dict:
    """A match under way on table 41, a judge's table on its pad, an auditor's token; the
    two published events (a 32-pair double elimination, a round robin of five) beside."""
    table = Table(head_api, pwa_server.base, 41, seed=9)
    table.until_stroke()
    for _ in range(4):
        table.step()
    pad = new_table(head_api, ["Mari-Liis Tammsaare-Kõrvits"], ["Jānis Bērziņš"])
    judge = Api(pwa_server.base, pad["token"])
    doc = f"/api/matches/{pad['match_id']}"
    version = wait_for(lambda: head_api.get(doc).json().get("version"))
    r = judge.command(pad["match_id"], version, {"type": "AssignOpeningShot", "method": "listing"})
    assert r.status_code == 201, r.text
    # A whole match of three games, played and signed: a record of real size (issue 45:
    # the match and audit faces went over their budgets on one, not on a few strokes).
    rng = random.Random(45)
    record, view = create(head_api, 44, rng, games=3)
    play(head_api, head_api, record, view, rng)
    backgammon = BgMatch(head_api, length=3)
    backgammon.post({"type": "StartGame"})
    wait_for(lambda: head_api.get("/api/witnesses/newest").json()["stale"], timeout=60, step=0.5)
    return {
        "table": table,
        "backgammon": backgammon.id,
        "judge": pad["path"],
        "audit_token": auditor(head_api).token,
        "head_token": head_api.token,
        "record": record,
        **events,
    }


@pytest.fixture(scope="module")
def events(head_api: Api) -> dict[str, str]:
    """Seed 000's own event as its guide has it, published: 32 mixed pairs, double
    elimination, best of one (62 matches); beside it a round robin of five, published too."""
    made = {}
    for key, guide, count in (
        ("de32", {"name": "Segapaaride karikas", "format": "double_elimination"}, 32),
        ("rr5", {"name": "Külaturniir", "format": "round_robin"}, 5),
    ):
        comp = Comp.create(
            head_api,
            {
                **guide,
                "discipline": "mixed_pairs",
                "games_per_match": 1,
                "points": {"win": 4, "draw": 2, "loss": 0},
            },
        )
        comp.enter(pairs(count, key))
        comp.do({"type": "MakeDraw", "seed": 45})
        publish_by_results(comp, seed=45)
        made[key] = comp.id
    return made


# Each face: its address, and the selectors that say it has drawn what it waits for.
FACES = {
    "judge": (lambda v: v["judge"], ["[data-panel=pad]", ".live-state[data-live=true]"]),
    "spectator": (lambda v: "/", [".spectator:not([data-loading]) .match-card", LIVE]),
    "match": (lambda v: f"/?match={v['table'].match_id}", [".score-side", LIVE]),
    "screen": (lambda v: "/screen", [".screen[data-live=true] .match-card"]),
    "audit": (lambda v: f"/audit/match/{v['table'].match_id}", ["[data-where][data-version]"]),
    "finder": (lambda v: "/audit", ["[data-found]"]),
    "admin": (lambda v: "/admin", ["[data-create]", WITNESS_NOTICE]),
    "watch": (lambda v: f"/watch?match={v['backgammon']}", ["section.spectator[data-live=true]"]),
    "backgammon": (lambda v: f"/backgammon?match={v['backgammon']}", ["bg-board [data-board]"]),
    "screen_events": (
        # turning every 2 s: the standings are a slide after the (empty) tables' one on show
        lambda v: f"/screen?competition={v['de32']},{v['rr5']}&every=2",
        ["[data-screen-standings] tbody tr"],
    ),
    "competition": (
        lambda v: f"/?competition={v['de32']}",
        ["table.standings tbody tr", "[data-placings] li", LIVE],
    ),
    "verify": (lambda v: "/verify", ["[data-verdict]"]),
    "record": (lambda v: f"/?match={v['record']}", [".score-side", LIVE]),
    "record_audit": (lambda v: f"/audit/match/{v['record']}", ["[data-where][data-version]"]),
    "admin_event": (
        lambda v: f"/admin#c={v['de32']}",
        ["[data-competition-name]", WITNESS_NOTICE],
    ),
}
AUDITED = list(FACES)
SLIDES = {"screen", "screen_events"}


def open_face(context, venue: dict, face: str, lang: str, before=None):
    """A page of `face` in `lang`, logged in where the face needs it, with the shift observer."""
    tokens = {"tableside.language": lang, "tableside.audit-token": venue["audit_token"]}
    if face in ("admin", "admin_event", "backgammon"):
        tokens["tableside.token"] = venue["head_token"]
    setup = "".join(f"localStorage.setItem('{k}', '{v}');" for k, v in tokens.items())
    context.add_init_script(setup + CLS_OBSERVER + SETTLE_OBSERVER)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    if before:
        before(page)
    path, drawn = FACES[face]
    page.goto(path(venue))
    page.wait_for_selector("html[data-ready=true]")
    # The venue screen shows one slide at a time: a row drawn on a slide not yet turned to is
    # drawn all the same (waiting for it to be visible waited for the 8 s turn).
    state = "attached" if face in SLIDES else "visible"
    for selector in drawn:
        page.wait_for_selector(selector, state=state)
    page.wait_for_function(f"document.documentElement.lang === '{lang}'")
    wait_until_settled(page)  # late arrivals (feeds, second reads) have had their chance
    assert not errors, errors
    return page


# Each language button's code on one line, inside its box, the box a whole target (issue 34:
# "EN" broke into "E/N" on the venue screen at 1920×1080, the buttons squeezed).
SQUEEZED_LANGUAGES = """() => [...document.querySelectorAll('language-picker button')]
  .flatMap((b) => {
  const code = document.createRange();
  code.selectNodeContents(b.firstChild);
  const lines = [...code.getClientRects()].filter((r) => r.width > 0);
  const box = b.getBoundingClientRect();
  const ok = lines.length === 1 && lines[0].left >= box.left && lines[0].right <= box.right
    && box.width >= 48 && box.height >= 48;
  return ok ? [] : [`${b.dataset.lang}: ${lines.length} lines, ${Math.round(box.width)}px wide`];
})"""


def new_context(browser, pwa_server, size: str):
    return browser.new_context(
        bypass_csp=True,  # as conftest `context`: Playwright evaluates with eval()
        base_url=pwa_server.base,
        viewport=VIEWPORTS[size],
        locale="en-GB",
        has_touch=True,
    )


# The faces a tablet holds (the judge's pad, the backgammon table's device, the console at
# the desk) are loaded at the tablet's size too; every face at a phone's and a desk's (issue 45).
ON_TABLETS = {"judge", "backgammon", "admin", "admin_event"}
SIZED = [(f, s) for f in AUDITED for s in VIEWPORTS if s != "tablet" or f in ON_TABLETS]


# One load per face, size and language proves both: its layout shifts while it loads, and
# (on the phone, the size every face must serve) axe-core's findings on the settled page,
# run after the shifts are read so axe's own work cannot count as a shift.
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("face, size", SIZED)
def test_no_face_shifts_while_it_loads_and_axe_finds_nothing_on_a_phone(
    request, browser, pwa_server, venue, face, size, lang
) -> None:
    context = new_context(browser, pwa_server, size)
    try:
        page = open_face(context, venue, face, lang)
        total, shifts = layout_shifts(page)
        print(f"CLS {face} {size} {lang}: {total:.4f}")
        assert total <= MAX_SHIFT, shifts
        assert_no_horizontal_overflow(page)
        assert page.evaluate(SQUEEZED_LANGUAGES) == []
        if size == "phone":
            request.getfixturevalue("axe_ready")  # skips (under CI, fails) without axe-core
            assert axe_violations(page) == []
    finally:
        context.close()


def test_the_audit_timeline_is_one_tab_stop_with_a_skip_link(page, venue) -> None:
    page.context.add_init_script(
        f"localStorage.setItem('tableside.audit-token', '{venue['audit_token']}')"
    )
    page.goto(f"/audit/match/{venue['table'].match_id}#v=3")
    page.wait_for_selector("[data-where][data-version='3']")
    inside = "[data-timeline] :is(a, button, input, select, [tabindex])"
    assert page.locator(inside).count() == 0  # the options are not Tab stops
    page.locator("[data-filter]").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.skip") == ""  # the skip link
    page.keyboard.press("Tab")
    timeline = page.locator("[data-timeline]")
    assert page.evaluate("document.activeElement.dataset.timeline") == ""
    assert timeline.get_attribute("role") == "listbox"
    assert timeline.get_attribute("aria-activedescendant") == "event-3"
    page.keyboard.press("ArrowDown")
    page.wait_for_selector("[data-where][data-version='4']")
    assert timeline.get_attribute("aria-activedescendant") == "event-4"
    assert page.locator("#event-4").get_attribute("aria-selected") == "true"
    page.keyboard.press("ArrowUp")
    page.wait_for_selector("[data-where][data-version='3']")
    page.keyboard.press("Tab")  # one stop: the next Tab leaves the timeline
    assert page.evaluate("!document.activeElement.closest('[data-timeline]')")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")  # the skip link goes to the details
    assert page.evaluate("document.activeElement.id") == "audit-details"


SAID = "(words) => document.querySelector('[data-announce]').textContent.includes(words)"


def play_until_a_game_ends(table: Table) -> None:
    """The simulator's judge commands (a head judge's corrections left out) until a game ends."""
    for _ in range(600):
        command = simulate.next_command(table.view.state, table.rng)
        assert command is not None, "the match ended before a game did"
        if isinstance(command, rc.CorrectDecision):
            continue
        r = table.judge.command(table.match_id, table.view.version, msgspec.to_builtins(command))
        assert r.status_code == 201, r.text
        table.view = fold_response(table.view, table.match_id, r.json())
        if any(e["type"] == "GameEnded" for e in r.json()["events"]):
            return
    pytest.fail("no game ended in 600 commands")


def test_a_score_change_is_announced_on_the_spectators_page_and_the_venue_screen(
    context, head_api, pwa_server
) -> None:
    table = Table(head_api, pwa_server.base, 42, seed=13)
    table.until_stroke()
    pages = {}
    for path in ("/", "/screen", f"/?match={table.match_id}"):
        page = context.new_page()
        page.goto(path)
        page.wait_for_selector(".live-state[data-state=live]")
        page.wait_for_selector("[data-announce][role=status]", state="attached")
        pages[path] = page
    play_until_a_game_ends(table)
    for path, page in pages.items():
        page.wait_for_function(SAID, arg="Table 42: Mari Tamm", timeout=5000)
        said = page.locator("[data-announce]").text_content()
        assert "Jānis Bērziņš" in said, (path, said)


# What each face's first load may transfer, in bytes: every request of the page itself
# (bodies as sent, gzip where the server compresses — the faces' files and, since issue 45,
# the API's JSON — and headers) as Chromium's network layer counts them, in a fresh
# profile, service worker cold. The worker's install precache is its own background traffic
# and is not counted here; the /live websocket's frames are not requests. Earlier figures
# (issue 34): judge 113 KB, spectator home 73 KB. Decisions 0105, 0139. On real-sized data
# (issue 45): a whole three-game match's page and audit, a published 32-pair double
# elimination's spectator page, console and venue screen.
# After main's one vocabulary (decision 0130) every face also loads its refusal codes'
# catalogue (`i18n/codes.<lang>.json`, 8.5 KB gzipped): measured with it at 09:18 on the day
# (issue 45's merge of main), each budget ~6 % above.
# The fifth wave (issues 49-54) grew what every face loads: the refusal codes' catalogue
# (federation, KSI 1.6.4, moves: +1.2 KB gzipped), api.js's secure-context check before a
# token leaves (+0.65 KB), i18n.js's plural forms (+0.25 KB), live.js (+0.15 KB); measured
# after the merges: admin 104.0, screen 89.0, watch 82.0, audit 80.7, match 82.5,
# backgammon 104.6, competition 86.6, record 86.5, screen_events 89.8 KB.
BUDGETS = {
    # judge: 113.5 KB after issues 52-54 (who knocked, §28(3)'s two cases, LV's noted, plural
    # forms, the secure-context check before a token leaves)
    "judge": 115_000,
    "spectator": 85_000,  # 83.2 KB after issues 51-53 (the federation live page shares its rows)
    "match": 84_000,  # 82.5 KB after issues 51-53
    "watch": 83_000,  # 75 KB
    "screen": 90_000,  # 81.5 KB with backgammon's slide kind (issue 44: screen-bg, spectator-bg)
    "admin": 105_000,  # 94 KB
    "audit": 82_000,  # 75 KB
    "backgammon": 106_000,  # 97 KB
    "record": 88_000,  # a whole match's page: 79 KB (150 KB with the JSON as stored)
    # 93 KB (234 KB): 20 KB of it the record itself, whose hashes do not compress
    "record_audit": 99_000,
    "competition": 88_000,  # 79 KB (98 KB)
    "admin_event": 110_000,  # 97–101 KB (113 KB)
    "screen_events": 91_000,  # 82.4 KB with backgammon's slide kind (issue 44)
    "verify": 48_000,  # 46.8 KB: it checks again on every hashchange (issue 52), api.js
}


_AT = re.compile(r"[?&]min_position=\d+")


def test_every_face_loads_within_its_byte_budget(browser, pwa_server, venue) -> None:
    sent: dict[str, dict[str, int]] = {}
    for face in BUDGETS:
        context = browser.new_context(
            base_url=pwa_server.base, viewport=VIEWPORTS["phone"], bypass_csp=True
        )
        urls: dict[str, str] = {}
        sent[face] = {}

        def listen(page, urls=urls, got=sent[face], context=context) -> None:
            cdp = context.new_cdp_session(page)
            cdp.on(
                "Network.requestWillBeSent",
                # a read again at a later position (a push while the page loads: on the
                # suite's shared server other tests' tables move) is the same resource, once
                lambda e: urls.update({e["requestId"]: _AT.sub("", e["request"]["url"])}),
            )
            cdp.on(
                "Network.loadingFinished",
                lambda e: got.update({urls.get(e["requestId"], "?"): e["encodedDataLength"]}),
            )
            cdp.send("Network.enable")

        try:
            open_face(context, venue, face, "lv", before=listen)
        finally:
            context.close()
    totals = {face: sum(got.values()) for face, got in sent.items()}
    print("bytes on first load:", totals)
    over = {
        face: (totals[face], budget, sent[face])
        for face, budget in BUDGETS.items()
        if totals[face] > budget
    }
    for face, (_total, _budget, got) in over.items():  # where the bytes went, largest first
        print(face, sorted(got.items(), key=lambda kv: -kv[1])[:12])
    assert not over, over


# One look at the screen on slide N: the standings rows wholly inside the 1920×1080 frame,
# each at 40 px or more, read in the same moment as the slide's number.
SHOWN_ROWS = """(n) => {
  const label = document.querySelector("[data-page]");
  if (!label || label.hidden || label.dataset.page !== String(n)) return null;
  const whole = (r) => {
    const b = r.getBoundingClientRect();
    const cells = [...r.cells].every((c) => c.scrollWidth <= c.clientWidth + 1);
    return r.checkVisibility() && b.top >= 0 && b.bottom <= innerHeight && b.left >= 0
      && b.right <= innerWidth && cells && parseFloat(getComputedStyle(r).fontSize) >= 40;
  };
  const rows = [...document.querySelectorAll("[data-screen-standings] tbody tr")];
  return { pages: Number(label.dataset.pages), rows: rows.filter(whole).map((r) =>
    `${r.closest("[data-competition]").dataset.competition} ${r.dataset.entrant}`) };
}"""


def test_every_row_of_a_32_pair_event_is_on_the_screen_within_one_rotation(
    browser, pwa_server, events
) -> None:
    """Issue 45: at 1920×1080 rows 28–32 were never shown and a second event was below the
    fold. One turn through the slides shows every row of both published events, whole."""
    context = new_context(browser, pwa_server, "desk")
    try:
        page = context.new_page()
        page.goto(f"/screen?competition={events['de32']},{events['rr5']}&every=1")
        page.wait_for_selector("[data-screen-standings] tbody tr")
        first = page.wait_for_function(SHOWN_ROWS, arg=1, timeout=15_000).json_value()
        screenshot(page, "screen-standings-1920x1080")
        seen = set(first["rows"])
        for n in range(2, first["pages"] + 1):
            seen |= set(
                page.wait_for_function(SHOWN_ROWS, arg=n, timeout=15_000).json_value()["rows"]
            )
        want = {f"{events['de32']} de32{i:02d}" for i in range(1, 33)}
        want |= {f"{events['rr5']} rr5{i:02d}" for i in range(1, 6)}
        assert seen == want, (first["pages"], sorted(want - seen))
        print(f"rows of 32 + 5 in {first['pages']} slides at 1920x1080")
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_word_of_the_console_or_the_audit_tables_breaks_at_1280(
    browser, pwa_server, venue, lang
) -> None:
    """Issue 45: at 1280 px the console's and the audit's tables broke Estonian words in two
    ("Koha|l", "Registree|ritud"). On a 32-pair event's entrants and standings, and the
    audit finder's list, every word of every cell sits on one line."""
    context = browser.new_context(
        bypass_csp=True, base_url=pwa_server.base, viewport={"width": 1280, "height": 800}
    )
    try:
        page = open_face(context, venue, "admin_event", lang)
        for tab, rows in (("entrants", "[data-entrant]"), ("standings", "[data-standings] tr")):
            page.click(f"[data-tab={tab}]")
            page.wait_for_selector(rows)
            assert broken_words(page, "main th, main td") == [], (tab, lang)
        finder = open_face(context, venue, "finder", lang)
        assert broken_words(finder, "main th, main td") == [], lang
    finally:
        context.close()
