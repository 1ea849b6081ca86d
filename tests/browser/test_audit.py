"""The jury's replay at /audit/match/<id>: the state at every step is the engine's fold of the
first k events; corrections link to what they correct; Verify finds a tampered event; the
downloaded JSON Lines verify offline and fail after one byte is changed."""

from __future__ import annotations

import json
import re

import msgspec
import psycopg
import pytest
from support.harness import Api
from support.recorded import Recorded, auditor, record_match
from tableside.eventlog.jsonl import verify_export
from tableside.plugins.korona.folding import Record, advance
from tableside.plugins.korona.views import live_doc
from tableside.server.registry import build_registry

from .harness import assert_no_horizontal_overflow, screenshot

REGISTRY = build_registry()
STATUS = {
    "scheduled": "scheduled",
    "called": "players called",
    "playing": "playing",
    "ended": "final",
    "signed": "final · signed",
}
LARGE = {"width": 1280, "height": 800}


@pytest.fixture(scope="module")
def jury(head_api: Api) -> Api:
    return auditor(head_api)


@pytest.fixture(scope="module")
def long_match(head_api: Api) -> Recorded:
    match = record_match(head_api, table=31, seed=25, games=2)
    assert match.view.version >= 100
    return match


@pytest.fixture
def session(context, jury: Api):
    """The auditor's session in the browser, as if they had logged in on this device."""
    context.add_init_script(f"localStorage.setItem('tableside.audit-token', '{jury.token}')")


def folded(jury: Api, match_id: str) -> list[dict]:
    """live_doc after each of the first k stored events (index k-1), folded here in Python."""
    view, docs = None, []
    for item in jury.get(f"/api/matches/{match_id}/record").json():
        event = REGISTRY.decode(item["type"], msgspec.json.encode(item["event"]))
        view = advance(
            view,
            Record(
                view.match_id if view else match_id,
                item["version"],
                item["position"],
                item["type"],
                event,
                None,
            ),
        )
        docs.append(live_doc(view))
    return docs


def expected(doc: dict) -> dict[str, list[str]]:
    game = doc["game"]
    pucks = [game["pucks"][i] if game else {} for i in (0, 1)]
    both = lambda key: [str(p.get(key, "—")) for p in pucks]  # noqa: E731
    return {
        "status": [STATUS[doc["status"]]],
        "game": [str(game["game_no"]) if game else "—"],
        "turn": [(game or {}).get("turn") or "—"],
        "won": [str(w) for w in doc["won"]],
        "on_board": both("on_board"),
        "pocketed": both("pocketed"),
        "debt": both("debt"),
        "remarks": [str(r) for r in doc["remarks"]],
    }


def shown(page, version: int) -> dict[str, list[str]]:
    page.wait_for_selector(f"[data-state][data-version='{version}'] table.state")
    return page.evaluate(
        """(v) => {
      const out = {};
      for (const td of document.querySelectorAll(`[data-state][data-version='${v}'] td`)) {
        (out[td.dataset.field] ||= [])[Number(td.dataset.side)] = td.textContent;
      }
      return out;
    }""",
        version,
    )


def at(page, version: int) -> None:
    page.wait_for_selector(f"[data-where][data-version='{version}']")


def test_each_step_shows_the_engines_fold_of_the_first_k_events(
    page, session, jury: Api, long_match: Recorded
) -> None:
    docs = folded(jury, long_match.match_id)
    last = len(docs)
    page.goto(f"/audit/match/{long_match.match_id}#v=37")
    at(page, 37)
    assert shown(page, 37) == expected(docs[36])
    page.keyboard.press("ArrowRight")  # keyboard: next
    at(page, 38)
    assert shown(page, 38) == expected(docs[37])
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    at(page, 36)
    assert shown(page, 36) == expected(docs[35])
    page.locator("[data-step=first]").click()
    at(page, 1)
    assert shown(page, 1) == expected(docs[0])
    page.locator("[data-step=next]").click()
    at(page, 2)
    assert shown(page, 2) == expected(docs[1])
    page.locator("[data-slider]").fill("64")  # the slider
    at(page, 64)
    assert shown(page, 64) == expected(docs[63])
    page.locator("[data-step=prev]").click()
    at(page, 63)
    assert shown(page, 63) == expected(docs[62])
    page.keyboard.press("End")
    at(page, last)
    assert shown(page, last) == expected(docs[-1])
    page.keyboard.press("Home")
    at(page, 1)
    page.locator("[data-step=last]").click()
    at(page, last)
    page.goto(f"/audit/match/{long_match.match_id}#v=100")
    at(page, 100)
    assert shown(page, 100) == expected(docs[99])


