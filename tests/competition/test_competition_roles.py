"""The admin flows over the API with the right roles: anonymous 401, table judge and
secretary 403 where the head judge decides, problem details throughout; versions, retries,
rule errors, corrections reaching the standings, pairings imported, results exported."""

from __future__ import annotations

import uuid

import pytest
from support.competition_play import Comp, player
from support.harness import Api, wait_for

GUIDE = {"name": "Desk cup", "format": "swiss", "rounds": 3, "games_per_match": 1}
PROBLEM = "application/problem+json"


@pytest.fixture(scope="module")
def secretary(server, head) -> Api:
    r = head.http.post(
        "/api/accounts",
        headers=head.headers(),
        json={"username": "sec", "role": "secretary", "password": "sec-secret-1"},
    )
    assert r.status_code == 201, r.text
    return Api(server.base).login("sec", "sec-secret-1")


@pytest.fixture(scope="module")
def comp(head, secretary) -> Comp:
    comp = Comp.create(head, GUIDE)
    comp.api = secretary  # the secretary takes the entries
    comp.enter([(f"e{i}", [player(f"Player {i}")]) for i in range(1, 5)])
    comp.api = head
    return comp


def problem(r, status: int) -> dict:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith(PROBLEM)
    return r.json()


def test_anonymous_cannot_create_or_command(server, comp):
    anon = Api(server.base)
    r = anon.http.post("/api/competitions", json={"command_id": str(uuid.uuid4()), "guide": GUIDE})
    problem(r, 401)
    problem(comp.post({"type": "MakeDraw", "seed": 1}, api=anon), 401)


def test_secretary_cannot_create_or_draw(secretary, comp):
    r = secretary.http.post(
        "/api/competitions",
        headers=secretary.headers(),
        json={"command_id": str(uuid.uuid4()), "guide": GUIDE},
    )
    problem(r, 403)
    problem(comp.post({"type": "MakeDraw", "seed": 1}, api=secretary), 403)


def test_table_judge_cannot_post_to_a_competition(server, head, comp):
    judge = Api(server.base, head.judge_token(1)["token"])
    problem(comp.post({"type": "CheckInEntrant", "entrant_id": "e1"}, api=judge), 403)
    problem(
        judge.http.post(
            "/api/competitions",
            headers=judge.headers(),
            json={"command_id": str(uuid.uuid4()), "guide": GUIDE},
        ),
        403,
    )


def test_rule_error_is_422_citing_the_paragraph(comp):
    body = problem(comp.post({"type": "CheckInEntrant", "entrant_id": "nobody"}), 422)
    assert body["rule"]


def test_stale_version_is_409_with_the_current_one(comp):
    stale = Comp(comp.api, comp.id, 1)
    body = problem(stale.post({"type": "ApproveEntrant", "entrant_id": "e1"}), 409)
    assert body["current_version"] == comp.version


def test_retry_gets_the_same_answer(comp, head):
    body = {
        "command_id": str(uuid.uuid4()),
        "expected_version": comp.version,
        "command": {"type": "MakeDraw", "seed": 3, "at": ""},
    }
    first = head.http.post(
        f"/api/competitions/{comp.id}/commands", json=body, headers=head.headers()
    )
    again = head.http.post(
        f"/api/competitions/{comp.id}/commands", json=body, headers=head.headers()
    )
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    comp.version = first.json()["last_version"]


def test_unknown_competition_is_404(head):
    r = head.http.post(
        f"/api/competitions/{uuid.uuid4()}/commands",
        headers=head.headers(),
        json={
            "command_id": str(uuid.uuid4()),
            "expected_version": 1,
            "command": {"type": "MakeDraw", "seed": 1, "at": ""},
        },
    )
    problem(r, 404)
    problem(head.get(f"/api/competitions/{uuid.uuid4()}"), 404)


def test_secretary_calls_matches_and_the_table_judge_records(server, head, secretary, comp):
    comp.api = secretary
    comp.do({"type": "CallNextMatches", "free_tables": [3, 4]})
    comp.api = head
    calls = comp.settled()["calls"]
    assert sorted(c["table"] for c in calls) == [3, 4]
    stream = uuid.uuid5(uuid.UUID(comp.id), calls[0]["match_id"])
    doc = wait_for(
        lambda: (
            head.get(f"/api/matches/{stream}").json()
            if head.get(f"/api/matches/{stream}").status_code == 200
            else None
        )
    )
    assert doc["table"] == calls[0]["table"] and doc["competition_id"] == comp.id
    judge = Api(server.base, head.judge_token(calls[0]["table"])["token"])
    r = judge.command(
        stream, doc["version"], {"type": "AssignOpeningShot", "method": "lot", "lot_winner": "A"}
    )
    assert r.status_code == 201, r.text


