"""The hall is not loopback (issue 40, Done when): the faces run from `hall.test`, an origin
that is not loopback, as a tablet on the hall wifi reaches the laptop.

Over HTTPS with the venue CA trusted: a secure context, the service worker controls the pad,
the pad reloads with the network off and its five strokes reach the server once each when it
comes back, and /verify says valid for a genuine receipt and invalid for a changed one.
In clear (`http://hall.test`): the banner shows, a genuine receipt is never "Not valid"
(pure-JS Ed25519, or "cannot check in this browser" without it), and a login is refused
naming the HTTPS origin.
"""

from __future__ import annotations

import base64
import html
import json
import os
import random

import httpx
import pytest
from support.harness import Api, wait_for
from support.play import create, play
from tableside.web.words import FACE_LANGUAGES, catalogue

from .harness import assert_no_horizontal_overflow, axe_violations, missing_noble, screenshot
from .judge_helpers import TABLES, new_table, open_judge, settle, tap

pytestmark = pytest.mark.long


def strokes_on_server(api, match_id: str) -> list[dict]:
    history = api.get(f"/api/matches/{match_id}/history").json()
    return [h for h in history if h["type"] == "StrokeRecorded"]


def finished_match(hall_server, head) -> tuple[str, dict]:
    """A simulated match played to its end over HTTPS; its id and its receipts' answer."""
    rng = random.Random(40)
    table = next(TABLES)
    judge = Api(hall_server.api, head.judge_token(table)["token"], verify=hall_server.trust())
    match_id, view = create(head, table, rng)
    play(head, judge, match_id, view, rng)
    answer = head.get(f"/api/receipts/{match_id}")
    assert answer.status_code == 200, answer.text
    return match_id, answer.json()


def test_over_https_the_pad_is_a_secure_offline_app_whose_strokes_arrive_once(
    hall_server, hall_tablet, hall_api
):
    context = hall_tablet(hall_server.https)
    page = context.new_page()
    t = new_table(hall_api, ["Mari Tamm"], ["Jaan Kask"])
    open_judge(page, t["path"])
    assert page.evaluate("location.origin") == hall_server.https
    assert page.evaluate("window.isSecureContext") is True
    assert page.evaluate("typeof crypto.subtle?.verify") == "function"
    assert page.locator("[data-insecure]").count() == 0
    page.locator("[data-panel=opening] .side-0").click()
    settle(page)
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=30_000)

    context.set_offline(True)
    page.reload()  # the tablet restarts without wifi: the worker has the app
    page.wait_for_selector("html[data-ready=true]")
    page.wait_for_function("window.judge && window.judge.state.shown")
    page.wait_for_selector("sync-badge[data-state=offline]")
    for k in range(5):
        tap(page, "pocketed" if k % 2 == 0 else "no_pocket")
        page.wait_for_function("(n) => window.judge.state.pending.length === n", arg=k + 1)
    screenshot(page, "hall-judge-offline-5-queued")
    page.reload()  # and once more with the strokes queued: the queue stays
    page.wait_for_function("window.judge?.state.pending.length === 5")

    context.set_offline(False)
    settle(page, timeout=30_000)
    strokes = wait_for(lambda: len(s := strokes_on_server(hall_api, t["match_id"])) >= 5 and s)
    assert len(strokes) == 5, strokes  # once each: a retried send is never stored twice
    versions = [s["version"] for s in strokes]
    assert versions == sorted(versions)


def test_over_https_verify_says_valid_for_a_genuine_receipt_and_invalid_for_a_changed_one(
    hall_server, hall_tablet, hall_api
):
    _, answer = finished_match(hall_server, hall_api)
    link = answer["verify_url"]
    assert link.startswith("https://"), link  # the receipt names the HTTPS origin
    fragment = link.split("/verify", 1)[1]
    page = hall_tablet(hall_server.https).new_page()
    page.goto(f"/verify{fragment}")
    page.wait_for_selector("body[data-checked=true]")
    assert page.evaluate("window.isSecureContext") is True
    assert page.locator("#verdict").get_attribute("data-verdict") == "valid"
    changed = dict(answer["receipt"], result="A – B 1:0 (2:0)")
    page.fill("#receipt-text", json.dumps(changed))
    page.locator("#paste button").click()
    page.wait_for_selector("#verdict[data-verdict=invalid]")
    assert page.locator("[data-check=signature]").get_attribute("data-ok") == "false"


