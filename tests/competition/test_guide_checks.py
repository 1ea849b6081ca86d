"""A guide the competition cannot run by is refused when it is set, each refusal citing its own
paragraph (rules/guide_checks.py); a bug in the domain is a logged 500, never a ruling (#29).

Before #29 the service turned any ValueError, ArithmeticError, LookupError or TypeError from
the domain into a 422 citing "EKML §3(4)": a jury would have read a crash as a rule.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import msgspec
import pytest
from support.harness import Api, Server, wait_for
from support.planted_bug import BUG
from tableside.competition import rules
from tableside.competition.rules import commands as cmd
from tableside.competition.rules.errors import CompetitionRuleError
from tableside.competition.rules.guide import (
    AgeClass,
    Guide,
    PointsScale,
    TeamSettings,
    TimeCap,
    Window,
)
from tableside.competition.rules.state import Competition

from .helpers import AT

TESTS = str(Path(__file__).resolve().parents[1])

CASES = [
    ("ekml_3_4_1_a_guide_names_the_competition", {"name": " "}, "EKML §3(4)1"),
    ("ekml_3_4_6_no_rounds", {"rounds": 0}, "EKML §3(4)6"),
    ("ekml_3_4_6_a_match_of_no_games", {"games_per_match": 0}, "EKML §3(4)6"),
    ("ekml_3_4_6_a_play_off_match_of_no_games", {"playoff_games": 0}, "EKML §3(4)6"),
    ("ekml_3_4_6_a_play_off_of_three", {"playoff_size": 3}, "EKML §3(4)6"),
    ("ekml_3_4_6_a_time_cap_of_no_minutes", {"time_cap": TimeCap(0)}, "EKML §3(4)6"),
    ("ekml_32_2_a_loss_above_a_win", {"points": PointsScale(1, 1, 2)}, "EKML §32(2)"),
    ("ekml_32_2_infinite_points", {"points": PointsScale(float("inf"))}, "EKML §32(2)"),
    ("ekml_7_3_born_from_after_born_to", {"age_class": AgeClass("y", 2010, 2000)}, "EKML §7(3)"),
    ("ekml_7_3_no_such_year", {"event_year": 0}, "EKML §7(3)"),
    (
        "ekml_3_4_9_a_window_closing_first",
        {"registration": Window(AT, "2020-01-01")},
        "EKML §3(4)9",
    ),
    ("ekml_3_4_9_a_window_of_words", {"registration": Window("soon", "later")}, "EKML §3(4)9"),
    ("ekml_3_4_11_a_draw_time_of_words", {"draw_at": "after lunch"}, "EKML §3(4)11"),
    ("ekml_29_3_a_team_of_no_boards", {"teams": TeamSettings(boards=0)}, "EKML §29(3)"),
    ("ekml_29_6_negative_substitutes", {"teams": TeamSettings(substitutes=-1)}, "EKML §29(6)"),
]


@pytest.mark.parametrize(("name", "settings", "rule"), CASES, ids=[c[0] for c in CASES])
def test_a_guide_the_competition_cannot_run_by_is_refused_citing_its_paragraph(
    name: str, settings: dict, rule: str
) -> None:
    guide = Guide(**{"name": "Open", **settings})
    with pytest.raises(CompetitionRuleError) as refused:
        rules.decide(Competition(), cmd.CreateCompetition(guide, AT))
    assert refused.value.rule == rule


def test_a_sound_guide_is_taken() -> None:
    guide = Guide("Open", registration=Window("2026-04-01", "2026-04-30T18:00:00+00:00"))
    assert rules.decide(Competition(), cmd.CreateCompetition(guide, AT))


@pytest.fixture(scope="module")
def buggy(module_database_url: str, tmp_path_factory: pytest.TempPathFactory):
    log = tmp_path_factory.mktemp("buggy") / "server.log"
    path = os.pathsep.join([TESTS, *filter(None, [os.environ.get("PYTHONPATH")])])
    server = Server(
        module_database_url,
        env={"PYTHONPATH": path},
        factory="support.planted_bug:from_env",
        output=str(log),
    ).start()
    yield server, log
    server.stop()


def _create(api: Api, name: str, **settings):
    body = {"command_id": str(uuid.uuid4()), "guide": {"name": name, **settings}}
    return api.http.post("/api/competitions", json=body, headers=api.headers())


def test_a_type_error_in_the_domain_is_a_logged_500_not_a_ruling(buggy) -> None:
    server, log = buggy
    head = Api(server.base).login()
    before = log.read_text().splitlines()
    r = _create(head, BUG)
    assert r.status_code == 500, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    body = r.json()
    assert "§" not in r.text and body["title"] == "Internal server error", body

    def logged() -> list[str]:
        return log.read_text().splitlines()[len(before) :]

    # The app logs through a queue (a thread writes the line): wait for it, then the request's
    # second line (its access log at warning level is none) would be there too.
    wait_for(lambda: any("unhandled_error" in line for line in logged()), timeout=30)
    head.get("/health")  # one more request through the same log queue, after the error
    errors = [line for line in logged() if "unhandled_error" in line]
    assert len(errors) == 1, logged()
    assert "TypeError: object of type 'NoneType' has no len()" in errors[0]
    assert not [line for line in logged() if line.startswith("Traceback")], logged()


def test_over_http_a_bad_guide_is_a_422_citing_its_own_paragraph(buggy) -> None:
    server, _ = buggy
    head = Api(server.base).login()
    r = _create(head, "Open", rounds=0)
    assert r.status_code == 422, r.text
    assert "EKML §3(4)6" in r.text
    r = _create(head, "Open", draw_at="after lunch")
    assert r.status_code == 422, r.text
    assert "EKML §3(4)11" in r.text
    assert msgspec.json.decode(_create(head, "Open").content)  # and a sound one is made
