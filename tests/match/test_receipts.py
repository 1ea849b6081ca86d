"""Signed match receipts (#29 point 2): every game's end and the match's, signed with the
checkpoint key, verifiable with the public key alone, and held against the store by
`tableside audit verify --receipt` (which names what differs after the owner's edit)."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import uuid
from datetime import UTC, datetime
from html import escape
from pathlib import Path

import httpx
import msgspec
import psycopg
import pytest
from support.harness import Api, Server
from support.play import create, play
from tableside.db import roles
from tableside.db.url import with_user
from tableside.disciplines.backgammon.simulate import play_match
from tableside.eventlog import receipts as rc
from tableside.eventlog.checkpoints import load_or_create_key, public_hex
from tableside.eventlog.records import RawRecord
from tableside.match.exports import receipt_qr
from tableside.match.exports.labels import face_words
from tableside.match.receipts import endings
from tableside.server.disciplines import house_disciplines

TABLESIDE = str(Path(sys.executable).with_name("tableside"))
TAMPER = Path(__file__).parents[1] / "eventlog"


def _raw(stream: uuid.UUID, version: int, event: object) -> RawRecord:
    payload = msgspec.json.encode(event)
    digest = version.to_bytes(32, "big")
    return RawRecord(
        stream, version, version, type(event).__name__, payload, datetime.now(UTC),
        uuid.uuid4(), "{}", b"", digest, digest,
    )  # fmt: skip


def test_a_backgammon_match_has_a_receipt_per_game_and_one_for_the_match(
    checkpoint_key: Path,
) -> None:
    stream = uuid.uuid4()
    events = list(play_match(random.Random(3), length=3))
    found = endings([(_raw(stream, v, e), e) for v, e in enumerate(events, 1)], house_disciplines())
    games = sum(type(e).__name__ == "GameEnded" for e in events)
    assert [f.end for f in found] == ["game"] * games + ["match"]
    final = next(e for e in events if type(e).__name__ == "MatchEnded")
    assert found[-1].result == f"a – b {final.score[0]}:{final.score[1]} (3)"  # no language
    key = load_or_create_key(checkpoint_key)
    receipt = rc.issue(key, str(stream), found[-1])
    trusted = bytes.fromhex(public_hex(key))
    assert rc.problem(receipt, trusted) is None
    assert rc.issue(key, str(stream), found[-1]) == receipt  # the same bytes every time
    assert rc.decode(rc.fragment(receipt).encode()) == receipt
    forged = msgspec.structs.replace(receipt, result=receipt.result.replace("a – b", "b – a"))
    assert "does not verify" in rc.problem(forged, trusted)
    assert "not the trusted key" in rc.problem(receipt, bytes(32))


def test_a_korona_match_end_is_receipted_served_shown_and_printed(
    server: Server, head: Api, checkpoint_key: Path, tmp_path: Path
) -> None:
    rng = random.Random(29)
    judge = Api(server.base, head.judge_token(11)["token"])
    match_id, view = create(head, 11, rng, games=2)
    play(head, judge, match_id, view, rng)
    answer = Api(server.base).get(f"/api/receipts/{match_id}")  # public, as a result is
    assert answer.status_code == 200, answer.text
    body = answer.json()
    ends = [r["end"] for r in body["receipts"]]
    assert ends[-1] == "match" and set(ends[:-1]) <= {"game"} and ends.count("game") >= 1
    receipt = msgspec.convert(body["receipt"], rc.Receipt)
    trusted = bytes.fromhex(public_hex(load_or_create_key(checkpoint_key)))
    assert rc.problem(receipt, trusted) is None
    assert receipt.result.endswith(")") and " – " in receipt.result
    assert body["verify_url"].startswith(f"{server.base}/verify#r=")
    assert rc.decode(body["verify_url"].encode()) == receipt
    assert body["qr_svg"].startswith("data:image/svg+xml")
    checkpoint = Api(server.base).get("/api/checkpoints/latest").json()
    assert checkpoint["position"] >= receipt.position  # a checkpoint covers it, logged too
    page = Api(server.base).get(f"/receipt/{match_id}")
    assert page.status_code == 200 and "<svg" in page.text and receipt.signature in page.text
    _speaks_the_readers_language(server, match_id, receipt)
    assert Api(server.base).get(f"/api/receipts/{uuid.uuid4()}").status_code == 404
    pdf = Api(server.base).get(f"/api/matches/{match_id}/protocol.pdf", lang="et")
    assert pdf.status_code == 200
    assert _printed_qr(pdf.content, tmp_path) == body["verify_url"]


def _speaks_the_readers_language(server: Server, match_id: str, receipt: rc.Receipt) -> None:
    """The receipt page in the language asked for (?lang=, else Accept-Language): its
    headings from the faces' catalogue, its fields as the PDF prints them, no English."""
    english = [*receipt_qr.LABELS["en"][:2], *receipt_qr.LABELS["en"][6:], "Earlier endings"]
    for lang, asked in [("et", {"lang": "et"}), ("lv", {}), ("is", {"lang": "is"})]:
        headers = {"Accept-Language": "lv-LV,lv;q=0.9,en;q=0.5"}
        page = httpx.get(f"{server.base}/receipt/{match_id}", params=asked, headers=headers)
        assert page.status_code == 200 and f'<html lang="{lang}">' in page.text
        words = face_words(lang)
        assert words["receipt.title"] in page.text and words["receipt.earlier"] in page.text
        for label, value in receipt_qr.lines(receipt, lang):
            assert f"<dt>{escape(label)}</dt><dd>{escape(value)}</dd>" in page.text
        assert not [w for w in english if w in page.text], lang
    bad = Api(server.base).get(f"/receipt/{match_id}", lang="xx")
    assert bad.status_code == 400 and "lang" in bad.text


