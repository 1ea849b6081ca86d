"""The laptop's owner holds the key (#50): evidence the owner cannot quietly rebuild.

As the issue tried it, on a server that recorded matches and receipted them (each receipt
signs a checkpoint, kept in the signer's log beside the test's own key), then stopped; as
the database superuser M1's winner is flipped and both chains re-linked. Then each attack
of the issue, and what now catches it:
- an unsigned `accepted` line appended to the log accepts nothing (the log's lines are
  signed; a dispute is accepted only by a signed `RecordDisputeAccepted` event in the store);
- a line dated in the future, signed with the real key (the owner holds it), is tampering;
- the log and the stored checkpoints cut from the edit, or both deleted: the keys' history
  (schema/013) still says what was signed, so the store is disputed and `audit verify` fails;
- the key deleted too: `serve` refuses in one line naming the registered key, until
  `tableside keys rotate --lost` records the loss as a signed event the audit shows.
"""

from __future__ import annotations

import json
import os
import subprocess
import uuid
from datetime import UTC, datetime
from pathlib import Path

import psycopg
import pytest
from store_events import stored_of
from support.competition_play import Comp
from support.harness import Api, Server, free_port
from support.recorded import auditor, record_match
from tableside.db import roles
from tableside.db.url import with_user
from tableside.eventlog import signer_log
from tableside.eventlog.checkpoints import load_or_create_key, public_hex
from tamper import attack, flip_winner, relink_global, relink_stream
from test_witnesses import TABLESIDE, audit

pytestmark = pytest.mark.long  # started first under `make test` (tests/conftest.py)


@pytest.fixture
def keyed(tmp_path: Path, new_database) -> tuple[str, Path, Path, dict[str, str]]:
    """(a fresh store's superuser URL, its own key file, log, the server's env): the key is
    the test's alone, registered as the owner registers it at migrate time."""
    url = new_database()
    key = tmp_path / "keys" / "checkpoint-ed25519.pem"
    log = key.with_suffix(".log")
    public = bytes.fromhex(public_hex(load_or_create_key(key)))
    assert roles.register_key(with_user(url, roles.OWNER_ROLE), public) is None
    env = {
        "TABLESIDE_CHECKPOINT_MINUTES": "0",
        "TABLESIDE_KEY_FILE": str(key),
        "TABLESIDE_CHECKPOINT_LOG": str(log),
    }
    return url, key, log, env


def _recorded(url: str, env: dict[str, str], tables=(3,)) -> tuple[list[str], list[dict]]:
    """Matches recorded and receipted on `tables` (each receipt signs a checkpoint); the
    matches' ids and their receipts, as players keep them."""
    srv = Server(url, env=env).start()
    try:
        head = Api(srv.base).login()
        matches, receipts = [], []
        for table in tables:
            match = record_match(head, table=table, games=1).match_id
            receipt = Api(srv.base).get(f"/api/receipts/{match}")
            assert receipt.status_code == 200, receipt.text
            matches.append(match)
            receipts.append(receipt.json())
    finally:
        srv.stop()
    return matches, receipts


def _rewrite(url: str, match: str, *more: str) -> None:
    """The organiser's edit: the winner flipped, both chains re-linked, then `more`."""
    attack(url, flip_winner(match), relink_stream(uuid.UUID(match)), relink_global(), *more)


def _health(url: str, env: dict[str, str], match: str | None = None) -> dict:
    """What a server started on the store says on /health (and, for `match`, that its
    receipt is refused)."""
    srv = Server(url, env=env).start()
    try:
        health = Api(srv.base).get("/health").json()
        if match is not None:
            assert Api(srv.base).get(f"/api/receipts/{match}").status_code == 409
        return health
    finally:
        srv.stop()


def _first_position(url: str, match: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT min(notification_id) FROM stored_events WHERE originator_id = %s"
            " AND topic IN ('GameEnded', 'MatchEnded')",
            (uuid.UUID(match),),
        ).fetchone()
    return row[0]


def _lines(log: Path) -> list[bytes]:
    return log.read_bytes().splitlines(keepends=True)


def test_an_unsigned_accepted_line_in_the_log_accepts_nothing(keyed) -> None:
    url, _, log, env = keyed
    (m1,), _ = _recorded(url, env)
    _rewrite(url, m1)
    forged = {
        "accepted": datetime.now(UTC).isoformat(),
        "code": "head_changed",
        "reason": "x",
        "prev": signer_log.line_hash(_lines(log)[-1]),
    }
    log.write_bytes(log.read_bytes() + json.dumps(forged).encode() + b"\n")
    health = _health(url, env, m1)
    assert health["status"] == "disputed", health
    assert health["record"]["code"] == "log_broken", health
    assert "not signed" in health["record"]["reason"], health
    assert stored_of(url, "RecordDisputeAccepted") == []