def test_each_step_says_the_event_the_rule_the_recorder_the_device_and_when(
    page, session, long_match: Recorded
) -> None:
    v = long_match.remark_version + 1  # the RemarkGiven after the judge's remark entry
    page.goto(f"/audit/match/{long_match.match_id}#v={v}")
    at(page, v)
    details = {
        k: page.locator(f"[data-d={k}]").inner_text()
        for k in ("words", "rule", "recorder", "device", "server_time")
    }
    # the stored type is kept on the words (a tooltip), never in the prose (issue 14 point 5)
    assert page.locator("[data-d=words] [data-type]").get_attribute("data-type") == "RemarkGiven"
    assert not re.search(r"[0-9a-f]{8}-[0-9a-f]{4}", details["device"])  # "Device 2", no UUID
    assert details["words"].startswith("remark 1 of 3 to ")
    assert details["rule"].startswith("EKML §26")
    assert details["recorder"] == "Table 31 judge · table judge"  # words, not stored names
    assert "20" in details["server_time"]  # a date, with the ISO time beside it


def test_corrections_link_to_what_they_correct(page, session, jury, long_match) -> None:
    record = jury.get(f"/api/matches/{long_match.match_id}/record").json()
    correction = next(i for i in record if i["type"] == "CorrectionRecorded")
    target = correction["event"]["corrects_version"]
    page.goto(f"/audit/match/{long_match.match_id}#v={correction['version']}")
    at(page, correction["version"])
    page.locator(f"[data-d=correction] [data-goto='{target}']").click()
    at(page, target)
    back = page.locator(f"[data-d=correction] [data-goto='{correction['version']}']")
    assert "corrected by event" in back.inner_text()
    page.locator("[data-filter]").select_option("corrections")
    versions = page.eval_on_selector_all(
        "[data-timeline] li", "(l) => l.map((x) => x.dataset.version)"
    )
    assert str(target) in versions and str(correction["version"]) in versions


def test_two_points_side_by_side(page, session, jury, long_match) -> None:
    docs = folded(jury, long_match.match_id)
    page.goto(f"/audit/match/{long_match.match_id}#v=40")
    at(page, 40)
    page.locator("details.compare summary").click()
    page.locator("[data-compare-here]").click()
    page.locator("details.compare input").nth(1).fill("55")
    page.locator("details.compare input").nth(1).dispatch_event("change")
    page.wait_for_selector("[data-point='40'] table.state")
    page.wait_for_selector("[data-point='55'] table.state")
    left = page.locator("[data-point='40'] td[data-field=on_board][data-side='0']").inner_text()
    right = page.locator("[data-point='55'] td[data-field=on_board][data-side='0']").inner_text()
    assert [left, right] == [
        str(docs[39]["game"]["pucks"][0]["on_board"]),
        str(docs[54]["game"]["pucks"][0]["on_board"]),
    ]
    differs = page.locator("[data-point='55'] td.differs").count()
    cells = lambda doc: [v for values in expected(doc).values() for v in values]  # noqa: E731
    assert differs == sum(a != b for a, b in zip(cells(docs[39]), cells(docs[54]), strict=True))
    assert_no_horizontal_overflow(page)
    screenshot(page, "audit-compare-360x640")


def test_login_is_asked_and_a_wrong_password_is_said(page, jury, long_match) -> None:
    page.goto(f"/audit/match/{long_match.match_id}")
    page.wait_for_selector("[data-login]")
    page.fill("input[name=username]", "jury")
    page.fill("input[name=password]", "wrong")
    page.locator("[data-login] button[type=submit]").click()
    page.wait_for_selector("[data-login] .problem:not([hidden])")
    page.fill("input[name=password]", "jury-secret-1")
    page.locator("[data-login] button[type=submit]").click()
    at(page, 1)


def tamper(database_url: str, match_id: str, version: int) -> None:
    """Change one stored event behind the store's back (triggers off, as a superuser)."""
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("SET session_replication_role = replica")  # no triggers in this session
        state = conn.execute(
            "SELECT state FROM stored_events WHERE originator_id = %s AND originator_version = %s",
            (match_id, version),
        ).fetchone()[0]
        event = json.loads(bytes(state))
        event["facts"]["own_pocketed"] += 1
        conn.execute(
            "UPDATE stored_events SET state = %s WHERE originator_id = %s AND "
            "originator_version = %s",
            (json.dumps(event, separators=(",", ":")).encode(), match_id, version),
        )


