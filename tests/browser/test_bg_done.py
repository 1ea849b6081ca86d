"""Issue 12, "Done when", in Chromium: the issue's 7-point match (tests/backgammon
test_scenario.py: a lateness penalty, a pause, a dropped double, a gammon, the Crawford game, a
clock flag) recorded through the API and the face. The long stretches of ordinary plays and
clock presses go over HTTP; every named event is entered on the recorder face: the lateness
and the pause on the TD sheet, the double and its drop on the pad, the Crawford game's start,
the gammon's last play tapped checker by checker, the flag on the TD sheet. Then the audit
replays it step by step (positions checked against /at/{version}), verifies the record, the
.mat is downloaded from the audit and the protocol PDF read back with pdftotext.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import msgspec
import pytest
from backgammon.test_scenario import Table, _play_until_flag, scenario_seed  # tests/backgammon
from support.harness import Api
from support.recorded import auditor
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon import state as st
from tableside.plugins.backgammon.exports.bg_words import BG_WORDS

from .bg_helpers import IDLE, VERSION, BgMatch, open_recorder
from .test_bg_td import _fill

pytestmark = pytest.mark.long  # started first under `make test` (tests/conftest.py)

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"


class Script(Table):
    """The scenario's commands, in order, with what each one stored at the engine."""

    def __init__(self) -> None:
        super().__init__()
        self.steps: list[tuple[c.Command, st.MatchState, tuple]] = []

    def do(self, cmd: c.Command) -> tuple:
        before = self.state
        stored = super().do(cmd)
        self.steps.append((cmd, before, stored))
        return stored


def _named(cmd: c.Command, before: st.MatchState, stored: tuple, after: c.Command | None) -> str:
    """Which face entry a command is, or "" for the API."""
    if isinstance(cmd, c.RecordLateness):
        return "lateness"
    if isinstance(cmd, c.TakePause):
        return "pause"
    if isinstance(cmd, c.ReportFlag):
        return "flag"
    if isinstance(cmd, c.Double) and isinstance(after, c.Drop) and before.game.phase == st.ROLL:
        return "double"
    if isinstance(cmd, c.Drop):
        return "drop"
    if isinstance(cmd, c.StartGame) and any(
        type(e) is ev.GameStarted and e.crawford for e in stored
    ):
        return "crawford"
    gammon = any(type(e) is ev.GameEnded and e.kind == "gammon" and e.by == "play" for e in stored)
    return "gammon" if isinstance(cmd, c.Play) and gammon else ""


@pytest.fixture
def viewport() -> dict[str, int]:
    return {"width": 800, "height": 1280}


class Face:
    """The recorder face kept at the version the API moved the match to."""

    def __init__(self, page, match: BgMatch) -> None:
        self.page, self.match = page, match

    def sync(self) -> None:
        self.page.evaluate("() => window.bg.load()")
        self.page.wait_for_function(f"() => ({VERSION})() === {self.match.version}")

    def tap(self, selector: str) -> None:
        self.sync()
        self.click(selector)

    def click(self, selector: str) -> None:
        """Something that stores a command, on the face as it is."""
        before = self.page.evaluate(VERSION)
        self.page.click(selector)
        self.page.wait_for_function(IDLE, arg=before)
        self.match.version = self.match.state()["version"]

    def td(self, form: str, **values) -> None:
        self.sync()
        _fill(self.page, form, **values)
        self.click(f"[data-td-send={form}]")

    def play(self, moves) -> None:
        """Tap each checker and its destination (a checker the face already picked stays)."""
        self.sync()
        board = self.page.locator("bg-board")
        for frm, to in moves:
            if board.locator(f"button[data-own='{frm}'][aria-pressed=true]").count() == 0:
                board.locator(f"button[data-own='{frm}']").click()
            board.locator(f"button[data-own='{to}']").click()
        self.click("[data-action=play]")


def _enter(face: Face, kind: str, cmd: c.Command) -> None:
    if kind == "lateness":
        face.td("lateness", side=cmd.side, minutes=cmd.minutes, reason=cmd.reason)
    elif kind == "pause":
        face.td("pause", side=cmd.side)
    elif kind == "flag":
        face.td("flag")
    elif kind in ("double", "drop", "crawford"):
        face.tap({"crawford": "[data-action=start-game]"}.get(kind, f"[data-action={kind}]"))
    else:
        face.play(cmd.moves)


CLOCK = (c.PressClock, c.StopClock, c.ResumeClock)


