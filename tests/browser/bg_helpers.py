"""Helpers for the backgammon face tests: a match recorded over HTTP by the head judge."""

from __future__ import annotations

import uuid

from service.harness import Api


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