def download(page) -> bytes:
    with page.expect_download() as done:
        page.locator("[data-download]").click()
    return open(done.value.path(), "rb").read()


def test_verify_finds_a_tampered_event_and_the_export_proves_it_offline(
    page, session, head_api, pwa_server, jury
) -> None:
    match = record_match(head_api, table=32, seed=12, games=1)
    page.goto(f"/audit/match/{match.match_id}")
    at(page, 1)
    page.locator("[data-verify]").click()
    page.wait_for_selector("[data-verdict=intact]")
    assert (
        page.locator(".verdict").inner_text()
        == f"The record is intact: all {match.view.version} events check out."
    )
    assert page.locator("[data-seal=sealed]").inner_text().startswith("Sealed: the store-wide")
    exported = download(page)
    assert verify_export(exported.splitlines(keepends=True)) == (match.view.version, None)
    at_byte = exported.index(b'"own_pocketed":') + len(b'"own_pocketed":')
    edited = exported[:at_byte] + bytes([exported[at_byte] ^ 1]) + exported[at_byte + 1 :]
    assert verify_export(edited.splitlines(keepends=True))[1] is not None

    record = jury.get(f"/api/matches/{match.match_id}/record").json()
    stroke = next(i["version"] for i in record[len(record) // 2 :] if i["type"] == "StrokeRecorded")
    tamper(pwa_server.database_url, match.match_id, stroke)
    page.locator("[data-verify]").click()
    page.wait_for_selector("[data-verdict=broken]")
    assert page.locator(".verdict").inner_text() == f"The record is broken at event {stroke}."
    page.locator("[data-show-broken]").click()
    at(page, stroke)
    assert_no_horizontal_overflow(page)
    screenshot(page, "audit-broken-360x640")
    events, problem = verify_export(download(page).splitlines(keepends=True))
    assert events == stroke - 1 and f"version {stroke}" in problem


def test_an_unknown_match_says_so(page, session) -> None:
    page.goto("/audit/match/00000000-0000-0000-0000-000000000000")
    page.wait_for_selector("[data-problem='404']")
    assert "There is no match" in page.locator("[data-problem]").inner_text()


@pytest.mark.parametrize(
    "viewport", [{"width": 360, "height": 640}, LARGE], ids=["360x640", "1280x800"]
)
def test_the_replay_fits_phone_and_desk(page, session, long_match, viewport) -> None:
    page.goto(f"/audit/match/{long_match.match_id}#v={long_match.remark_version}")
    at(page, long_match.remark_version)
    page.wait_for_selector(f"[data-state][data-version='{long_match.remark_version}']")
    assert_no_horizontal_overflow(page)
    screenshot(page, f"audit-replay-{viewport['width']}x{viewport['height']}")


def test_from_a_match_id_to_the_penalty_stroke_and_an_intact_record(page, jury, long_match) -> None:
    """The 'done when' walk: a match page → audit → the stroke that earned a penalty → Verify."""
    record = jury.get(f"/api/matches/{long_match.match_id}/record").json()
    penalty = next(i for i in record if i["type"] == "PenaltyAwarded")
    stroke = max(
        i["version"]
        for i in record
        if i["version"] < penalty["version"] and i["type"] == "StrokeRecorded"
    )
    page.goto(f"/?match={long_match.match_id}")
    page.locator("[data-audit]").click()
    page.fill("input[name=username]", "jury")
    page.fill("input[name=password]", "jury-secret-1")
    page.locator("[data-login] button[type=submit]").click()
    at(page, 1)
    page.locator("[data-filter]").select_option("sanctions")
    page.locator(f"[data-timeline] li[data-version='{penalty['version']}']").click()
    at(page, penalty["version"])
    assert page.locator("[data-d=rule]").inner_text().startswith("EKML §24(1)")
    page.locator(f"[data-d=entry] [data-goto='{stroke}']").click()
    at(page, stroke)
    assert page.locator("[data-d=words] [data-type]").get_attribute("data-type") == "StrokeRecorded"
    page.locator("[data-verify]").click()
    page.wait_for_selector("[data-verdict=intact]")
