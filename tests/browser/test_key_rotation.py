"""`tableside keys rotate` (#41): the old key signs the new one, on the record; receipts
signed before and after the rotation both verify, with `audit verify --receipt` and on
`/verify`, which pins the new key and the one it replaced.

The test runs servers of its own (stopped for the rotation, as a venue would) on a copy of
the session's key: the rotation replaces the key file it is given.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from support.harness import Api, Server
from support.recorded import record_match
from tableside.db import roles
from tableside.db.url import with_user
from tableside.eventlog.checkpoints import load_or_create_key, public_hex

TABLESIDE = str(Path(sys.executable).with_name("tableside"))


def _receipt(env: dict[str, str], url: str, table: int, tmp_path: Path) -> tuple[Path, str]:
    """A match recorded on a server of its own: its receipt file and verify link."""
    srv = Server(url, env=env).start()
    try:
        head = Api(srv.base).login()
        match = record_match(head, table=table, games=1).match_id
        body = Api(srv.base).get(f"/api/receipts/{match}").json()
    finally:
        srv.stop()
    path = tmp_path / f"receipt-{table}.json"
    path.write_text(json.dumps(body["receipt"]))
    return path, body["verify_url"]


def test_a_rotated_key_keeps_old_and_new_receipts_verifying(
    browser, new_database, checkpoint_key: Path, tmp_path: Path
) -> None:
    url = new_database()
    key = tmp_path / "keys" / "checkpoint-ed25519.pem"
    key.parent.mkdir(mode=0o700)
    shutil.copy(checkpoint_key, key)
    log = tmp_path / "keys" / "checkpoint-ed25519.log"
    env = {
        "TABLESIDE_KEY_FILE": str(key),
        "TABLESIDE_CHECKPOINT_LOG": str(log),
        "TABLESIDE_CHECKPOINT_MINUTES": "0",
    }
    old = public_hex(load_or_create_key(key))
    before, before_link = _receipt(env, url, 3, tmp_path)

    cli = {**os.environ, **env, "DATABASE_URL": url}
    done = subprocess.run(
        [TABLESIDE, "keys", "rotate"], env=cli, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    new = public_hex(load_or_create_key(key))
    assert new != old and f"{old[:16]}…" in done.stdout and f"{new[:16]}…" in done.stdout
    assert (key.parent / f"checkpoint-ed25519.retired-{old[:16]}.pem").exists()

    after, after_link = _receipt(env, url, 4, tmp_path)  # serve starts: the store is the new key's
    assert json.loads(after.read_text())["public_key"] == new
    assert json.loads(before.read_text())["public_key"] == old

    app = {**cli, "DATABASE_URL": with_user(url, roles.APP_ROLE)}
    check = [TABLESIDE, "audit", "verify", "--receipt", str(before), "--receipt", str(after)]
    done = subprocess.run(check, env=app, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    done = subprocess.run(
        [TABLESIDE, "audit", "verify"], env=app, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr  # old checkpoints, new ones, the log

    srv = Server(url, env=env).start()
    context = browser.new_context(base_url=srv.base, locale="en-GB", bypass_csp=True)
    try:
        page = context.new_page()
        page.goto("/verify")
        pinned = page.locator('meta[name="federation-key"]').get_attribute("content")
        assert pinned.split(",") == [new, old]
        for link in (before_link, after_link):
            phone = context.new_page()  # a fresh load: the page checks the fragment it opens on
            phone.goto(link.replace(link.split("/verify")[0], srv.base))
            phone.wait_for_selector("body[data-checked=true]")
            assert phone.locator("#verdict").get_attribute("data-verdict") == "valid", link
    finally:
        context.close()
        srv.stop()