@pytest.mark.parametrize("when", ["2099-01-01T00:00:00+00:00", "now"])
def test_a_signed_line_dated_in_the_future_accepts_nothing(keyed, when: str) -> None:
    """The owner holds the key and signs a line accepting the dispute as of 2099: written
    in 2099 it is tampering; written now it is still no acceptance (only the store's
    signed event is), and nothing signed before is skipped."""
    url, key, log, env = keyed
    (m1,), _ = _recorded(url, env)
    _rewrite(url, m1)
    written = datetime.fromisoformat(when) if when != "now" else None
    fields = {"accepted": "2099-01-01T00:00:00+00:00", "code": "head_changed", "reason": "x"}
    prev = signer_log.line_hash(_lines(log)[-1])
    line = signer_log.signed_line(fields, prev, load_or_create_key(key), written)
    log.write_bytes(log.read_bytes() + line)
    health = _health(url, env, m1)
    assert health["status"] == "disputed", health
    code = "log_broken" if when != "now" else "head_changed"
    assert health["record"]["code"] == code, health
    if when != "now":
        assert "in the future" in health["record"]["reason"], health
    assert stored_of(url, "RecordDisputeAccepted") == []


def test_the_log_and_checkpoints_cut_from_the_edit_are_disputed(keyed) -> None:
    url, _, log, env = keyed
    (_, m1, _), _ = _recorded(url, env, tables=(1, 3, 5))
    edit = _first_position(url, m1)
    _rewrite(url, m1, f"DELETE FROM event_checkpoints WHERE position >= {edit}")
    kept = [line for line in _lines(log) if json.loads(line)["position"] < edit]
    assert kept, "M0's checkpoint is before the edit"
    log.write_bytes(b"".join(kept))
    health = _health(url, env, m1)
    assert health["status"] == "disputed", health
    assert health["record"]["code"] == "checkpoints_vanished", health
    assert "registered keys signed" in health["record"]["reason"], health
    done = audit(with_user(url, roles.APP_ROLE), "verify", log=log, key=keyed[1])
    assert done.returncode == 1, done.stdout + done.stderr
    assert "registered keys signed 3" in done.stdout, done.stdout


def test_the_log_and_every_checkpoint_deleted_are_disputed(keyed) -> None:
    url, _, log, env = keyed
    (m1,), _ = _recorded(url, env)
    _rewrite(url, m1, "DELETE FROM event_checkpoints")
    log.unlink()
    health = _health(url, env, m1)
    assert health["status"] == "disputed", health
    assert health["record"]["code"] == "checkpoints_vanished", health
    done = audit(with_user(url, roles.APP_ROLE), "verify", log=log, key=keyed[1])
    assert done.returncode == 1, done.stdout + done.stderr
    assert "stored checkpoints were deleted" in done.stdout, done.stdout


def _cli(url: str, key: Path, log: Path, *args: str, timeout: float = 120):
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "TABLESIDE_KEY_FILE": str(key),
        "TABLESIDE_CHECKPOINT_LOG": str(log),
        "PORT": "",
    }
    return subprocess.run(
        [TABLESIDE, *args], env=env, capture_output=True, text=True, timeout=timeout
    )


def test_the_key_deleted_with_a_registered_key_refuses_to_start_until_its_loss_is_recorded(
    keyed, tmp_path: Path
) -> None:
    url, key, log, env = keyed
    _, (receipt,) = _recorded(url, env)
    ours = public_hex(load_or_create_key(key))
    attack(url, "DELETE FROM event_checkpoints")
    log.unlink()
    key.unlink()
    port = str(free_port())
    done = _cli(url, key, log, "serve", "--port", port, "--workers", "1")
    assert done.returncode == 1, (done.stdout, done.stderr)
    line = done.stderr.strip()
    assert line.count("\n") == 0 and "Traceback" not in line, line
    assert f"{key} is missing" in line and ours[:16] in line, line
    assert "keys rotate --lost" in line, line
    assert not key.exists()

    lost = _cli(url, key, log, "keys", "rotate", "--lost")
    assert lost.returncode == 0, lost.stdout + lost.stderr
    assert f"key {ours[:16]}… is recorded lost" in lost.stdout, lost.stdout
    (statement,) = stored_of(url, "KeyLost")
    assert statement["lost_key"] == ours and statement["new_key"] != ours, statement

    saved = tmp_path / "receipt.json"
    saved.write_text(json.dumps(receipt["receipt"]))
    checked = audit(with_user(url, roles.APP_ROLE), "verify", "--receipt", str(saved), key=key)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    whole = audit(with_user(url, roles.APP_ROLE), "verify", log=log, key=key)
    assert f"key {ours[:16]}… declared lost" in whole.stdout, whole.stdout
    assert whole.returncode == 1, whole.stdout  # the deleted checkpoints stay evidence
    assert _health(url, env)["record"]["code"] == "checkpoints_vanished"


