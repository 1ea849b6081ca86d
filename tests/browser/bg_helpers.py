"""Helpers for the backgammon face tests: a match recorded over HTTP by the head judge, and taps
on the recorder face that wait until the face shows what they stored."""

from __future__ import annotations

import uuid

from support.harness import ADMIN, Api


class BgMatch:
    """A backgammon match created over HTTP; `post` sends engine commands at the known version."""

    def __init__(self, api: Api, length: int = 5, clock: bool = False, players=("Ása", "Bjarni")):
        self.api = api
        body = {
            "command_id": str(uuid.uuid4()),
            "player_a": players[0],
            "player_b": players[1],
            "length": length,
            "clock": clock,
        }
        r = api.http.post("/api/backgammon/matches", json=body, headers=api.headers())
        assert r.status_code == 201, r.text
        self.id = r.json()["match_id"]
        self.version = r.json()["last_version"]

    def post(self, *commands: dict) -> None:
        for command in commands:
            body = {
                "command_id": str(uuid.uuid4()),
                "expected_version": self.version,
                "command": command,
            }
            url = f"/api/backgammon/matches/{self.id}/commands"
            r = self.api.http.post(url, json=body, headers=self.api.headers())
            assert r.status_code == 201, (command, r.text)
            self.version = r.json()["last_version"]

    def state(self) -> dict:
        r = self.api.get(f"/api/backgammon/matches/{self.id}")
        assert r.status_code == 200, r.text
        return r.json()

    def events(self) -> list[dict]:
        r = self.api.get(f"/api/matches/{self.id}/record")
        assert r.status_code == 200, r.text
        return r.json()


VERSION = "() => Number(document.getElementById('face').dataset.version || 0)"
IDLE = """(v) => { const f = document.getElementById('face');
  return Number(f.dataset.version) > v && f.dataset.working === '0'; }"""


def open_recorder(page, match: BgMatch) -> None:
    """Sign in on the recorder face as the head judge and wait for the board."""
    page.goto(f"/backgammon?match={match.id}")
    page.wait_for_selector("[data-login]")
    page.fill("#bg-user", ADMIN[0])
    page.fill("#bg-pass", ADMIN[1])
    page.click("[data-login] button[type=submit]")
    page.wait_for_selector("bg-board [data-board]")


def tap(page, selector: str) -> None:
    """Tap something that stores a command; wait until the face shows the new fold."""
    before = page.evaluate(VERSION)
    page.click(selector)
    page.wait_for_function(IDLE, arg=before)


def play(page, *steps: int) -> None:
    """Tap checker, destination, checker, destination … (own numbering), then send the play."""
    for point in steps:
        page.locator(f"bg-board button[data-own='{point}']").click()
    tap(page, "[data-action=play]")


def roll(page, side: str, a: int, b: int) -> None:
    page.click(f"[data-dice-for={side}] [data-die='{a}']")
    tap(page, f"[data-dice-for={side}] [data-die='{b}']")


def fill_td(page, form: str, **values) -> None:
    """Fill a form of the TD's sheet (a select, a checkbox or a text field by its name)."""
    sheet = page.locator(f"[data-td-form={form}]")
    for name, value in values.items():
        control = sheet.locator(f"[name={name}]")
        if control.evaluate("e => e.tagName") == "SELECT":
            control.select_option(str(value))
        elif control.get_attribute("type") == "checkbox":
            control.set_checked(bool(value))
        else:
            control.fill(str(value))


def send_td(page, form: str, **values) -> None:
    """Fill a TD form and send it; wait until the face shows the new fold."""
    fill_td(page, form, **values)
    before = page.evaluate(VERSION)
    page.click(f"[data-td-send={form}]")
    page.wait_for_function(IDLE, arg=before)
