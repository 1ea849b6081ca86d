"""Staff usernames under the names rule of every name (#50): a head judge `exhead` + U+200B
and a Cyrillic `аuditor1` were accepted beside the real ones and read the same in the audit
trail's "Recorded by". Now a username is held to RFC 8266's nickname profile (the invisible
character is refused, naming it) and may not look like another account's (UTS #39 §4)."""

from __future__ import annotations

from support.harness import Api


def _make(head: Api, username: str, role: str = "head_judge"):
    return head.http.post(
        "/api/accounts",
        headers=head.headers(),
        json={"username": username, "role": role, "password": "staff-secret-1"},
    )


def test_rfc_8266_a_staff_username_with_an_invisible_character_is_refused(server, head) -> None:
    assert _make(head, "exhead").status_code == 201
    reply = _make(head, "exhead\u200b")
    assert reply.status_code == 422, reply.text
    body = reply.json()
    assert body["code"] == "name_character" and body["rule"] == "RFC 8266 §2", body
    assert body["character"].startswith("U+200B "), body


def test_uts_39_a_staff_username_that_looks_like_another_accounts_is_refused(server, head) -> None:
    assert _make(head, "auditor1", "auditor").status_code == 201
    reply = _make(head, "\u0430uditor1", "auditor")  # a Cyrillic а
    assert reply.status_code == 422, reply.text
    body = reply.json()
    assert body["code"] == "name_lookalike" and body["rule"] == "UTS #39 §4", body


def test_a_staff_username_is_stored_in_its_folded_form(server, head) -> None:
    reply = _make(head, "\uff45xhead2")  # a fullwidth ｅ: NFKC folds it to "e"
    assert reply.status_code == 201, reply.text
    assert reply.json()["username"] == "exhead2"
    assert _make(head, "exhead2").status_code == 409  # the same name, taken
    assert Api(str(head.http.base_url)).login("exhead2", "staff-secret-1").token