def test_no_show_waits_two_minutes_and_only_the_head_judge_confirms(secretary, comp):
    call = comp.settled()["calls"][1]
    report = {"type": "ReportNoShow", "match_id": call["match_id"], "absent": call["b"]}
    assert problem(comp.post(report, api=secretary), 422)["rule"] == "EKML §9(3)"
    confirm = {"type": "ConfirmForfeit", "match_id": call["match_id"]}
    problem(comp.post(confirm, api=secretary), 403)
    assert problem(comp.post(confirm), 422)["rule"]


def test_only_the_head_judge_records_and_corrects(secretary, comp):
    match_id = comp.settled()["calls"][0]["match_id"]
    result = {"a_games": 1, "b_games": 0, "a_pucks_diff": 3}
    record = {"type": "RecordResult", "match_id": match_id, "result": result}
    problem(comp.post(record, api=secretary), 403)
    comp.do(record)
    fix = {
        "type": "CorrectResult",
        "match_id": match_id,
        "reason": "wrong side",
        "result": {"a_games": 0, "b_games": 1, "a_pucks_diff": -3},
    }
    problem(comp.post(fix, api=secretary), 403)
    comp.do(fix)
    b = comp.settled()["results"][match_id]["b"]
    rows = comp.doc("/standings")["rows"]
    assert rows[0]["entrant"] == b and rows[0]["points"] == 2


def test_protest_filed_by_secretary_decided_by_head_judge(secretary, comp):
    match_id, result = next(iter(comp.settled()["results"].items()))
    protest = {
        "type": "FileProtest",
        "protest_id": "pr1",
        "match_id": match_id,
        "by": result["a"],
        "rule_cited": "EKML §25(1)",
        "text": "striker over",
        "appealed_at_once": True,
    }
    assert comp.post(protest, api=secretary).status_code == 201
    decide = {"type": "DecideProtest", "protest_id": "pr1", "upheld": False, "note": "seen"}
    problem(comp.post(decide, api=secretary), 403)
    comp.do(decide)
    assert comp.settled()["protests"][0]["decided"] is True


def test_public_reads_and_results_csv(server, comp):
    anon = Api(server.base)
    for path in ("", "/standings", "/bracket", "/rounds", "/entrants"):
        assert anon.get(f"/api/competitions/{comp.id}{path}").status_code == 200
    assert any(c["competition_id"] == comp.id for c in anon.get("/api/competitions").json())
    csv = anon.get(f"/api/competitions/{comp.id}/results.csv")
    # Headed in the event's language (an EKML guide: Estonian), the 1/2/3 code kept.
    assert csv.status_code == 200 and csv.text.startswith("Voor,Laud,Nimi A,Nimi B")
    assert csv.text.strip().splitlines()[1].split(",")[6:8] == ["2", "mängitud"]


def test_head_judge_imports_a_round_from_csv(head, secretary):
    comp = Comp.create(head, {**GUIDE, "name": "Imported"})
    comp.enter([(f"i{i}", [player(f"Imported {i}")]) for i in range(1, 5)])
    data = "Galds;Vārds, uzvārds;Vārds, uzvārds\n1;Imported 1;Imported 4\n2;Imported 2;Imported 3\n"
    url = f"/api/competitions/{comp.id}/rounds/import"

    def post(api: Api, body: str):
        params = {"expected_version": comp.version, "command_id": str(uuid.uuid4())}
        return api.http.post(url, params=params, content=body.encode(), headers=api.headers())

    problem(post(secretary, data), 403)
    problem(post(head, "nothing;here\n1;2\n"), 422)
    r = post(head, data)
    assert r.status_code == 201, r.text
    comp.version = r.json()["last_version"]
    rounds = comp.settled()["rounds"]
    assert [(p["a"], p["b"], p["table"]) for p in rounds[0]["pairings"]] == [
        ("i1", "i4", 1),
        ("i2", "i3", 2),
    ]
