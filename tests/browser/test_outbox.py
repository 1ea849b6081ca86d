"""The IndexedDB outbox in Chromium against the real command endpoint.

Commands queue in order while offline, survive a reload and a browser restart, drain once
online, are never applied twice when a reply is lost, and a 409 holds the queue and tells
the app the server's version instead of dropping anything.
"""

from __future__ import annotations

import itertools
import random

import pytest
from support.harness import Api, wait_for
from support.play import create

from .harness import assert_readable_contrast, open_blank
from .plan import plan

# Loads the outbox into window.box, logging its events to window.log.
START = """async ({ token, interval, chain }) => {
  const api = await import('/js/api.js');
  const { Outbox, chainVersions } = await import('/js/outbox.js');
  await import('/js/sync-badge.js');
  api.setToken(token);
  window.log = [];
  const box = new Outbox({ interval, beforeSend: chain ? chainVersions : undefined });
  for (const type of ['sent', 'conflict', 'rejected', 'retry']) {
    box.addEventListener(type, (e) => window.log.push({ type, detail: e.detail }));
  }
  const badge = document.createElement('sync-badge');
  document.querySelector('header').append(badge);
  badge.outbox = box;
  window.box = box.start();
  await box.refresh();
}"""
ENQUEUE = """async ({ url, bodies }) => {
  const entries = [];
  for (const body of bodies) entries.push(await window.box.enqueue(url, body));
  return entries.map((e) => e.command_id);
}"""
QUEUED = "async () => (await window.box.entries()).map((e) => e.command_id)"


TABLES = itertools.count(10)


@pytest.fixture
def match(head_api: Api, pwa_server) -> dict:
    """A fresh match on its own table, a judge token for it, and 12 planned commands."""
    table = next(TABLES)
    rng = random.Random(3)  # this seed's first 12 commands hold no correction
    token = head_api.judge_token(table)["token"]
    match_id, view = create(head_api, table, rng)
    bodies, after = plan(view, rng, 12)
    assert len(bodies) == 12
    return {
        "id": match_id,
        "token": token,
        "bodies": bodies,
        "final": after.version,
        "url": f"/api/matches/{match_id}/commands",
    }


def open_judge(page, match: dict, interval: int = 500, chain: bool = False) -> None:
    open_blank(page)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.evaluate(START, {"token": match["token"], "interval": interval, "chain": chain})


def server_events(pwa_server, match: dict, version: int = 0) -> list[dict]:
    """The match's stored events (history read model), once it shows at least `version`."""

    def read() -> list[dict]:
        return Api(pwa_server.base).get(f"/api/matches/{match['id']}/history").json()

    # The read model follows the store a moment later; wait for it, then compare exactly.
    return wait_for(lambda: (rows := read()) and rows[-1]["version"] >= version and rows)


def wait_drained(page) -> None:
    page.wait_for_function("window.box.queued === 0 && !window.box.held", timeout=20000)


def test_order_kept_through_offline_reload_then_drained_once(page, context, pwa_server, match):
    open_judge(page, match)
    context.set_offline(True)
    ids = page.evaluate(ENQUEUE, {"url": match["url"], "bodies": match["bodies"]})
    assert len(set(ids)) == 12
    page.wait_for_selector("sync-badge[data-state=offline][data-count='12']")
    assert_readable_contrast(page)

    page.reload()  # offline: the service worker serves the shell, IndexedDB keeps the queue
    page.wait_for_selector("html[data-ready=true]")
    page.evaluate(START, {"token": match["token"], "interval": 500})
    assert page.evaluate(QUEUED) == ids
    assert len(server_events(pwa_server, match)) == 2  # nothing left the tablet

    context.set_offline(False)
    wait_drained(page)
    page.wait_for_selector("sync-badge[data-state=synced]")
    assert_readable_contrast(page)
    history = server_events(pwa_server, match, match["final"])
    assert history[-1]["version"] == match["final"] == len(history)
    sent = [
        entry["detail"]["entry"]["command_id"]
        for entry in page.evaluate("window.log")
        if entry["type"] == "sent"
    ]
    assert sent == ids


