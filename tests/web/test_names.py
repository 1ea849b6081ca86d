"""Names that are what they look like (issue 46): none of the 15 invisible or format characters
the hall network tried is stored by a walk-up match, a competition's entrant or a backgammon
match, and a look-alike "Mari Tamm" is refused within one competition (RFC 8266 §2, UTS #39 §4)."""

from __future__ import annotations

import uuid

import psycopg
import pytest
from support.competition_play import Comp, player
from tableside.names import person_name, skeleton

# Stored as given on main: invisible, format, filler and blank characters.
INVISIBLE = [
    "\u200b",
    "\ufeff",
    "\u00ad",
    "\u200c",
    "\u200d",
    "\u2060",
    "\u034f",
    "\u180e",
    "\u3164",
    "\u115f",
    "\ufe0f",
    "\U000e0041",
    "\u00a0",
    "\u2800",
    "\U0001d173",
]
LOOKALIKES = ["M\u0430ri Tamm", "Mari \u0422\u0430mm"]  # a Cyrillic а; a Cyrillic Т and а


def _refused_or_clean(reply, char: str, field: str) -> None:
    """422 naming the character and the rule, or (a no-break space) stored as a plain space."""
    if reply.status_code == 422:
        body = reply.json()
        assert body["code"] == "name_character" and body["rule"] == "RFC 8266 §2", body
        assert body["character"].startswith(f"U+{ord(char):04X} "), body
        assert body["field"].startswith(field), body
    else:
        assert reply.status_code == 201, reply.text
        assert char not in reply.text


@pytest.mark.parametrize("char", INVISIBLE, ids=lambda c: f"U+{ord(c):04X}")
def test_rfc_8266_walk_up_match_names(head, char) -> None:
    reply = head.create(100 + INVISIBLE.index(char), [f"Mari{char}Tamm"], ["Jaan Kask"])
    _refused_or_clean(reply, char, "side_a")


@pytest.mark.parametrize("char", INVISIBLE, ids=lambda c: f"U+{ord(c):04X}")
def test_rfc_8266_backgammon_player_names(head, char) -> None:
    body = {
        "command_id": str(uuid.uuid4()),
        "player_a": "Ása",
        "player_b": f"Bja{char}rni",
        "length": 3,
    }
    reply = head.http.post("/api/backgammon/matches", json=body, headers=head.headers())
    _refused_or_clean(reply, char, "player_b")


@pytest.fixture(scope="module")
def cup(head) -> Comp:
    comp = Comp.create(head, {"name": "Names cup", "format": "round_robin", "games_per_match": 1})
    comp.do({"type": "RegisterEntrant", "entrant_id": "mari", "name": "Mari Tamm",
             "members": [player("Mari Tamm")]})  # fmt: skip
    return comp


@pytest.mark.parametrize("char", INVISIBLE, ids=lambda c: f"U+{ord(c):04X}")
def test_rfc_8266_competition_entrant_names(cup, char) -> None:
    name = f"Jaan{char}Kask"
    command = {"type": "RegisterEntrant", "entrant_id": f"e{ord(char)}", "name": name,
               "members": [player(name)]}  # fmt: skip
    _refused_or_clean(cup.post(command), char, "name")


def test_rfc_8266_an_entrant_named_only_a_zero_width_space_is_refused(cup) -> None:
    command = {"type": "RegisterEntrant", "entrant_id": "ghost", "name": "\u200b",
               "members": [player("\u200b")]}  # fmt: skip
    reply = cup.post(command)
    assert reply.status_code == 422 and reply.json()["code"] == "name_character", reply.text


@pytest.mark.parametrize("name", LOOKALIKES)
def test_uts_39_a_lookalike_entrant_is_refused_within_one_competition(cup, name) -> None:
    command = {"type": "RegisterEntrant", "entrant_id": f"x{len(name)}{name[1]}", "name": name,
               "members": [player(name)]}  # fmt: skip
    reply = cup.post(command)
    assert reply.status_code == 422, reply.text
    body = reply.json()
    assert body["code"] == "name_lookalike" and body["rule"] == "UTS #39 §4", body
    assert body["other"] == "Mari Tamm" and body["name"] == name


def test_uts_39_the_same_name_in_another_competition_is_not_a_lookalike(head) -> None:
    other = Comp.create(head, {"name": "Other cup", "format": "round_robin", "games_per_match": 1})
    other.do({"type": "RegisterEntrant", "entrant_id": "m", "name": LOOKALIKES[0],
              "members": [player(LOOKALIKES[0])]})  # fmt: skip


def test_uts_39_lookalike_players_of_one_walk_up_are_refused(head) -> None:
    reply = head.create(42, ["Mari Tamm"], [LOOKALIKES[0]])
    assert reply.status_code == 422 and reply.json()["code"] == "name_lookalike", reply.text


def test_none_of_the_characters_is_stored(module_database_url, cup) -> None:
    """Whatever the tests above sent, no stored event holds one of the characters."""
    with psycopg.connect(module_database_url) as conn:
        states = [bytes(r[0]).decode() for r in conn.execute("SELECT state FROM stored_events")]
    assert states
    found = {f"U+{ord(c):04X}" for c in INVISIBLE for s in states if c in s}
    assert not found, found


def test_names_are_normalised_and_lookalikes_share_a_skeleton() -> None:
    assert person_name("  Mari \u00a0  Tamm ", "name") == "Mari Tamm"
    assert person_name("\uff2d\uff41\uff52\uff49", "name") == "Mari"  # full-width: NFKC
    assert person_name("O\u0301lafur", "name") == "\u00d3lafur"  # composed (NFC)
    assert len({skeleton(n) for n in ["Mari Tamm", *LOOKALIKES, "Mari Tarnm"]}) == 1
    assert skeleton("Jānis") != skeleton("Janis") and skeleton("Mari") != skeleton("Maria")
