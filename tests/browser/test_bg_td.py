"""Issue 12, points 4-5 on the face: the TD's and the monitor's sheet on the recorder.

Folded under the players' pad, each form sends one engine command: lateness (KSI 2.2.4), a
pause (2.2.2), the clock stopped in one of exactly eight cases (4.3.2), a wrong game-over claim
(+5 min, 4.3.2.8), dice picked up early (30 s, 4.1.5.2), a flag (4.3.3), the TD called, a
ruling, an appeal and the jury's decision (5.1-5.2, 1.3.2), a monitor (1.3.3), an expulsion
(1.7.3). A refusal is said with its paragraph in words; the stored events are checked over
the API.
"""

from __future__ import annotations

import pytest
from support.competition_play import event_people

from .bg_helpers import IDLE, VERSION, BgMatch, open_recorder, tap
from .bg_helpers import fill_td as _fill
from .bg_helpers import send_td as _td
from .harness import assert_readable_contrast, axe_violations, screenshot

REFUSED = "(words) => document.querySelector('[data-banner=problem]')?.textContent.includes(words)"


def _refused(page, form: str, words: str, **values) -> None:
    _fill(page, form, **values)
    page.click(f"[data-td-send={form}]")
    page.wait_for_function(REFUSED, arg=words)


def _last(match: BgMatch, n: int = 1) -> list[dict]:
    return [e["event"] | {"type": e["type"]} for e in match.events()[-n:]]


@pytest.mark.usefixtures("axe_ready")
def test_the_td_sheet_sends_each_command_and_says_refusals_with_the_paragraph(page, head_api):
    event_people(head_api, ("Jón", "Sif", "Kári", "ása"))  # the jury is chosen from them
    match = BgMatch(head_api, length=5, clock=True)
    open_recorder(page, match)
    sheet = page.locator("[data-td]")
    assert sheet.get_attribute("open") is None  # folded away from the players
    page.click("[data-td] summary")

    _td(page, "lateness", side="B", minutes=10, reason="start")
    late = _last(match)[0]
    assert (late["type"], late["side"], late["points"]) == ("BgPenaltyPoints", "B", 2)
    assert "KSI 2.2.4 (penalties for lateness)" in page.locator("[data-banner]").inner_text()
    _td(page, "pause", side="A")
    assert _last(match)[0]["type"] == "BgPauseTaken"
    assert "Ása 1" in page.locator("[data-pauses]").inner_text()
    _refused(page, "pause", "KSI 2.2.2 (pauses)", side="A")  # one each in a 5-point match
    assert "Not recorded: Ása takes a pause" in page.locator("[data-banner]").inner_text()
    assert sheet.get_attribute("open") is not None  # still open after the redraws

    tap(page, "[data-action=start-clock]")
    tap(page, "[data-action=start-game]")
    page.click("[data-dice-for=A] [data-die='3']")
    tap(page, "[data-dice-for=B] [data-die='1']")
    cases = page.locator("[data-td-form=stop] select[name=case] option")
    assert cases.evaluate_all("os => os.map(o => o.value)") == [str(n) for n in range(1, 9)]
    _td(page, "stop", case=3)
    stop = _last(match)[0]
    assert (stop["type"], stop["case"], stop["rule"]) == ("BgClockStopped", 3, "KSI 4.3.2.3")
    assert "a die fell on the floor" in page.locator("[data-banner]").inner_text()
    _td(page, "resume")
    _td(page, "claim", side="A")
    claim = _last(match)[0]
    assert (claim["type"], claim["side"], claim["ms"]) == ("BgTimeAdded", "B", 300_000)
    _td(page, "pickup", side="B")
    wait = _last(match)[0]  # KSI 4.1.5.2: a forced wait on the offender's running clock
    assert (wait["type"], wait["side"], wait["ms"]) == ("BgForcedWait", "B", 30_000)
    _refused(page, "flag", "KSI 4.3.3 (time runs out)")  # nobody's time has run out

    _td(page, "call", side="A", reason="B moved before A finished")
    _td(page, "ruling", text="The move stands")
    _td(page, "appeal", side="B")
    jurors = page.locator("[data-jurors] input[name=juror]")
    page.wait_for_function("document.querySelectorAll('[data-jurors] input').length >= 3")
    offered = jurors.evaluate_all("xs => xs.map(x => x.value)")
    assert {"Jón", "Sif", "Kári"} <= set(offered) and "ása" not in offered  # a player: never
    for name in ("Jón", "Sif"):
        page.locator(f"[data-jurors] input[value='{name}']").check()
    _refused(page, "decide", "KSI 1.3.2 (the jury)", votes=1)  # two are no jury
    for name in ("Jón", "Sif", "Kári"):
        page.locator(f"[data-jurors] input[value='{name}']").check()
    _td(page, "decide", votes=1)
    decided = _last(match)[0]
    assert (decided["type"], decided["overturned"]) == ("BgAppealDecided", False)
    _td(page, "monitor", name="Guðrún", side="A")
    assert _last(match)[0]["name"] == "Guðrún"
    screenshot(page, "bg-recorder-360-td-sheet")
    assert axe_violations(page) == []  # the open sheet: every control labelled, no clashes
    assert_readable_contrast(page)

    _fill(page, "expel", side="B", reason="abuse of the opponent")
    page.click("[data-td-send=expel]")  # the first tap asks
    assert page.locator("[data-td-send=expel]").inner_text().startswith("Expel Bjarni")
    assert _last(match)[0]["type"] == "BgMonitorAppointed"
    before = page.evaluate(VERSION)
    page.click("[data-td-send=expel]")
    page.wait_for_function(IDLE, arg=before)
    expelled, ended = _last(match, 2)
    assert (expelled["type"], expelled["side"], ended["type"], ended["winner"]) == (
        "BgPlayerExpelled",
        "B",
        "BgMatchEnded",
        "A",
    )


