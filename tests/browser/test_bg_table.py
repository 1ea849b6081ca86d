"""Issue 12, faces: "either player or a monitor records; both players can confirm a game's
result" — in Chromium, on the table's own device.

The table's judge link is open and waiting; the TD creates a backgammon match on that table and
the device moves to the backgammon recorder by itself, with the link's token. The players
record the game there; after it both confirm the score on their sheets (KSI 4.7); the winner
reports (KSI 4.6). The device offers none of what only the TD records, says the TD confirms,
and once the TD has, goes back to the table's judge face by itself and follows the next match.
"""

from __future__ import annotations

import uuid

from .bg_helpers import play, roll, tap
from .harness import axe_violations

TABLE = 41


def _wait_for_match(page, head_api) -> str:
    """The TD creates a 1-point match on the table; the waiting device follows it."""
    body = {"command_id": str(uuid.uuid4()), "player_a": "Ása", "player_b": "Bjarni",
            "length": 1, "table": TABLE}  # fmt: skip
    r = head_api.http.post("/api/backgammon/matches", json=body, headers=head_api.headers())
    assert r.status_code == 201, r.text
    match_id = r.json()["match_id"]
    page.wait_for_url(f"**/backgammon?table={TABLE}&match={match_id}", timeout=15_000)
    page.wait_for_selector("bg-board [data-board]")
    return match_id


def test_the_tables_device_follows_and_records_its_backgammon_match(page, head_api):
    token = head_api.judge_token(TABLE)["token"]
    page.goto(f"/judge?table={TABLE}#token={token}")
    page.wait_for_selector("[data-live-state=live]")
    match_id = _wait_for_match(page, head_api)
    assert "token" not in page.url  # never a token in the address

    # The device's sheet holds what the players may record, not the TD's forms.
    page.click("[data-td] summary")
    forms = page.locator("[data-td-form]").evaluate_all("fs => fs.map(f => f.dataset.tdForm)")
    assert "pause" in forms and "call" in forms and "appeal" in forms, forms
    assert not {"lateness", "ruling", "decide", "monitor", "expel"} & set(forms), forms
    page.click("[data-td] summary")
    tap(page, "[data-action=start-game]")
    page.click("[data-dice-for=A] [data-die='3']")
    tap(page, "[data-dice-for=B] [data-die='1']")
    play(page, 8, 5, 6, 5)
    roll(page, "B", 6, 5)
    play(page, 24, 18, 18, 13)
    tap(page, "[data-action=double]")  # A doubles in a 1-point match …
    tap(page, "[data-action=drop]")  # … B drops: A wins the match 1:0

    # The match is over: the device's sheet offers nothing more (the correction is the TD's).
    page.click("[data-td] summary")
    assert page.locator("[data-td-form]").count() == 0
    page.click("[data-td] summary")

    # KSI 4.7: each player confirms the score on his sheet, once.
    sheets = page.locator("[data-sheets]")
    assert "1:0" in sheets.inner_text()
    tap(page, "[data-confirm-score=B]")
    assert page.locator("[data-sheet-ok=B]").count() == 1
    assert page.locator("[data-confirm-score=B]").count() == 0
    assert axe_violations(page) == []
    tap(page, "[data-confirm-score=A]")
    assert page.locator("[data-sheets]").get_attribute("data-sheets") == "BA"

    # KSI 4.6: the winner reports here; the TD confirms at the desk, not on this device.
    tap(page, "[data-action=report-result]")
    page.wait_for_selector("[data-result=reported]")
    assert page.locator("[data-action=confirm-result]").count() == 0
    record = head_api.get(f"/api/matches/{match_id}/record").json()
    roles = {e["type"]: e["role"] for e in record}
    assert roles["BgScoreConfirmed"] == "table_judge" and roles["BgResultReported"] == "table_judge"
    assert roles["BgMatchCreated"] == "head_judge"
    confirm = {"command_id": str(uuid.uuid4()), "expected_version": record[-1]["version"],
               "command": {"type": "ConfirmResult"}}  # fmt: skip
    url = f"/api/backgammon/matches/{match_id}/commands"
    assert head_api.http.post(url, json=confirm, headers=head_api.headers()).status_code == 201
    page.wait_for_selector("[data-result=confirmed]", timeout=10_000)  # read from the feed
    assert page.locator("[data-leaving]").is_visible()
    # By itself, the device goes back to its table's face, where the next call finds it.
    page.wait_for_url(f"**/judge?table={TABLE}", timeout=15_000)
    page.wait_for_selector("[data-live-state=live]")
    _wait_for_match(page, head_api)  # the table's next backgammon match: followed again


def test_a_device_with_no_match_on_its_table_says_so(page, head_api):
    token = head_api.judge_token(TABLE + 1)["token"]
    page.goto(f"/judge?table={TABLE + 1}#token={token}")  # remembers the link's token
    page.wait_for_selector("[data-live-state=live]")
    page.goto(f"/backgammon?table={TABLE + 1}")
    page.wait_for_selector("[data-no-table-match]")
    assert f"{TABLE + 1}" in page.locator("[data-no-table-match] p").inner_text()
    assert page.locator("[data-login]").count() == 0