def forged_by_one_byte(fragment: str) -> str:
    """The verify link's fragment (`#r=…`) with one byte of its receipt's version changed."""
    text = fragment.split("r=", 1)[1]
    raw = bytearray(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
    at = raw.index(b'"version":') + len(b'"version":')
    raw[at] = ord("8") if raw[at] == ord("9") else ord("9")
    return "#r=" + base64.urlsafe_b64encode(bytes(raw)).rstrip(b"=").decode()


def test_verify_checks_again_on_every_change_of_its_address(hall_server, hall_tablet, hall_api):
    """Genuine, then forged by one byte, then genuine, in one tab (issue 52): each change of
    the address is checked, the old verdict cleared first."""
    _, answer = finished_match(hall_server, hall_api)
    genuine = answer["verify_url"].split("/verify", 1)[1]
    forged = forged_by_one_byte(genuine)
    page = hall_tablet(hall_server.https).new_page()
    page.goto(f"/verify{genuine}")
    page.wait_for_selector("body[data-checked=true] #verdict[data-verdict=valid]")
    for fragment, verdict in ((forged, "invalid"), (genuine, "valid"), ("#", "none")):
        page.evaluate("(f) => { location.hash = f; }", fragment)
        page.wait_for_selector(f"body[data-checked=true] #verdict[data-verdict={verdict}]")
        if verdict == "invalid":
            failing = page.locator("[data-check][data-ok=false]")
            assert failing.count() >= 1
        if verdict == "none":  # nothing of the last check is left on the page
            assert page.locator("[data-check]").count() == 0
            assert page.locator("[data-field]").count() == 0


def test_in_clear_the_banner_shows_and_a_genuine_receipt_is_never_not_valid(
    hall_server, hall_tablet, hall_api
):
    if reason := missing_noble():  # as axe-core: skipped here, a failure under CI
        (pytest.fail if os.environ.get("CI") == "true" else pytest.skip)(reason)
    _, answer = finished_match(hall_server, hall_api)
    fragment = answer["verify_url"].split("/verify", 1)[1]
    context = hall_tablet(hall_server.http)
    page = context.new_page()
    page.goto(f"/verify{fragment}")
    page.wait_for_selector("body[data-checked=true]")
    assert page.evaluate("window.isSecureContext") is False
    assert page.evaluate("typeof crypto.subtle") == "undefined"  # as the issue found it
    banner = page.locator("[data-insecure]")
    assert banner.is_visible()
    assert banner.locator("a[data-https]").get_attribute("href").startswith(hall_server.canonical)
    # WebCrypto is absent here: the pure-JS Ed25519 checks, and the receipt holds
    assert page.locator("#verdict").get_attribute("data-verdict") == "valid"
    screenshot(page, "hall-verify-in-clear-valid")
    changed = dict(answer["receipt"], result="A – B 1:0 (2:0)")
    page.fill("#receipt-text", json.dumps(changed))
    page.locator("#paste button").click()
    page.wait_for_selector("#verdict[data-verdict=invalid]")

    # a browser that can have neither (the pure-JS files do not load): it says it cannot check
    bare = context.new_page()
    bare.route("**/vendor/**", lambda route: route.abort())
    bare.goto(f"/verify{fragment}")
    bare.wait_for_selector("body[data-checked=true]")
    assert bare.locator("#verdict").get_attribute("data-verdict") == "unchecked"
    assert bare.locator("[data-check=signature]").get_attribute("data-ok") == "null"
    assert "Not valid" not in bare.locator("#verdict").inner_text()


def request_log(context) -> list:
    """Every request and websocket frame the tablet's pages send, as Playwright sees them."""
    sent: list = []
    context.on("request", lambda request: sent.append(request))
    context.on("page", lambda page: page.on("websocket", lambda ws: sent.append(ws)))
    return sent


def leaks(sent: list, *secrets: str) -> list[str]:
    """The requests in `sent` that carry a bearer token or one of `secrets` (in the URL, a
    header or the body); a websocket is one whose URL carries one (its frames never opened)."""
    found = []
    for item in sent:
        if not hasattr(item, "headers"):  # a websocket
            found += [item.url for secret in secrets if secret in item.url]
            continue
        headers = {k.lower(): v for k, v in item.headers.items()}
        carried = " ".join([item.url, *headers.values(), item.post_data or ""])
        if "authorization" in headers or any(secret in carried for secret in secrets):
            found.append(f"{item.method} {item.url}")
    return found


def test_in_clear_a_login_is_refused_naming_the_https_origin(hall_server, hall_tablet):
    context = hall_tablet(hall_server.http)
    sent = request_log(context)
    page = context.new_page()
    page.goto("/admin")
    page.wait_for_selector("[data-insecure]")
    page.fill("#login-user", "head")
    page.fill("#login-pass", "head-secret-1")
    page.locator("form[data-login] button[type=submit]").click()
    refusal = page.get_by_text(hall_server.canonical)
    refusal.first.wait_for()
    assert "ts_" not in page.evaluate("JSON.stringify(localStorage)")  # no session was had
    # the face refused before sending: the password never crossed the wifi (issue 52)
    assert sent and leaks(sent, "head-secret-1") == []
    assert not [r for r in sent if hasattr(r, "method") and "/api/login" in r.url]
    screenshot(page, "hall-admin-login-refused")


def test_in_clear_a_judge_link_sends_no_token_and_says_where_to_go(
    hall_server, hall_tablet, hall_api
):
    table = new_table(hall_api, ["Ann"], ["Bo"])
    context = hall_tablet(hall_server.http)
    sent = request_log(context)
    page = context.new_page()
    page.goto(table["path"])
    notice = page.locator("[data-notice='code.insecure_transport']")
    notice.wait_for()
    assert hall_server.canonical in notice.inner_text()
    assert notice.inner_text()[0].isupper()  # a sentence, not a fragment (issue 52)
    assert sent and leaks(sent, table["token"]) == []
    screenshot(page, "hall-judge-in-clear")


def test_in_clear_tokens_are_refused_and_links_name_the_https_origin(hall_server, hall_api):
    plain = f"http://127.0.0.1:{hall_server.http_port}"
    hall = {"Host": f"hall.test:{hall_server.http_port}"}
    login = httpx.post(f"{plain}/api/login", headers=hall, json={"username": "x", "password": "y"})
    assert login.status_code == 403
    assert login.json()["code"] == "insecure_transport"
    assert login.json()["https_origin"] == hall_server.canonical
    token = {**hall, "Authorization": f"Bearer {hall_api.token}"}
    assert httpx.get(f"{plain}/api/login-lockouts", headers=token).status_code == 403
    match_id, _ = finished_match(hall_server, hall_api)
    receipt = httpx.get(f"{plain}/api/receipts/{match_id}", headers=hall).json()
    assert receipt["verify_url"].startswith(f"{hall_server.canonical}/verify#r=")
    setup = httpx.get(f"{plain}/setup?lang=lv", headers=hall)
    assert setup.status_code == 200 and hall_server.canonical in setup.text
    for lang in FACE_LANGUAGES:  # the step after the event, in every language (issue 52)
        page = httpx.get(f"{plain}/setup?lang={lang}", headers=hall).text
        removal = catalogue("", lang)["setup.remove.android"]
        assert 'id="remove"' in page and html.escape(removal) in page, lang
    ca = httpx.get(f"{plain}/setup/venue-ca.crt", headers=hall)
    assert ca.content == hall_server.ca.read_bytes()
    over_https = httpx.get(f"{hall_server.api}/health", verify=hall_server.trust())
    assert over_https.headers["strict-transport-security"].startswith("max-age=")
    assert "strict-transport-security" not in httpx.get(f"{plain}/health").headers


def test_the_console_shows_the_setup_qr_and_the_tablets_connected_over_https(
    hall_server, hall_tablet, hall_api
):
    pad = hall_tablet(hall_server.https).new_page()
    open_judge(pad, new_table(hall_api, ["Ann"], ["Bo"])["path"])  # its live feed is open
    console = hall_tablet(hall_server.https).new_page()
    console.goto("/admin")
    console.fill("#login-user", "head")
    console.fill("#login-pass", "head-secret-1")
    console.locator("form[data-login] button[type=submit]").click()
    console.wait_for_selector("[data-setup-qr]")
    setup = f"{hall_server.console}/setup"  # by address: no HSTS can upgrade it
    assert console.locator("[data-setup-qr]").get_attribute("alt") == setup
    fingerprint = console.locator("[data-fingerprint]").inner_text()
    assert fingerprint in httpx.get(f"{hall_server.api}/setup", verify=hall_server.trust()).text
    assert console.locator("[data-address='127.0.0.1']").count() == 1
    screenshot(console, "hall-admin-tablets")


def test_the_setup_page_in_clear_passes_the_accessibility_audit(
    hall_server, hall_tablet, axe_ready
):
    page = hall_tablet(hall_server.http).new_page()
    page.goto("/setup?lang=et")
    assert page.locator("#fingerprint").inner_text().count(":") == 31
    assert page.locator("#https-origin").get_attribute("href") == f"{hall_server.canonical}/"
    assert axe_violations(page) == []
    assert_no_horizontal_overflow(page)  # the fingerprint wraps on a phone
    screenshot(page, "hall-setup-et")