def _printed_qr(pdf: bytes, folder: Path) -> str:
    """The QR code the protocol PDF prints, as poppler renders it and zxing-cpp reads it; the
    receipt's heading and signature are in its text."""
    if shutil.which("pdftoppm") is None:
        pytest.skip("poppler missing: run `make pdf-tools` as root (poppler-utils)")
    (folder / "p.pdf").write_bytes(pdf)
    text = subprocess.run(["pdftotext", str(folder / "p.pdf"), "-"], capture_output=True, text=True)
    assert "Allkirjastatud kviitung" in text.stdout
    subprocess.run(["pdftoppm", "-r", "200", "-png", str(folder / "p.pdf"), str(folder / "page")])
    import zxingcpp
    from PIL import Image

    found = [
        code.text
        for page in sorted(folder.glob("page*.png"))
        for code in zxingcpp.read_barcodes(Image.open(page))
    ]
    assert len(found) == 1, found
    return found[0]


def audit(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": url}
    return subprocess.run(
        [TABLESIDE, "audit", *args], env=env, capture_output=True, text=True, timeout=60
    )


def change_one_byte(owner_url: str, match_id: str, *, relink: bool) -> None:
    """As the owner would: triggers off, one byte of the match's first event changed (a
    letter of a player's name), and both chains re-linked when `relink`."""
    sys.path.insert(0, str(TAMPER))
    from tamper import attack, relink_global, relink_stream

    with psycopg.connect(owner_url) as conn:
        (state,) = conn.execute(
            "SELECT state FROM stored_events WHERE originator_id = %s AND originator_version = 1",
            (match_id,),
        ).fetchone()
    at = bytes(state).index(b'"side_a":["') + len(b'"side_a":["')
    flipped = bytes(state)[:at] + b"Z" + bytes(state)[at + 1 :]
    change = (
        f"UPDATE stored_events SET state = decode('{flipped.hex()}', 'hex')"
        f" WHERE originator_id = '{match_id}' AND originator_version = 1"
    )
    links = [relink_stream(uuid.UUID(match_id)), relink_global()] if relink else []
    attack(owner_url, change, *links)


@pytest.mark.parametrize("relink", [False, True], ids=["as-is", "relinked"])
def test_audit_verify_receipt_fails_after_the_owner_changes_one_byte(
    new_database, tmp_path: Path, relink: bool
) -> None:
    url = new_database()
    srv = Server(url, env={"TABLESIDE_CHECKPOINT_MINUTES": "0"}).start()
    try:
        head = Api(srv.base).login()
        rng = random.Random(7)
        match_id, view = create(head, 3, rng, games=1)
        play(head, head, match_id, view, rng)
        receipt = Api(srv.base).get(f"/api/receipts/{match_id}").json()["receipt"]
    finally:
        srv.stop()
    path = tmp_path / "receipt.json"
    path.write_bytes(msgspec.json.encode(receipt))
    app = with_user(url, roles.APP_ROLE)
    done = audit(app, "verify", "--receipt", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith(f"{path}: ok: match {match_id} as receipted"), done.stdout
    assert "the receipt's signature against key" in done.stdout
    change_one_byte(url, match_id, relink=relink)
    done = audit(app, "verify", "--receipt", str(path))
    assert done.returncode == 1, done.stdout + done.stderr
    said = "the chain hash is" if relink else "broken link: stream"
    assert said in done.stdout and match_id in done.stdout, done.stdout