def test_lost_reply_is_retried_with_the_same_id_and_stored_once(page, pwa_server, match):
    seen: list[str] = []

    def lose_first_reply(route):
        seen.append(route.request.post_data_json["command_id"])
        reply = route.fetch()  # the server stores the command...
        if len(seen) == 1:
            route.abort("connectionreset")  # ...but the tablet never hears back
        else:
            route.fulfill(response=reply)

    page.route(f"**{match['url']}", lose_first_reply)
    open_judge(page, match)
    page.evaluate(ENQUEUE, {"url": match["url"], "bodies": match["bodies"][:3]})
    wait_drained(page)
    assert seen[0] == seen[1]  # the retry carried the same command_id
    assert len(set(seen)) == 3
    log = page.evaluate("window.log")
    assert [e["type"] for e in log].count("retry") == 1
    expected = match["bodies"][3]["expected_version"]
    history = server_events(pwa_server, match, expected)
    assert len(history) == history[-1]["version"] == expected  # nothing applied twice


def test_conflict_holds_the_queue_and_shows_the_server_version(page, pwa_server, match):
    open_judge(page, match)
    first, second = match["bodies"][:2]
    stale = {**second, "expected_version": 1}  # the server is already at 2
    page.evaluate(ENQUEUE, {"url": match["url"], "bodies": [stale, second]})
    page.wait_for_function("window.box.held !== null")
    conflict = next(e for e in page.evaluate("window.log") if e["type"] == "conflict")
    assert conflict["detail"]["status"] == 409
    assert conflict["detail"]["problem"]["current_version"] == 2
    assert page.evaluate("window.box.queued") == 2  # held, and the one behind it waits
    page.wait_for_selector("sync-badge[data-state=blocked]")
    assert_readable_contrast(page)

    page.reload()  # the hold survives a reload: it is stored with the entry
    page.wait_for_selector("html[data-ready=true]")
    page.evaluate(START, {"token": match["token"], "interval": 500})
    page.wait_for_function("window.log.some((e) => e.type === 'conflict')")
    held = page.evaluate("window.box.held.seq")
    # The app decides: send what should have come first (a new body gets a new id); the
    # command behind it was made for the version that leads to, so it goes through as well.
    page.evaluate("([seq, body]) => window.box.resolve(seq, { body })", [held, first])
    wait_drained(page)
    expected = match["bodies"][2]["expected_version"]
    history = server_events(pwa_server, match, expected)
    assert history[-1]["version"] == expected == len(history)


def test_rule_violation_is_reported_with_its_paragraph_and_dropped(page, match):
    open_judge(page, match)
    first = match["bodies"][0]
    again = {**first, "expected_version": match["bodies"][1]["expected_version"]}
    page.evaluate(ENQUEUE, {"url": match["url"], "bodies": [first, again]})
    page.wait_for_function("window.log.some((e) => e.type === 'rejected')")
    wait_drained(page)
    rejected = next(e for e in page.evaluate("window.log") if e["type"] == "rejected")
    problem = rejected["detail"]["problem"]
    assert rejected["detail"]["status"] == 422 and problem["rule"]
    line = page.evaluate(
        """async (problem) => {
      const api = await import('/js/api.js');
      return api.describe(new api.ApiError(422, problem));
    }""",
        problem,
    )
    assert problem["title"] in line and problem["rule"] in line


