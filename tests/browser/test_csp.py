"""Issue 11, point 7: every face works under the strict Content-Security-Policy in Chromium.

ASVS 5.0 V3.4.3 (CSP without inline script or style), V3.4.6 (frame-ancestors 'none').
Each face is opened with a listener for `securitypolicyviolation` events and the console's
"Refused to …" errors: there must be none, and the policy must really be on the page (a
deliberate inline script is refused). A judge's tap still reaches the server, and the judge's
live feed, which now authenticates by its first message, goes live.
"""

from __future__ import annotations

import httpx
import pytest
from support.harness import ADMIN

from .admin_helpers import admin_login
from .bg_helpers import BgMatch
from .judge_helpers import SETTLED, new_table, tap

WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) =>
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""
FACES = ["/", "/judge?table=1", "/screen", "/audit", "/admin", "/backgammon"]


@pytest.fixture
def watched(browser, pwa_server):
    """A page under the real CSP (the shared `context` bypasses it), violations collected."""
    ctx = browser.new_context(
        base_url=pwa_server.base, viewport={"width": 360, "height": 640}, locale="en-GB"
    )
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script(WATCH)
    console: list[str] = []
    page.on(
        "console",
        lambda m: console.append(m.text) if m.type in ("error", "warning") else None,
    )
    page.console_errors = console
    yield page
    ctx.close()
    assert not errors, errors


def violations(page) -> list[str]:
    reported = page.evaluate("window.__csp")
    refused = [m for m in page.console_errors if "Content Security Policy" in m]
    return reported + refused


@pytest.mark.parametrize("path", FACES)
def test_v3_4_3_face_loads_under_the_csp_without_violations(watched, path):
    response = watched.goto(path)
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert response.headers["x-frame-options"] == "DENY"
    watched.wait_for_selector("html[data-ready=true]")
    watched.wait_for_timeout(500)  # late modules, the live feed's first messages
    assert violations(watched) == []
    # The policy is really enforced: an injected inline script does not run.
    ran = watched.evaluate(
        """() => { const s = document.createElement("script");
                   s.textContent = "window.__inline = true"; document.body.append(s);
                   return window.__inline === true; }"""
    )
    assert ran is False
    watched.wait_for_function("() => window.__csp.length > 0")
    assert all("script-src" in v for v in watched.evaluate("window.__csp"))


def test_judge_records_a_stroke_under_the_csp(watched, head_api):
    t = new_table(head_api, ["Mari Tamm"], ["Jaan Kask"])
    # Only function-valued waits here: Playwright evaluates a string expression with eval().
    watched.goto(t["path"])
    watched.wait_for_function("() => window.judge && window.judge.state.doc")
    watched.wait_for_selector("[data-live-state=live]")  # first-message auth, no token in URL
    watched.locator("[data-panel=opening] .side-0").click()
    watched.wait_for_function(SETTLED)
    tap(watched, "no_pocket")
    watched.wait_for_function(SETTLED)
    watched.wait_for_function(
        "() => document.querySelector('[data-banner]')?.textContent.includes('Loss of turn')"
    )
    live = head_api.get(f"/api/matches/{t['match_id']}").json()
    assert live["version"] >= 3, live
    assert violations(watched) == []


def test_v6_3_1_head_judge_unlocks_a_locked_login_on_the_console(watched, head_api, pwa_server):
    """ASVS V6.3.1: the lockout is temporary, and the head judge can lift it at once."""
    made = head_api.http.post(
        "/api/accounts",
        headers=head_api.headers(),
        json={"username": "clumsy", "role": "auditor", "password": "clumsy-secret-1"},
    )
    assert made.status_code == 201
    http = httpx.Client(base_url=pwa_server.base, timeout=10)
    codes = [
        http.post("/api/login", json={"username": "clumsy", "password": "no"}).status_code
        for _ in range(11)
    ]
    assert codes[-1] == 429
    admin_login(watched, *ADMIN)
    watched.click("[data-unlock=clumsy]")
    watched.wait_for_function(
        "() => !document.querySelector('[data-lockout=clumsy]')"
        " && document.querySelector('[data-lockouts] li')"
    )
    assert head_api.get("/api/login-lockouts").json() == []
    again = http.post("/api/login", json={"username": "clumsy", "password": "clumsy-secret-1"})
    assert again.status_code == 201
    assert violations(watched) == []


