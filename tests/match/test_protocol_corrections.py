"""The protocol PDF's corrections row says what was taken back (issue 54 point 6): it read
"#17 (lauakohtunik): sisestatud ekslikult", where the pad's Undo sheet names the entry. Read
from the PDF the server serves, with pdftotext, in every language the protocol speaks."""

from __future__ import annotations

import subprocess

import pytest
from support.harness import Api, wait_for

from .test_exports import _poppler

# Each language: the stroke taken back, the remark taken back, the reason, in its words.
SAID = {
    "et": ("Mari Tamm lõi auku 2, löögiketas auku", "liigutas löögiketast kiiga",
           "sisestatud ekslikult"),
    "lv": ("Mari Tamm iesita 2, ripa maisiņā", "tiesnesis izsaka piezīmi spēlētājam Jaan Kask",
           "ievadīts kļūdaini"),
    "en": ("Mari Tamm pocketed 2, striker in a pocket", "the judge gives Jaan Kask a remark",
           "entered by mistake"),
    "is": ("Mari Tamm setti 2 í vasa, skotstykkið í vasa", "dómarinn gefur Jaan Kask athugasemd",
           "skráð fyrir mistök"),
}  # fmt: skip


@pytest.fixture(scope="module")
def corrected(head: Api, server) -> str:
    """A match on table 61 with two of the table judge's entries undone: a stroke (2 pocketed,
    the striker in a pocket) and a remark."""
    issued = head.judge_token(61)
    r = head.create(61, ["Mari Tamm"], ["Jaan Kask"])
    assert r.status_code == 201, r.text
    match_id = r.json()["match_id"]
    judge = Api(server.base, issued["token"])
    version = wait_for(lambda: head.get(f"/api/matches/{match_id}").json().get("version"))
    stroke = {"type": "RecordStroke", "player": "Mari Tamm",
              "facts": {"own_pocketed": 2, "striker": "pocket"}}  # fmt: skip
    remark = {"type": "GiveRemark", "player": "Jaan Kask", "reason": "striker_moved_with_cue"}
    undo = {"type": "UndoLastEntry", "reason": "entered_by_mistake"}
    opening = {"type": "AssignOpeningShot", "method": "lot", "lot_winner": "A"}
    for command in (opening, stroke, undo, remark, undo):
        r = judge.command(match_id, version, command)
        assert r.status_code == 201, r.text
        version = r.json()["last_version"]
    return match_id


@pytest.mark.parametrize("lang", sorted(SAID))
def test_the_corrections_row_says_what_was_taken_back(
    corrected: str, server, tmp_path, lang: str
) -> None:
    _poppler()
    r = Api(server.base).get(f"/api/matches/{corrected}/protocol.pdf", lang=lang)
    assert r.status_code == 200, r.text
    pdf = tmp_path / f"protocol-{lang}.pdf"
    pdf.write_bytes(r.content)
    text = subprocess.run(
        ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    flat = " ".join(text.split())  # a row may wrap
    stroke, remark, why = SAID[lang]
    assert f"{stroke} — {why}" in flat, flat
    assert remark in flat, flat
    assert flat.count(why) == 2, flat
