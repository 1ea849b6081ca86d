"""Witnesses in people's hands (#29). A match's signed receipt, end to end (Done when): the
judge pad finishes a match and shows the receipt's QR code; a maintained decoder (zxing-cpp)
reads it from a screenshot; the PWA's verify page, opened from that code with the network
off, says valid; then the owner changes one byte of that match in the store, and `audit
verify --receipt` fails. And the pad, the spectator page and the venue screen keep the
newest signed checkpoint they have seen (IndexedDB), replaced only by a newer one."""

from __future__ import annotations

import base64
import json

import zxingcpp
from match.test_receipts import audit, change_one_byte
from PIL import Image
from tableside.db import roles
from tableside.db.url import with_user

from .harness import screenshot
from .judge_helpers import TABLES, new_table, open_judge, panel, settle, tap

CACHED = (
    "caches.keys().then((keys) => Promise.all(keys.map((k) => caches.open(k)"
    ".then((c) => c.match('/verify'))))).then((hits) => hits.some(Boolean))"
)


def _read_qr(path) -> str:
    found = [b.text for b in zxingcpp.read_barcodes(Image.open(path)) if b.format.name == "QRCode"]
    assert len(found) == 1, found
    return found[0]


def test_the_pad_shows_the_receipt_and_a_phone_checks_it_offline(
    page, context, pwa_server, head_api, tmp_path
) -> None:
    t = new_table(head_api, ["Mari Tamm"], ["Jaan Kask"])
    open_judge(page, t["path"])
    page.locator("[data-panel=opening] .side-0").click()
    settle(page)
    tap(page, "no_pocket")  # Mari's opening shot pockets nothing: Jaan's turn
    settle(page)
    tap(page, "pocketed_more", "8")  # Jaan clears the board: the game and the match
    settle(page)
    assert panel(page) == "match-over"
    page.wait_for_selector("[data-receipt=shown] img", timeout=30_000)
    page.locator("[data-receipt=shown]").scroll_into_view_if_needed()

    link = _read_qr(screenshot(page, "judge-360x640-receipt"))
    assert link.startswith(f"{pwa_server.base}/verify#r="), link
    fragment = link.split("#r=", 1)[1]
    receipt = json.loads(base64.urlsafe_b64decode(fragment + "=" * (-len(fragment) % 4)))
    assert receipt["match_id"] == t["match_id"] and receipt["end"] == "match"

    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function(CACHED, timeout=30_000)  # the worker keeps /verify
    context.set_offline(True)  # Chromium's offline emulation: no request leaves
    phone = context.new_page()
    phone.goto(link)
    phone.wait_for_selector("body[data-checked=true]")
    assert phone.locator("#verdict").get_attribute("data-verdict") == "valid"
    checks = phone.locator("#check-list li")
    assert [checks.nth(i).get_attribute("data-ok") for i in range(3)] == ["true"] * 3
    assert phone.locator("[data-field=result]").inner_text() == "Mari Tamm – Jaan Kask 0:1 (0:2)"
    screenshot(phone, "verify-360x640-valid")
    forged = dict(receipt, result="Mari Tamm – Jaan Kask 1:0 (2:0)")  # the other way round
    phone.fill("#receipt-text", json.dumps(forged))
    phone.locator("#paste button").click()
    phone.wait_for_selector("#verdict[data-verdict=invalid]")
    assert phone.locator("[data-check=signature]").get_attribute("data-ok") == "false"
    context.set_offline(False)

    path = tmp_path / "scanned.txt"
    path.write_text(link)  # the link itself, as the camera read it
    app = with_user(pwa_server.database_url, roles.APP_ROLE)
    done = audit(app, "verify", "--receipt", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    change_one_byte(pwa_server.database_url, t["match_id"], relink=True)
    done = audit(app, "verify", "--receipt", str(path))
    assert done.returncode == 1, done.stdout
    assert "the chain hash is" in done.stdout and "not as receipted" in done.stdout


NEWEST = "import('/js/checkpoint-witness.js').then((m) => m.newest())"
REMEMBER = "(c) => import('/js/checkpoint-witness.js').then((m) => m.remember(c))"


def _signed_checkpoint(pwa_server, head_api) -> int:
    """New events (a match on a fresh table), then `audit checkpoint` signs the head."""
    assert head_api.create(next(TABLES), ["Ann"], ["Bo"]).status_code == 201
    done = audit(with_user(pwa_server.database_url, roles.APP_ROLE), "checkpoint", "--print")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["position"]


def test_the_faces_keep_the_newest_signed_checkpoint_they_have_seen(
    page, pwa_server, head_api
) -> None:
    seen = 0
    for face in ("/", "/screen", "/judge"):  # spectator page, venue screen, judge pad
        position = _signed_checkpoint(pwa_server, head_api)
        assert position > seen
        page.goto(face)
        page.wait_for_selector(f"html[data-witness='{position}']")
        kept = page.evaluate(NEWEST)
        assert kept["position"] == position and len(kept["signature"]) == 128
        seen = position
    older = dict(kept, position=kept["position"] - 1)
    assert page.evaluate(REMEMBER, older)["reason"] == "not_newer"
    forged = dict(kept, position=kept["position"] + 100)  # further on, but not as signed
    assert page.evaluate(REMEMBER, forged)["reason"] == "signature"
    assert page.evaluate(NEWEST) == kept
