"""Issue 44, point 2 on the recorder face: remedies that set the right clock.

KSI 4.2.3.3: after an illegal play is corrected, the offender's clock restarts while he
replays — the face's resume (which names no side) runs it, not the other player's. KSI 4.1.6.2:
with a clock a move is complete at the press, so a roll tapped before the opponent pressed is
early (KSI 4.1.5.1), and the jury's "reroll" remedy is carried out. The position before is
recorded over HTTP; every step the rules are about is a tap on the face.
"""

from __future__ import annotations

import time

from support.competition_play import event_people

from .bg_helpers import BgMatch, open_recorder, roll, send_td, tap


def _now() -> int:
    return int(time.time() * 1000)  # the device time the face itself stamps presses with


def _last(match: BgMatch, kind: str) -> dict:
    return next(e["event"] for e in reversed(match.events()) if e["type"] == kind)


def _opened(head_api) -> BgMatch:
    """A clocked 5-point match: the clock started, A's opening 3-1 played (8/5 6/5), no press."""
    match = BgMatch(head_api, length=5, clock=True)
    match.post(
        {"type": "StartClock", "at_ms": _now()},
        {"type": "StartGame"},
        {"type": "RollOpening", "die_a": 3, "die_b": 1},
        {"type": "Play", "side": "A", "moves": [[8, 5], [6, 5]]},
    )
    return match


def _running(page, side: str) -> None:
    page.wait_for_function(
        "(s) => document.querySelector(`[data-press=${s}]`)?.classList.contains('running')",
        arg=side,
    )


def test_ksi_4_2_3_3_the_offenders_clock_restarts_after_a_correction_on_the_face(page, head_api):
    match = _opened(head_api)
    match.post(
        {"type": "PressClock", "side": "A", "at_ms": _now()},
        {"type": "Roll", "side": "B", "dice": [6, 4]},
        {"type": "Play", "side": "B", "moves": [[24, 18], [18, 15]]},  # 9 pips for a 6-4
        {"type": "PressClock", "side": "B", "at_ms": _now()},
    )
    open_recorder(page, match)
    _running(page, "A")
    page.click("[data-td] summary")
    send_td(page, "stop", case=7)  # A asks for the correction by stopping the clock
    tap(page, "[data-action=correct-illegal]")
    assert _last(match, "BgIllegalPlayCorrected")["rule"] == "KSI 4.2.3.3"
    send_td(page, "resume")  # the face's resume names no side
    resumed = _last(match, "BgClockResumed")
    assert (resumed["side"], resumed["rule"]) == ("B", "KSI 4.2.3.3")
    _running(page, "B")  # the offender's time runs while he replays
    assert page.locator("[data-press=A]").is_disabled()
    assert not page.locator("[data-press=B]").is_disabled()


def test_ksi_4_1_6_2_a_roll_before_the_press_is_early_and_the_reroll_remedy_works_on_the_face(
    page, head_api
):
    event_people(head_api, ("Dóra", "Egill", "Freyja"))  # the jury is chosen from them
    match = _opened(head_api)  # A has not pressed yet
    open_recorder(page, match)
    roll(page, "B", 6, 6)  # B rolls before A completed his move with the press
    early = _last(match, "BgDiceRolled")
    assert (early["early"], early["rule"]) == (True, "KSI 4.1.6.2")
    tap(page, "[data-press=A]")
    page.click("[data-td] summary")
    send_td(page, "call", side="A", reason="B rolled before my press")
    send_td(page, "ruling", text="The roll stands")
    send_td(page, "appeal", side="A")
    page.wait_for_function("document.querySelectorAll('[data-jurors] input').length >= 3")
    for name in ("Dóra", "Egill", "Freyja"):
        page.locator(f"[data-jurors] input[value='{name}']").check()
    send_td(page, "decide", votes=2, remedy="reroll")
    types = [e["type"] for e in match.events()[-3:]]
    assert types == ["BgRulingOverturned", "BgRerollRequired", "BgAppealDecided"], types
    assert _last(match, "BgRerollRequired")["rule"] == "KSI 4.1.5.1"
    send_td(page, "resume")  # the call stopped the clock (KSI 4.3.2.4); B's time runs again
    roll(page, "B", 2, 1)  # the reroll, from the pad
    again = _last(match, "BgDiceRolled")
    assert (again["dice"], again["early"]) == ([2, 1], False)


def test_ksi_4_4_3_a_drop_on_the_face_stops_the_clock_and_the_pad_restarts_it(page, head_api):
    match = _opened(head_api)
    match.post({"type": "PressClock", "side": "A", "at_ms": _now()})
    open_recorder(page, match)
    _running(page, "B")
    tap(page, "[data-action=double]")
    tap(page, "[data-action=drop]")
    stopped = _last(match, "BgClockStopped")
    assert (stopped["case"], stopped["rule"]) == (1, "KSI 4.4.3")
    assert page.locator("[data-press=A]").is_disabled()
    assert page.locator("[data-press=B]").is_disabled()
    tap(page, "[data-action=resume-clock]")  # on the pad, not only in the TD's sheet
    assert _last(match, "BgClockResumed")["rule"] == "KSI 4.3.2"
    assert page.locator("[data-action=resume-clock]").count() == 0


def test_ksi_4_1_6_2_the_players_have_an_early_roll_rolled_again_on_the_pad(page, head_api):
    """Issue 53: the reroll worked only through the jury and the API. B rolls before A's press
    (early, KSI 4.1.6.2); the pad offers A the reroll (KSI 4.1.5.1) and, after it, does not
    invite B to roll early again: it waits for A's press, then B rolls on his own time."""
    match = _opened(head_api)  # A has played, not pressed
    open_recorder(page, match)
    page.wait_for_selector("[data-press-first=roll]")  # the pad says a roll now is early
    roll(page, "B", 6, 6)
    assert _last(match, "BgDiceRolled")["early"] is True
    tap(page, "[data-action=reroll]")
    required = _last(match, "BgRerollRequired")
    assert (required["side"], required["rule"]) == ("B", "KSI 4.1.5.1")
    page.wait_for_selector("[data-press-first=roll_only]")
    assert page.locator("[data-dice-for=B] [data-die]").count() == 0  # no early roll invited
    tap(page, "[data-press=A]")
    _running(page, "B")
    roll(page, "B", 2, 1)
    again = _last(match, "BgDiceRolled")
    assert (again["dice"], again["early"], again["rule"]) == ([2, 1], False, "KSI 4.1.4.1")
