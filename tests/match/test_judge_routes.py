"""The judge's reads: a ruleset's catalogue, and a match's time limits and undo target."""

from __future__ import annotations

import random

from support.harness import Api
from support.play import create


def test_catalogue_lists_what_the_engine_accepts_with_paragraphs(server):
    api = Api(server.base)
    ekml = api.get("/api/rulesets/EKML").json()
    offences = {o["code"]: o for o in ekml["stroke_offences"]}
    assert offences["double_hit"] == {
        "code": "double_hit",
        "consequence": "penalty",
        "rule": "EKML §24(1)9",
    }
    assert {r["code"] for r in ekml["remarks"]} >= {"slow_play", "cleaning_board"}
    assert ekml["cite"]["no_own_pocketed"] == "EKML §25(1)1"
    novus = {o["code"]: o for o in api.get("/api/rulesets/NOVUS08").json()["incidents"]}
    assert novus["striker_at_side_cushion"]["consequence"] == "remark"
    assert api.get("/api/rulesets/NOPE").status_code == 404


def test_the_catalogue_as_a_match_whose_guide_leaves_lvs_silences_plays_it(server):
    """Issue 35: `?fill=none` is LV's own text only; the default is filled, by the guide."""
    api = Api(server.base)
    filled, own = (api.get("/api/rulesets/LV", fill=f).json() for f in ("ekml", "none"))
    assert api.get("/api/rulesets/LV").json() == filled

    def rules(doc):
        return [o["rule"] for o in doc["stroke_offences"] + doc["incidents"]] + [
            *(r["rule"] for r in doc["remarks"]),
            *doc["cite"].values(),
        ]

    assert any("EKML" in r for r in rules(filled))
    assert not [r for r in rules(own) if "EKML" in r]
    assert own["fill_silences"] == "none" and own["incidents"] == []
    assert api.get("/api/rulesets/LV", fill="some").status_code == 400


def test_the_catalogue_honours_the_guides_word_fill_silences(server):
    """Issue 54 point 5: `?fill_silences=none` (the guide's field) was ignored, the filled
    table served. It is the unfilled one: LV's own prohibitions with no sanction (13.2, 13.4,
    13.5), no card, no slow-play remark, no EKML paragraph."""
    api = Api(server.base)
    own = api.get("/api/rulesets/LV", fill_silences="none").json()
    assert own == api.get("/api/rulesets/LV", fill="none").json()
    assert own["fill_silences"] == "none"
    both = api.get("/api/rulesets/LV", fill_silences="ekml", fill="none").json()
    assert both["fill_silences"] == "ekml"
    remarks = {r["code"]: r["rule"] for r in own["remarks"]}
    assert remarks == {
        "cue_beyond_corner": "LV 13.4; LV names no sanction",
        "hands_on_board": "LV 13.5; LV names no sanction",
    }
    offences = {o["code"]: o for o in own["stroke_offences"]}
    assert offences["placing_touched_puck"]["consequence"] == "noted"
    assert "red" not in own["cite"] and "yellow" not in own["cite"]
    bad = api.get("/api/rulesets/LV", fill_silences="some")
    assert bad.status_code == 400 and bad.json().get("code"), bad.text


def test_judge_state_follows_slow_play_and_undo(server, head):
    match_id, view = create(head, 31, random.Random(5))
    judge = Api(server.base, head.judge_token(31)["token"])
    api = Api(server.base)
    first = api.get(f"/api/matches/{match_id}/judge").json()
    assert first["time_limit"] == [False, False] and first["undo"] is None
    r = judge.command(match_id, view.version, {"type": "AssignOpeningShot", "lot_winner": "A"})
    version = r.json()["last_version"]
    player = view.state.side_a[0]
    r = judge.command(
        match_id, version, {"type": "GiveRemark", "player": player, "reason": "slow_play"}
    )
    assert r.status_code == 201, r.text
    state = api.get(f"/api/matches/{match_id}/judge").json()
    assert state["time_limit"] == [True, False]
    assert state["undo"]["type"] == "IncidentReported"
    assert state["undo"]["event"]["code"] == "slow_play"
    r = judge.command(match_id, r.json()["last_version"], {"type": "UndoLastEntry"})
    assert r.status_code == 201, r.text
    after = api.get(f"/api/matches/{match_id}/judge").json()
    assert after["time_limit"] == [False, False]
    assert after["undo"]["type"] == "OpeningShotAssigned"  # undos walk back entry by entry
    assert api.get("/api/matches/00000000-0000-0000-0000-000000000000/judge").status_code == 404