def test_a_match_record_on_a_disputed_store_is_answered_never_500(keyed, tmp_path) -> None:
    """`record.jsonl` answered 500 (an unhandled signing refusal) for every match with events
    after the newest checkpoint: now it is sealed by what already covers it, or unsealed,
    and says the record is disputed; so do the results files and the standings PDF."""
    url, _, _, env = keyed
    (m1,), _ = _recorded(url, env)
    _rewrite(url, m1)
    srv = Server(url, env=env).start()
    try:
        head = Api(srv.base).login()
        fresh = head.create(4, ["Mari"], ["Ott"])
        assert fresh.status_code == 201, fresh.text
        jury = auditor(head)
        for match in (fresh.json()["match_id"], m1):  # events after the newest checkpoint
            got = jury.get(f"/api/matches/{match}/record.jsonl")
            assert got.status_code == 200, (match, got.status_code, got.text)  # main: 500
            assert got.headers["Tableside-Record"] == "disputed; head_changed"
            assert json.loads(got.content.splitlines()[0])["events"] >= 1
        comp = Comp.create(head, {"name": "Disputed Cup", "format": "round_robin"})
        for path in ("results.csv", "results.xlsx"):
            got = Api(srv.base).get(f"/api/competitions/{comp.id}/{path}")
            assert got.status_code == 200, (path, got.text)
            assert got.headers["Tableside-Record"] == "disputed; head_changed", path
        pdf = Api(srv.base).get(f"/api/competitions/{comp.id}/standings.pdf", lang="en")
        assert pdf.status_code == 200, pdf.text
        assert "The record is disputed" in _pdf_text(pdf.content, tmp_path)
    finally:
        srv.stop()


def _pdf_text(content: bytes, tmp_path: Path) -> str:
    pdf = tmp_path / "protocol.pdf"
    pdf.write_bytes(content)
    out = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    )
    return " ".join(out.stdout.split())


def test_after_an_accepted_dispute_the_match_says_so_on_the_audit_face_in_audit_verify_and_pdf(
    keyed, tmp_path: Path
) -> None:
    """After `--accept-disputed` the audit face said "ok" for the forged M1 and nothing of
    the accepted dispute; while disputed the protocol PDF printed the forged result with no
    notice. Now: the PDF says the record is disputed; once accepted, the match's verify,
    `audit verify` and its PDF say "accepted dispute at position N by X"."""
    url, key, log, env = keyed
    (m1,), _ = _recorded(url, env)
    _rewrite(url, m1)
    srv = Server(url, env=env).start()
    try:
        pdf = Api(srv.base).get(f"/api/matches/{m1}/protocol.pdf", lang="en")
        assert pdf.status_code == 200, pdf.text
        text = _pdf_text(pdf.content, tmp_path)
        assert "The record is disputed: this server vouches for nothing now." in text, text
    finally:
        srv.stop()
    srv = Server(url, env={**env, "TABLESIDE_ACCEPT_DISPUTED": "1"}).start()
    try:
        jury = auditor(Api(srv.base).login())
        verdict = jury.get(f"/api/matches/{m1}/verify").json()
        # its record no longer reaches the checkpoint signed before the rewrite: failed, and
        # the accepted dispute said beside it (the audit face says it first)
        assert verdict["verdict"] == "failed" and verdict["intact"] is False, verdict
        (accepted,) = verdict["accepted"]
        assert any(c.startswith("accepted dispute at position") for c in verdict["checks"])
        assert accepted["code"] == "head_changed" and accepted["by"], accepted
        position = accepted["position"]
        pdf = Api(srv.base).get(f"/api/matches/{m1}/protocol.pdf", lang="en")
        text = _pdf_text(pdf.content, tmp_path)
        said = f"A dispute of this record was accepted at position {position} by {accepted['by']}"
        assert said in text, text
    finally:
        srv.stop()
    (event,) = stored_of(url, "RecordDisputeAccepted")
    assert event["signature"] and event["head_position"] == position, event
    done = audit(with_user(url, roles.APP_ROLE), "verify", log=log, key=key)
    assert f"accepted dispute at position {position} by {accepted['by']}" in done.stdout
    assert done.returncode == 1, done.stdout  # what was signed before stays evidence