def test_queue_survives_a_browser_restart(persistent, pwa_server, match, tmp_path):
    browser = persistent(tmp_path / "profile")
    page = browser.pages[0]
    open_judge(page, match, interval=60000)
    browser.set_offline(True)
    ids = page.evaluate(ENQUEUE, {"url": match["url"], "bodies": match["bodies"][:4]})
    # A worker that controls the next start would answer the test's own blank page before
    # Playwright can; the outbox, not the worker, is under test here.
    page.evaluate("""navigator.serviceWorker.getRegistrations()
      .then((all) => Promise.all(all.map((r) => r.unregister())))""")
    browser.close()

    page = persistent(tmp_path / "profile").pages[0]
    open_judge(page, match)
    wait_drained(page)
    sent = wait_for(
        lambda: [
            e["detail"]["entry"]["command_id"]
            for e in page.evaluate("window.log")
            if e["type"] == "sent"
        ]
    )
    assert sent == ids
    expected = match["bodies"][4]["expected_version"]
    history = server_events(pwa_server, match, expected)
    assert history[-1]["version"] == expected == len(history)


def test_two_tabs_share_one_queue_and_send_each_command_once(context, pwa_server, match):
    posted: list[str] = []
    online = []

    def count(route):
        if not online:  # an attempt made offline never reaches the server: abort it here, or
            route.abort("internetdisconnected")  # it could go through once we are back online
            return
        posted.append(route.request.post_data_json["command_id"])
        route.continue_()

    context.route(f"**{match['url']}", count)
    first, second = context.new_page(), context.new_page()
    for tab in (first, second):
        open_judge(tab, match)
    context.set_offline(True)
    ids = first.evaluate(ENQUEUE, {"url": match["url"], "bodies": match["bodies"][:6]})
    second.wait_for_function("window.box.queued === 6")  # the other tab's badge knows too
    online.append(True)
    context.set_offline(False)
    for tab in (first, second):
        tab.evaluate("window.box.drain({ now: true })")
        wait_drained(tab)
    assert sorted(set(posted)) == sorted(ids) and len(posted) == len(ids)
    expected = match["bodies"][6]["expected_version"]
    history = server_events(pwa_server, match, expected)
    assert history[-1]["version"] == expected == len(history)


def test_overload_and_server_errors_are_retried_not_dropped(page, pwa_server, match):
    answers = [(503, {}), (429, {"Retry-After": "1"})]

    def flaky(route):
        if answers:
            status, headers = answers.pop(0)
            route.fulfill(status=status, headers=headers, body="")
        else:
            route.continue_()

    page.route(f"**{match['url']}", flaky)
    open_judge(page, match)
    page.evaluate(ENQUEUE, {"url": match["url"], "bodies": match["bodies"][:1]})
    wait_drained(page)
    retries = [e["detail"] for e in page.evaluate("window.log") if e["type"] == "retry"]
    assert [r["status"] for r in retries] == [503, 429]
    assert retries[1]["delay"] >= 1000  # the server's Retry-After is honoured
    expected = match["bodies"][1]["expected_version"]
    assert len(server_events(pwa_server, match, expected)) == expected


def test_offline_commands_follow_the_version_each_reply_ends_on(page, context, pwa_server, match):
    """A judge offline cannot know versions: null ones follow the previous acknowledgement."""
    bodies = [match["bodies"][0]] + [{**b, "expected_version": None} for b in match["bodies"][1:8]]
    open_judge(page, match, chain=True)
    context.set_offline(True)
    page.evaluate(ENQUEUE, {"url": match["url"], "bodies": bodies[:5]})
    context.set_offline(False)
    wait_drained(page)
    page.reload()  # the last acknowledgement is remembered for the ones queued after it
    page.wait_for_selector("html[data-ready=true]")
    page.evaluate(START, {"token": match["token"], "interval": 500, "chain": True})
    page.evaluate(ENQUEUE, {"url": match["url"], "bodies": bodies[5:]})
    wait_drained(page)
    assert not [e for e in page.evaluate("window.log") if e["type"] != "sent"]
    expected = match["bodies"][8]["expected_version"]
    history = server_events(pwa_server, match, expected)
    assert history[-1]["version"] == expected == len(history)
