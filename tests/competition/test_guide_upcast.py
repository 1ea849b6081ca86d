"""Decision 0149: a guide's sport settings are its `settings`; a guide written before kept them
under the sport's name. Stored events are never rewritten, so a CompetitionCreated or
GuideAmended of then is read as today's guide, and a client of then is still understood over
HTTP (creating and amending); a guide holding both is refused, naming the field."""

from __future__ import annotations

import uuid

import msgspec
from support.competition_play import Comp
from support.harness import Api
from tableside.competition.rules.events import CompetitionCreated, GuideAmended
from tableside.competition.rules.guide import Guide, MatchSettings, upcast
from tableside.server.registry import build_registry

OLD = {
    "name": "Reykjavík Open",
    "sport": "backgammon",
    "ruleset": "KSI",
    "discipline": "open_singles",
    "games_per_match": 1,
    "playoff_games": 1,
    "points": {"win": 1, "draw": 0.5, "loss": 0},
    "tie_breaks": ["games_diff"],
    "backgammon": {"lengths": [5, 7], "final_length": 11, "clock": True},
}
SETTINGS = MatchSettings(lengths=(5, 7), final_length=11, clock=True)


def test_a_stored_guide_of_before_is_read_with_its_settings() -> None:
    registry = build_registry()
    for kind, extra in (("CompetitionCreated", {}), ("GuideAmended", {"rule": "EKML §3(5)"})):
        payload = msgspec.json.encode({"type": kind, "guide": OLD, "at": "2026-05-01", **extra})
        event = registry.decode(kind, payload)
        assert isinstance(event, CompetitionCreated | GuideAmended)
        assert event.guide.settings == SETTINGS and event.guide.sport == "backgammon"
        # written again, it is today's shape, and read back the same
        again = registry.decode(*registry.encode(event))
        assert again == event and b'"settings"' in registry.encode(event)[1]


def test_upcast_leaves_todays_guides_and_other_values_alone() -> None:
    today = msgspec.to_builtins(Guide("Cup", sport="backgammon", settings=SETTINGS))
    assert upcast(today) == today
    korona = {"name": "Karikas", "format": "swiss"}
    assert upcast(korona) == korona and upcast(None) is None
    odd = {"name": "X", "sport": "format", "format": "swiss"}  # a field's name is no sport
    assert upcast(odd) == odd


def test_a_client_of_before_creates_and_amends_a_guide(head: Api) -> None:
    comp = Comp.create(head, OLD)
    guide = comp.settled()["guide"]
    assert guide["settings"]["lengths"] == [5, 7] and "backgammon" not in guide
    amended = {**OLD, "backgammon": {"lengths": [9]}}
    comp.do({"type": "AmendGuide", "guide": amended})
    assert comp.settled()["guide"]["settings"]["lengths"] == [9]


def test_a_guide_with_both_is_refused_naming_the_field(head: Api) -> None:
    both = {**OLD, "settings": {"lengths": [5]}}
    body = {"command_id": str(uuid.uuid4()), "guide": both}
    r = head.http.post("/api/competitions", json=body, headers=head.headers())
    assert r.status_code == 422 and "guide.backgammon" in r.text, r.text
