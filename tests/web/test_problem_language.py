"""Problem details in the reader's language (issue 43 points 2-3, decision 0130): `?lang=`
first, then Accept-Language, else English as raised; a refusal of the competition, the API
and msgspec's validation each worded from the faces' catalogue, its code in the body."""

from __future__ import annotations

import json
import uuid

import pytest
from support.competition_play import Comp
from support.harness import Api
from support.words import raw_codes
from tableside.settings import PWA_DIR

GUIDE = {"name": "Keelekarikas", "format": "swiss", "rounds": 3, "games_per_match": 1}


def _words(name: str, lang: str) -> dict[str, str]:
    stem = f"{name}." if name else ""
    return json.loads((PWA_DIR / "i18n" / f"{stem}{lang}.json").read_text("utf-8"))


def _login(api: Api, query: str = "", **headers: str):
    body = {"username": "head", "password": "not the password"}
    return api.http.post(f"/api/login{query}", json=body, headers=headers)


def test_lang_in_the_address_wins_over_accept_language(server) -> None:
    api = Api(server.base)
    said = _login(api, "?lang=lv", **{"Accept-Language": "et"}).json()
    assert said["title"] == _words("codes", "lv")["code.wrong_login"]
    assert said["code"] == "wrong_login"
    said = _login(api, **{"Accept-Language": "et-EE,et;q=0.9"}).json()
    assert said["title"] == _words("codes", "et")["code.wrong_login"]
    said = _login(api, "?lang=xx").json()  # a language no face speaks: English as raised
    assert said["title"] == "Wrong username or password"


@pytest.mark.parametrize("lang", ["et", "lv", "is"])
def test_a_competition_refusal_reads_in_the_readers_language(head: Api, lang: str) -> None:
    comp = Comp.create(head, GUIDE)
    body = {
        "command_id": str(uuid.uuid4()),
        "expected_version": comp.version,
        "command": {"type": "MakeDraw", "seed": 1, "at": ""},
    }
    url = f"/api/competitions/{comp.id}/commands?lang={lang}"
    r = head.http.post(url, json=body, headers=head.headers())
    assert r.status_code == 422, r.text
    said = r.json()
    assert (said["code"], said["rule"]) == ("too_few_checked_in", "EKML §9(3)")
    assert said["title"] == _words("", lang)["error.rule_violation"]
    assert said["detail"] == _words("codes", lang)["code.too_few_checked_in"]
    assert not raw_codes(f"{said['title']} {said['detail']}", lang)


@pytest.mark.parametrize("lang", ["et", "lv", "is"])
def test_msgspecs_validation_is_worded_not_passed_on(head: Api, lang: str) -> None:
    body = {"command_id": str(uuid.uuid4()), "guide": {**GUIDE, "rounds": "three"}}
    headers = head.headers() | {"Accept-Language": lang}
    r = head.http.post("/api/competitions", json=body, headers=headers)
    assert r.status_code in (400, 422), r.text
    said = r.json()
    assert said["title"] == _words("", lang)["error.title.invalid_request"]
    assert said["field"] and said["field"] in said["detail"]
    assert said["params"] == {"field": said["field"]}  # for a face to word it alike
    assert said["errors"][0]["message"]  # msgspec's own words stay, for a developer
    assert not raw_codes(f"{said['title']} {said['detail'].replace(said['field'], '')}", lang)


def test_a_version_conflict_names_the_version_in_words(head: Api) -> None:
    comp = Comp.create(head, GUIDE)
    body = {
        "command_id": str(uuid.uuid4()),
        "expected_version": comp.version + 5,
        "command": {"type": "MakeDraw", "seed": 1, "at": ""},
    }
    url = f"/api/competitions/{comp.id}/commands?lang=lv"
    said = head.http.post(url, json=body, headers=head.headers()).json()
    assert said["status"] == 409 and said["code"] == "stale_version"
    assert str(said["current_version"]) in said["detail"]
    assert said["title"] == _words("", "lv")["error.title.stale_version"]
