"""Words, not codes, on every face in every language (issue 14 point 5, "done when").

A crawler opens every face of a hall in full swing — the demo's Swiss with its play-off running
on tables 1–4, a signed match with a remark, penalties and corrections, a match in play at a
judge's table — in Estonian, Latvian and English, reads everything a reader sees or hears
(text, shadow roots, aria-labels, placeholders) and fails on any message key, engine code,
stored event type, raw id, or English on an Estonian or Latvian page. Each face in each
language leaves a screenshot in test-artifacts/browser/faces/ for review.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from support.harness import Api, Server, wait_for
from support.recorded import NAMES, Recorded, auditor, record_match
from support.words import raw_codes
from tableside.disciplines.korona import EVENT_TYPES
from tableside.match.events import VENUE_EVENT_TYPES

from .harness import screenshot

pytestmark = pytest.mark.long  # started first under `make test` (tests/conftest.py)

LANGS = ("et", "lv", "en")
DESK = {"width": 1280, "height": 800}
SCREEN = {"width": 1920, "height": 1080}

# Everything a reader gets: the page's text (open shadow roots too, hidden parts too) and what
# assistive technology reads out. Tooltips (title) may keep a stored name for an auditor's
# hover, by design.
_READ = """() => {
  const lang = document.documentElement.lang;
  const out = [];
  // A language picker names each language in itself ("English" on an Estonian page): text
  // marked with another language is meant as it is.
  const mine = (el) => !el || (el.closest('[lang]')?.lang || lang) === lang;
  const walk = (root) => {
    const texts = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = texts.nextNode(); n; n = texts.nextNode()) {
      const el = n.parentElement;
      if (el && ['SCRIPT', 'STYLE'].includes(el.tagName)) continue;
      if (mine(el)) out.push(n.textContent);
    }
    for (const el of root.querySelectorAll('*')) {
      for (const a of ['aria-label', 'placeholder', 'alt']) {
        if (el.getAttribute(a) && mine(el)) out.push(el.getAttribute(a));
      }
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document.body);
  return out.join('\\n');
}"""


@pytest.fixture(scope="module")
def pwa_server(chromium_ready, new_database) -> Iterator[Server]:
    """The hall: the demo competition playing quickly beside the tests' own matches."""
    env = {"TABLESIDE_DEMO": "1", "TABLESIDE_DEMO_PACE": "0.02,0.05"}
    server = Server(new_database(), env=env).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def hall(pwa_server: Server, head_api: Api) -> dict:
    """A signed match with corrections (table 61), a match in play (table 62), the demo's
    competition with finished matches in its standings."""
    signed: Recorded = record_match(head_api, table=61, seed=25, games=2)
    playing = head_api.create(62, ["Kati Põld"], ["Ilze Ozola"], games=3).json()["match_id"]
    version = 2
    for command in (
        {"type": "AssignOpeningShot", "method": "lot", "lot_winner": "A"},
        {"type": "RecordStroke", "player": "Kati Põld", "facts": {"own_pocketed": 1}},
        {"type": "GiveRemark", "player": "Kati Põld", "reason": "cleaning_board"},
        {"type": "RecordStroke", "player": "Kati Põld", "facts": {"striker": "pocket"}},
    ):
        r = head_api.command(playing, version, command)
        assert r.status_code == 201, r.text
        version = r.json()["last_version"]
    anon = Api(pwa_server.base)
    listed = wait_for(lambda: anon.get("/api/competitions").json(), 30, 0.2)[0]
    comp = listed["competition_id"]
    standings = f"/api/competitions/{comp}/standings"
    assert wait_for(lambda: sum(r["played"] for r in anon.get(standings).json()["rows"]), 60, 0.5)
    # What people typed is shown as typed: the competition's name is the TD's, the head judge's
    # user name and the reason they gave for a correction (the simulator's) theirs.
    # The players' names too: "Mari" is a word of an English hint that Icelandic words with
    # its own names, and only an Icelandic page tells it from a name.
    players = [n for side in (*NAMES, ["Kati Põld"], ["Ilze Ozola"]) for n in side]
    names = frozenset({listed["name"], "head", "head judge ruling", *players})
    return {"signed": signed, "playing": playing, "competition": comp, "names": names}


def read(page) -> str:
    return page.evaluate(_READ)


def visit(context, url: str, lang: str, ready: str):
    """Open `url` in `lang` and wait until `ready` shows."""
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_selector("html[data-ready=true]")
    page.click(f"language-picker [data-lang={lang}]")
    page.wait_for_function(f"document.documentElement.lang === '{lang}'")
    page.wait_for_selector(ready)
    page.wait_for_timeout(300)  # the last live document lands
    page.errors = errors
    return page


