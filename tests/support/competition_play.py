"""Run a competition through the API: commands at the right version, and every called match
played by its table's judge with simulated strokes (results then flow from the match streams)."""

from __future__ import annotations

import random
import uuid
from concurrent.futures import ThreadPoolExecutor

from tableside.eventlog import EventStore
from tableside.plugins.korona.folding import Record, fold_records
from tableside.server.registry import build_registry

from support.harness import Api, wait_for
from support.play import play

REGISTRY = build_registry()


class Comp:
    """One competition driven by one staff member's Api."""

    def __init__(self, api: Api, comp_id: str, version: int = 1) -> None:
        self.api, self.id, self.version = api, comp_id, version

    @classmethod
    def create(cls, api: Api, guide: dict) -> Comp:
        r = api.http.post(
            "/api/competitions",
            headers=api.headers(),
            json={"command_id": str(uuid.uuid4()), "guide": guide},
        )
        assert r.status_code == 201, r.text
        return cls(api, r.json()["competition_id"], r.json()["last_version"])

    def post(self, command: dict, api: Api | None = None):
        """Post at the version last seen (refreshed from the read model on a 409)."""
        api = api or self.api
        body = {
            "command_id": str(uuid.uuid4()),
            "expected_version": self.version,
            "command": {"at": "", **command},
        }
        r = api.http.post(f"/api/competitions/{self.id}/commands", json=body, headers=api.headers())
        if r.status_code == 201:
            self.version = r.json()["last_version"]
        return r

    def do(self, command: dict) -> dict:
        """Post and require success; retry once on a stale version (results flow in)."""
        for _ in range(20):
            r = self.post(command)
            if r.status_code != 409:
                break
            self.version = r.json()["current_version"]
        assert r.status_code == 201, r.text
        return r.json()

    def doc(self, path: str = "") -> dict:
        r = self.api.get(f"/api/competitions/{self.id}{path}")
        assert r.status_code == 200, r.text
        return r.json()

    def settled(self) -> dict:
        """The document once the read model has caught up with the stream (nothing pending)."""
        return wait_for(lambda: _if_current(self), timeout=15)

    def enter(self, people: list[tuple[str, list[dict]]]) -> None:
        for entrant_id, members in people:
            name = " / ".join(m["name"] for m in members)
            self.do(
                {
                    "type": "RegisterEntrant",
                    "entrant_id": entrant_id,
                    "name": name,
                    "members": members,
                }
            )
            self.do({"type": "ApproveEntrant", "entrant_id": entrant_id})
            self.do({"type": "CheckInEntrant", "entrant_id": entrant_id})


def _if_current(comp: Comp) -> dict | None:
    r = comp.api.get(f"/api/competitions/{comp.id}")
    if r.status_code == 404:  # created, not yet in the read model (under load it can lag)
        return None
    assert r.status_code == 200, r.text
    doc = r.json()
    comp.version = max(comp.version, doc["version"])
    return doc if doc["version"] == comp.version else None


def player(name: str, sex: str = "M") -> dict:
    return {"name": name, "birth_year": 1980, "sex": sex}