def _record(page, match: BgMatch, steps) -> list[str]:
    face, entered = Face(page, match), []
    for i, (cmd, before, stored) in enumerate(steps):
        after = next((s[0] for s in steps[i + 1 :] if not isinstance(s[0], CLOCK)), None)
        kind = _named(cmd, before, stored, after)
        if kind and kind not in entered:
            _enter(face, kind, cmd)
            entered.append(kind)
        else:
            match.post(msgspec.to_builtins(cmd))
    return entered


def _pdftotext(pdf: Path) -> str:
    out = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return " ".join(out.stdout.split())


def test_the_issues_seven_point_match_through_the_face_audit_mat_and_protocol(
    page, context, head_api: Api
) -> None:
    script = Script()
    assert _play_until_flag(scenario_seed(), lambda: script) is script
    match = BgMatch(head_api, length=7, clock=True)
    open_recorder(page, match)
    page.click("[data-td] summary")
    entered = _record(page, match, script.steps[1:])
    assert sorted(entered) == sorted(
        ["lateness", "pause", "double", "drop", "crawford", "gammon", "flag"]
    )
    page.wait_for_selector("[data-action=report-result]")  # the face: the match is over
    page.wait_for_selector("[data-receipt=shown] a[data-verify-url]")  # its signed receipt (#29)
    with page.expect_download() as done:  # the protocol, from the face, in its language
        page.click("[data-protocol]")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pdf = ARTIFACTS / "bg-done-protocol-en.pdf"
    done.value.save_as(pdf)
    doc = match.state()
    assert doc["state"]["over"] and doc["state"]["winner"] == "B"
    assert doc["state"]["score"] == list(script.state.score)
    events = match.events()
    by_face = [e for e in events if e["event"].get("rule")]
    assert len(by_face) == len(events)  # every stored event cites its paragraph
    types = [e["type"] for e in events]
    for kind in ("BgPenaltyPoints", "BgPauseTaken", "BgDoubleDropped", "BgFlagFell"):
        assert types.count(kind) == 1, kind
    crawford = [e for e in events if e["type"] == "BgGameStarted" and e["event"]["crawford"]]
    assert len(crawford) == 1

    # the audit: step by step, the board as the server folds it; the record verifies
    jury = auditor(head_api, name="bgdone")
    page.evaluate("(t) => localStorage.setItem('tableside.audit-token', t)", jury.token)
    page.goto(f"/audit/match/{match.id}")
    page.wait_for_selector("[data-state][data-version='1'] table.state")
    assert page.locator("[data-timeline] li").count() == len(events)
    wanted = {
        next(e["version"] for e in events if e["type"] == kind)
        for kind in ("BgPenaltyPoints", "BgDoubleDropped", "BgFlagFell")
    } | {crawford[0]["version"], len(events) // 2}
    for version in sorted(wanted):
        page.locator(f"[data-timeline] li[data-version='{version}']").click()
        page.wait_for_selector(f"[data-state][data-version='{version}'] table.state")
        board = jury.get(f"/api/backgammon/matches/{match.id}/at/{version}").json()["board"]
        for point in (1, 6, 13, 19):
            shown = page.locator(f"bg-board [data-point='{point}']")
            assert shown.get_attribute("data-a") == str(board["position"]["A"][point]), version
            assert shown.get_attribute("data-b") == str(board["position"]["B"][25 - point])
        score = page.locator("[data-state] td[data-field=score]").all_inner_texts()
        assert score == [str(s) for s in board["score"]], version
    page.keyboard.press("ArrowRight")  # the keys step too
    page.locator("[data-verify]").click()
    page.wait_for_selector("[data-verdict=intact]")
    assert f"all {len(events)} events" in page.locator(".verdict").inner_text()

    # the .mat from the audit's link; the protocol PDF the face gave; both read back
    with page.expect_download() as done:
        page.locator("[data-mat]").click()
    mat = Path(done.value.path()).read_text()
    assert " 7 point match" in mat and "Drops" in mat and "Doubles => 2" in mat
    text = _pdftotext(pdf)
    w = BG_WORDS["en"]
    dropped = next(e for e in events if e["type"] == "BgDoubleDropped")["event"]["side"]
    names = {"A": "Ása", "B": "Bjarni"}
    for fact in (
        "Ása — Bjarni",
        w["length_value"].format(n=7),
        w["crawford"],
        w["drop"].format(player=names[dropped]),
        w["pause"].format(player="Ása", own=1, pooled=0),
        w["flag"].format(player="Ása"),
        "(KSI 2.2.4)",
    ):
        assert fact in text, fact