def test_v6_2_3_staff_change_their_password_on_the_console(watched, head_api, pwa_server):
    made = head_api.http.post(
        "/api/accounts",
        headers=head_api.headers(),
        json={"username": "desk2", "role": "secretary", "password": "desk-secret-1"},
    )
    assert made.status_code == 201
    admin_login(watched, "desk2", "desk-secret-1")
    assert watched.locator("[data-lockouts]").count() == 0  # the head judge's control only
    watched.fill("#f-current-password", "desk-secret-1")
    watched.fill("#f-new-password", "desk-secret-2")
    watched.click("[data-password] button[type=submit]")
    watched.wait_for_function(
        "() => document.querySelector('[data-banner]')?.dataset.kind === 'ok'"
        " && !document.querySelector('[data-banner]').hidden"
    )
    http = httpx.Client(base_url=pwa_server.base, timeout=10)
    new = http.post("/api/login", json={"username": "desk2", "password": "desk-secret-2"})
    assert new.status_code == 201
    assert violations(watched) == []


def test_api_reference_works_offline_under_the_csp(watched, pwa_server):
    """Issue 14, point 8: /schema comes from the package — with every host but this server
    unreachable (a venue without internet), it lists the API under the strict policy."""
    outside: list[str] = []

    def only_here(route):
        if route.request.url.startswith(pwa_server.base):
            return route.continue_()
        outside.append(route.request.url)
        return route.abort()

    watched.route("**/*", only_here)
    response = watched.goto("/schema")
    assert response.headers["content-security-policy"].count("'unsafe-inline'") == 0
    commands = watched.locator(".api-op", has_text="/api/matches/{match_id}/commands")
    commands.first.wait_for()
    assert "POST" in commands.first.inner_text()
    watched.fill("#api-find", "checkpoints")
    visible = watched.locator(".api-op:visible")
    assert visible.count() >= 1 and all(
        "checkpoints" in visible.nth(i).inner_text() for i in range(visible.count())
    )
    assert outside == [] and violations(watched) == []


def test_the_backgammon_recorder_and_its_audit_replay_under_the_csp(watched, head_api):
    """The board (a constructed sheet in a shadow root), a tapped play, and the audit replay
    (a module imported on demand) run under the policy."""
    m = BgMatch(head_api, length=3)
    m.post({"type": "StartGame"}, {"type": "RollOpening", "die_a": 3, "die_b": 1})
    watched.goto(f"/backgammon?match={m.id}")
    watched.fill("#bg-user", ADMIN[0])
    watched.fill("#bg-pass", ADMIN[1])
    watched.click("[data-login] button[type=submit]")
    for point in (8, 5, 6, 5):
        watched.locator(f"bg-board button[data-own='{point}']").click()
    watched.click("[data-action=play]")
    watched.wait_for_function("() => document.getElementById('face').dataset.version === '4'")
    assert m.state()["board"]["turn"] == "B"
    token = head_api.token
    watched.evaluate(f"() => localStorage.setItem('tableside.audit-token', '{token}')")
    watched.goto(f"/audit/match/{m.id}")
    watched.wait_for_selector("bg-board [data-board]")
    assert violations(watched) == []


def test_the_backgammon_spectator_page_under_the_csp(watched, head_api):
    """The spectator's board, log and live feed (`/watch?match=<id>`) run under the policy."""
    m = BgMatch(head_api, length=3)
    m.post({"type": "StartGame"})
    watched.goto(f"/watch?match={m.id}")
    watched.wait_for_selector("section.spectator[data-live=true] bg-board [data-board]")
    m.post({"type": "RollOpening", "die_a": 6, "die_b": 2})
    watched.wait_for_selector("[data-log] li[data-type=BgOpeningRolled]")
    assert violations(watched) == []
