"""After an accepted dispute the audit face says so (#50): it said "intact" for a match the
accepted dispute touched, and nothing of the acceptance. The store's checkpoints are deleted
(the keys' history still counts them: disputed), the server is started with
`--accept-disputed` (a signed `RecordDisputeAccepted`), and the jury's verify of the match
says where the dispute was accepted, by whom and why, in the face's language."""

from __future__ import annotations

import json

import psycopg
from support.harness import Api, Server
from support.recorded import auditor, record_match
from tableside.db import roles
from tableside.db.url import with_user
from tableside.eventlog.checkpoints import load_or_create_key, public_hex

from .harness import ROOT


def _words(lang: str, catalogue: str) -> dict[str, str]:
    return json.loads((ROOT / "pwa" / "i18n" / f"{catalogue}.{lang}.json").read_text())


def test_the_audit_face_says_a_dispute_was_accepted_where_by_whom_and_why(
    browser, new_database, tmp_path
) -> None:
    url = new_database()
    key = tmp_path / "keys" / "checkpoint-ed25519.pem"
    public = bytes.fromhex(public_hex(load_or_create_key(key)))
    assert roles.register_key(with_user(url, roles.OWNER_ROLE), public) is None
    env = {
        "TABLESIDE_CHECKPOINT_MINUTES": "0",
        "TABLESIDE_KEY_FILE": str(key),
        "TABLESIDE_CHECKPOINT_LOG": str(key.with_suffix(".log")),
    }
    srv = Server(url, env=env).start()
    try:
        head = Api(srv.base).login()
        match = record_match(head, table=3, games=1).match_id
        assert Api(srv.base).get(f"/api/receipts/{match}").status_code == 200
    finally:
        srv.stop()
    with psycopg.connect(url) as conn:  # the organiser, as the superuser, triggers off
        conn.execute("SET session_replication_role = replica")
        conn.execute("DELETE FROM event_checkpoints")

    srv = Server(url, env={**env, "TABLESIDE_ACCEPT_DISPUTED": "1"}).start()
    context = browser.new_context(base_url=srv.base, locale="en-GB", bypass_csp=True)
    try:
        jury = auditor(Api(srv.base).login())
        (accepted,) = jury.get(f"/api/matches/{match}/verify").json()["accepted"]
        context.add_init_script(f"localStorage.setItem('tableside.audit-token', '{jury.token}')")
        page = context.new_page()
        page.goto(f"/audit/match/{match}")
        for lang in ("en", "et", "lv", "is"):
            page.click(f"language-picker [data-lang={lang}]")
            page.locator("[data-verify]").click()
            why = _words(lang, "codes")["code.record.checkpoints_vanished"]
            said = _words(lang, "audit")["audit.accepted"].format(
                p=accepted["position"], by=accepted["by"], why=why
            )
            page.wait_for_function(
                "said => document.querySelector('.verdict[data-verdict=accepted]')"
                "?.innerText === said",
                arg=said,
            )
    finally:
        context.close()
        srv.stop()