def test_the_td_sheet_speaks_icelandic(page, head_api):
    match = BgMatch(head_api, length=7)
    open_recorder(page, match)
    page.evaluate("() => import('/js/i18n.js').then(({ i18n }) => i18n.set('is'))")
    page.wait_for_function(
        "document.querySelector('[data-td] summary').textContent.includes('Mótsstjóri')"
    )
    page.click("[data-td] summary")
    assert page.locator("[data-td-send=lateness]").inner_text() == "Skrá seinkun"
    _td(page, "lateness", side="A", minutes=5)
    assert "KSI 2.2.4 (refsingar fyrir seinkun)" in page.locator("[data-banner]").inner_text()


def test_the_td_sheet_settles_slow_play_sheets_and_a_wrong_result(page, head_api):
    """Slow play: penalty points (KSI 2.3.1.2) and a clock imposed (2.3.1.1); scoresheets that
    differ between games, the trailing player's governing (4.7); a finished match's result
    corrected (4.6) — each from the TD's sheet, stored with its paragraph."""
    match = BgMatch(head_api, length=3)
    open_recorder(page, match)
    page.click("[data-td] summary")
    assert page.locator("[data-td-form=dispute]").count() == 0  # no game played yet
    _td(page, "slow", side="B", points=1)
    slow = _last(match)[0]
    assert (slow["type"], slow["side"], slow["rule"]) == ("BgPenaltyPoints", "B", "KSI 2.3.1.2")
    _td(page, "impose")
    imposed = _last(match)[0]
    assert (imposed["type"], imposed["imposed"], imposed["rule"]) == (
        "BgClockStarted",
        True,
        "KSI 2.3.1.1",
    )
    assert page.locator("[data-td-form=impose]").count() == 0  # a clock runs now
    match.version = page.evaluate(VERSION)  # what the face stored
    match.post(
        {"type": "StartGame"},
        {"type": "RollOpening", "die_a": 3, "die_b": 1},
        {"type": "Play", "side": "A", "moves": [[8, 5], [6, 5]]},
        {"type": "Double", "side": "B"},
        {"type": "Drop", "side": "A"},  # 1:1 with B's penalty point credited to A
    )
    page.wait_for_selector("[data-td-form=dispute]")
    _refused(page, "dispute", "KSI 4.7", aa=1, ab=1, ba=1, bb=2)  # level: nobody trails
    assert axe_violations(page) == []
    # mid-game: lateness and pauses are not offered (only between games: KSI 2.2.4, 2.2.2)
    match.version = page.evaluate(VERSION)
    match.post({"type": "StartGame"})
    page.wait_for_selector("[data-td-form=lateness]", state="detached")
    assert page.locator("[data-td-form=pause]").count() == 0
    assert page.locator("[data-td-form=call]").count() == 1
    match.post({"type": "RollOpening", "die_a": 3, "die_b": 1},
               {"type": "Play", "side": "A", "moves": [[8, 5], [6, 5]]},
               {"type": "Double", "side": "B"}, {"type": "Drop", "side": "A"})  # fmt: skip
    page.wait_for_selector("[data-td-form=lateness]")

    match.post({"type": "RecordLateness", "side": "A", "minutes": 10})  # B wins, KSI 2.2.4
    page.wait_for_selector("[data-td-form=correct]")
    for gone in ("lateness", "pause", "stop", "call", "appeal", "slow"):  # the match is over
        assert page.locator(f"[data-td-form={gone}]").count() == 0, gone
    _td(page, "correct", side="A", a=3, b=2, reason="sheets misread")
    fixed = _last(match)[0]
    assert (fixed["type"], fixed["winner"], fixed["score"]) == ("BgResultCorrected", "A", [3, 2])
    assert fixed["rule"] == "KSI 4.6"