def check(page, name: str, lang: str, ids: frozenset[str]) -> None:
    screenshot(page, f"faces/{name}-{lang}")
    leaks = raw_codes(read(page), lang, ids)
    assert not leaks, (name, lang, leaks)
    assert not page.errors, page.errors


@pytest.fixture
def desk(browser, pwa_server: Server, head_api: Api, hall) -> Iterator[object]:
    """A laptop context logged in as the head judge (console, judge pad) and the jury (audit)."""
    jury = auditor(head_api)
    context = browser.new_context(
        base_url=pwa_server.base, viewport=DESK, locale="en-GB", bypass_csp=True
    )
    context.add_init_script(
        f"localStorage.setItem('tableside.token', '{head_api.token}');"
        f"localStorage.setItem('tableside.audit-token', '{jury.token}');"
    )
    yield context
    context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_spectator_faces_speak_the_readers_language(desk, hall, lang) -> None:
    signed = hall["signed"].match_id
    page = visit(desk, "/", lang, "[data-table], .card, main a")
    check(page, "spectator-tables", lang, hall["names"])
    page = visit(desk, f"/?match={signed}", lang, ".log li")
    check(page, "spectator-match", lang, hall["names"])
    page = visit(desk, f"/?competition={hall['competition']}", lang, "table, ol, .card")
    check(page, "spectator-competition", lang, hall["names"])
    page = visit(desk, "/?player=Jānis Bērziņš", lang, "[data-player-matches] > *")
    check(page, "spectator-player", lang, hall["names"])


@pytest.mark.parametrize("lang", LANGS)
def test_venue_screen_speaks_the_readers_language(browser, pwa_server, hall, lang) -> None:
    context = browser.new_context(
        base_url=pwa_server.base, viewport=SCREEN, locale="en-GB", bypass_csp=True
    )
    try:
        page = visit(context, "/screen", lang, "main")
        check(page, "screen", lang, hall["names"])
    finally:
        context.close()


@pytest.mark.parametrize("lang", (*LANGS, "is"))  # every table's link speaks Icelandic too
def test_judge_pad_and_its_foul_sheet_speak_the_readers_language(desk, hall, lang) -> None:
    page = visit(desk, "/judge?table=62", lang, "[data-act=foul]")
    check(page, "judge-pad", lang, hall["names"])
    page.click("[data-act=foul]")
    page.wait_for_selector("dialog[open], [role=dialog]")
    check(page, "judge-foul-sheet", lang, hall["names"])
    page = visit(desk, "/judge?table=61", lang, "[data-panel], [data-notice]")  # signed: final
    check(page, "judge-final", lang, hall["names"])


@pytest.mark.parametrize("lang", LANGS)
def test_console_tabs_speak_the_readers_language(desk, hall, lang) -> None:
    page = visit(desk, "/admin", lang, "main")
    check(page, "admin-competitions", lang, hall["names"])
    page.goto(f"/admin#c={hall['competition']}")
    page.wait_for_selector("[data-competition-name]")
    for tab in ("entrants", "rounds", "tables", "rulings", "standings"):
        page.click(f"[data-tab={tab}]")
        page.wait_for_selector(f"[data-tab={tab}][aria-pressed=true]")
        page.wait_for_timeout(200)
        check(page, f"admin-{tab}", lang, hall["names"])


@pytest.mark.parametrize("lang", LANGS)
def test_audit_finder_and_replay_speak_the_readers_language(desk, hall, lang) -> None:
    signed: Recorded = hall["signed"]
    page = visit(desk, "/audit", lang, "[data-finder] li, [data-finder] tr, main")
    check(page, "audit-finder", lang, hall["names"])
    ids = hall["names"] | {signed.match_id}  # the replay names the match it replays
    for step in (signed.remark_version, signed.view.version):
        page = visit(desk, f"/audit/match/{signed.match_id}#v={step}", lang, "[data-step]")
        check(page, f"audit-replay-v{step}", lang, ids)


def test_every_match_event_has_words(page) -> None:
    """The log and the audit word every event a korona match stream can hold (a missing one
    would show its stored type)."""
    page.goto("/")
    page.wait_for_selector("html[data-ready=true]")
    worded = page.evaluate("async () => (await import('/js/spectator-words.js')).WORDED")
    stored = {t.__name__ for t in (*EVENT_TYPES, *VENUE_EVENT_TYPES)}
    assert stored - set(worded) == set()