class Tables:
    """Judges of the venue's tables, playing whatever match each table has been given."""

    def __init__(self, server, head: Api, database_url: str, seed: int) -> None:
        self.server, self.head = server, head
        self.store = EventStore.connect(REGISTRY, database_url, 4)
        self.tokens: dict[int, str] = {}
        self.rng = random.Random(seed)

    def judge(self, table: int) -> Api:
        """A fresh client per match (no idle keep-alive connection raced by the server)."""
        if table not in self.tokens:
            self.tokens[table] = self.head.judge_token(table)["token"]
        return Api(self.server.base, self.tokens[table])

    def play_calls(self, comp: Comp) -> int:
        """Play every match the competition has on a table now (in parallel); how many."""
        calls = comp.settled()["calls"]
        for call in calls:  # tokens first, from this thread (the head's client is not shared)
            self.tokens.setdefault(call["table"], self.head.judge_token(call["table"])["token"])
        seeds = {c["match_id"]: self.rng.random() for c in calls}
        jobs = [(c, seeds[c["match_id"]]) for c in calls]
        with ThreadPoolExecutor(8) as pool:
            list(pool.map(lambda job: self._play(comp, *job), jobs))
        return len(calls)

    def _play(self, comp: Comp, call: dict, seed: float) -> None:
        stream = uuid.uuid5(uuid.UUID(comp.id), call["match_id"])
        view = wait_for(lambda: self._view(stream), timeout=10)
        judge, head = self.judge(call["table"]), Api(self.server.base, self.head.token)
        try:
            play(head, judge, str(stream), view, random.Random(seed))
        finally:
            judge.http.close()
            head.http.close()

    def _view(self, stream: uuid.UUID):
        stored = self.store.read(stream)
        return (
            fold_records(
                [
                    Record(s.stream_id, s.version, s.position, s.type, s.event, s.recorded_at)
                    for s in stored
                ]
            )
            if stored
            else None
        )

    def close(self) -> None:
        self.store.close()


def wait_results(comp: Comp, count: int) -> dict:
    """The document once `count` results are in (they flow in from the match streams)."""

    def enough():
        doc = comp.settled()
        return doc if len(doc["results"]) >= count else None

    return wait_for(enough, timeout=30)


def pairs(count: int, prefix: str = "p") -> list[tuple[str, list[dict]]]:
    """`count` mixed pairs with names of a real hall's length ("Jaan Tamm7 / Mari Kask7")."""
    return [
        (f"{prefix}{i:02d}", [player(f"Jaan Tamm{i}"), player(f"Mari Kask{i}", "F")])
        for i in range(1, count + 1)
    ]


def publish_by_results(comp: Comp, seed: int, games: int = 1) -> dict:
    """Every match recorded as it comes up (a random winner, `games` games to nil, as a
    table reports it), then "Finish and publish"; the published document."""
    rng = random.Random(seed)
    while waiting := comp.settled()["waiting"]:
        for match in waiting:
            won = (games, 0) if rng.random() < 0.5 else (0, games)
            result = {"a_games": won[0], "b_games": won[1]}
            comp.do({"type": "RecordResult", "match_id": match["match_id"], "result": result})
    comp.do({"type": "FinishCompetition"})
    return wait_for(lambda: (doc := comp.settled())["finished"] and doc, timeout=15)


# a backgammon guide whose entrants are people known to the event (a jury is chosen from them)
EVENT_GUIDE = {
    "name": "Íslandsmótið í kotru",
    "sport": "backgammon",
    "ruleset": "KSI",
    "discipline": "open_singles",
    "format": "single_elimination",
    "games_per_match": 1,
    "playoff_games": 1,
    "points": {"win": 1, "draw": 0.5, "loss": 0},
    "tie_breaks": ["games_diff"],
    "backgammon": {"lengths": [5]},
}


def event_people(api: Api, names: tuple[str, ...] | list[str]) -> Comp:
    """A backgammon competition with these entrants checked in: people known to the event."""
    comp = Comp.create(api, EVENT_GUIDE)
    comp.enter([(f"p{i}", [player(name)]) for i, name in enumerate(names)])
    comp.settled()  # the event's people are read from the competition's read model
    return comp


def published_round_robin(api: Api, name: str, names: list[str]) -> Comp:
    """A round robin of one entrant per name (`e1`…), every match won by its first side,
    finished and published (issue 54's corrections start from one)."""
    comp = Comp.create(api, {"name": name, "format": "round_robin", "games_per_match": 1})
    comp.enter([(f"e{i}", [player(n)]) for i, n in enumerate(names, 1)])
    comp.do({"type": "MakeDraw", "seed": 4})
    for rnd in comp.settled()["rounds"]:
        for p in rnd["pairings"]:
            result = {"a_games": 1, "b_games": 0, "a_pucks_diff": 2}
            comp.do({"type": "RecordResult", "match_id": p["match_id"], "result": result})
    comp.do({"type": "FinishCompetition"})
    comp.settled()
    return comp
