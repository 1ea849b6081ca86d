"""The live-feed client against the real /live: snapshot, deltas, a drop, `after`, no repeats."""

from __future__ import annotations

import random

import pytest
from support.harness import Api, Server
from support.play import create

from .harness import open_blank
from .plan import plan

FOLLOW = """async (matchId) => {
  const { LiveFeed } = await import('/js/live.js');
  window.seen = { snapshots: [], deltas: [], states: [] };
  const feed = new LiveFeed({ match: matchId });
  feed.addEventListener('snapshot', (e) => window.seen.snapshots.push(e.detail.position));
  feed.addEventListener('delta', (e) => window.seen.deltas.push(e.detail.position));
  feed.addEventListener('state', (e) => window.seen.states.push(e.detail.state));
  window.feed = feed.start();
}"""


def post(api: Api, match_id: str, bodies: list[dict]) -> list[int]:
    """Send commands over HTTP; the global positions of the events they stored."""
    stored = []
    for body in bodies:
        reply = api.command(match_id, body["expected_version"], body["command"])
        assert reply.status_code == 201, reply.text
        stored += reply.json()["positions"]
    return stored


def test_reconnects_after_the_last_position_and_applies_nothing_twice(
    page, context, pwa_server, head_api
):
    table = 900
    rng = random.Random(3)
    judge = Api(pwa_server.base, head_api.judge_token(table)["token"])
    match_id, view = create(head_api, table, rng)
    bodies, _ = plan(view, rng, 8)
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))

    open_blank(page)
    page.evaluate(FOLLOW, match_id)
    page.wait_for_function("window.feed.state === 'live'")
    before = post(judge, match_id, bodies[:4])
    page.wait_for_function("(n) => window.feed.last >= n", arg=before[-1])

    context.set_offline(True)  # the hall's wifi drops; the judge goes on recording
    page.wait_for_function("window.feed.state === 'offline'")
    during = post(judge, match_id, bodies[4:])
    context.set_offline(False)
    everything = before + during
    page.wait_for_function(
        "(n) => window.feed.last >= n && window.feed.state === 'live'", arg=everything[-1]
    )

    seen = page.evaluate("window.seen")
    assert sockets[-1].endswith(f"after={before[-1]}")
    snapshot = seen["snapshots"][0]
    assert seen["deltas"] == [p for p in everything if p > snapshot]  # each once, in order
    assert seen["states"][:2] == ["connecting", "live"]
    assert "offline" in seen["states"] and seen["states"][-1] == "live"


def test_a_repeated_or_older_position_is_ignored(page, pwa_server, head_api):
    match_id, _ = create(head_api, 901, random.Random(3))
    open_blank(page)
    page.evaluate(FOLLOW, match_id)
    page.wait_for_function("window.feed.state === 'live'")
    applied = page.evaluate("""() => {
      const last = window.feed.last;
      for (const position of [last, last - 1, last + 1, last + 1]) {
        window.feed.receive({ kind: 'event', position, live: {} });
      }
      return window.seen.deltas;
    }""")
    last = page.evaluate("window.feed.last")
    assert applied[-1] == last and applied.count(last) == 1


def test_revoked_token_closes_the_feed_for_good(page, head_api):
    table = 902
    issued = head_api.judge_token(table)
    create(head_api, table, random.Random(3))
    open_blank(page)
    page.evaluate(
        """async ([table, token]) => {
      const { LiveFeed } = await import('/js/live.js');
      window.refused = null;
      const feed = new LiveFeed({ table }, { token });
      feed.addEventListener('refused', (e) => { window.refused = e.detail.code; });
      window.feed = feed.start();
    }""",
        [table, issued["token"]],
    )
    page.wait_for_function("window.feed.state === 'live'")
    head_api.http.delete(f"/api/judge-tokens/{issued['token_id']}", headers=head_api.headers())
    page.wait_for_function("window.refused !== null")
    assert page.evaluate("[window.refused, window.feed.state]") == [4401, "offline"]


def test_waking_from_sleep_reconnects_and_looks_stale_until_caught_up(page, head_api):
    match_id, _ = create(head_api, 903, random.Random(3))
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    open_blank(page)
    page.evaluate(FOLLOW, match_id)
    page.wait_for_function("window.feed.state === 'live'")
    # Pretend the tablet slept for a minute: hidden, then visible again.
    page.evaluate("""() => {
      let state = 'hidden';
      Object.defineProperty(document, 'visibilityState', { get: () => state });
      document.dispatchEvent(new Event('visibilitychange'));
      window.feed.hiddenAt -= 60000;
      state = 'visible';
      document.dispatchEvent(new Event('visibilitychange'));
    }""")
    page.wait_for_function("window.feed.state === 'live' && window.seen.states.length > 2")
    states = page.evaluate("window.seen.states")
    assert states == ["connecting", "live", "reconnecting", "live"]
    assert len(sockets) == 2 and "after=" in sockets[1]


def test_reconnects_are_spread_with_full_jitter(page):
    """A hall of phones that lost the same server comes back spread over the whole window:
    the n-th attempt waits between 0 and min(15 s, 1 s·2^(n−1)), not a fixed fraction of it."""
    open_blank(page)
    delays = page.evaluate("""async () => {
      const { reconnectDelay } = await import('/js/live.js');
      return [1, 2, 5, 9].map((n) => Array.from({ length: 400 }, () => reconnectDelay(n)));
    }""")
    for delays_n, cap in zip(delays, (1000, 2000, 15000, 15000), strict=True):
        assert 0 <= min(delays_n) < cap * 0.1 and cap * 0.9 < max(delays_n) <= cap
        assert len({round(d) for d in delays_n}) > 300  # spread, not a few fixed moments


@pytest.fixture(scope="module")
def restarting(pwa_server):
    """A second server on the suite's database whose /live the page may open (its origin
    allowed): it is stopped and started again under the page's feeds."""
    srv = Server(pwa_server.database_url, env={"TABLESIDE_ORIGINS": pwa_server.base}).start()
    yield srv
    srv.stop()


HALL = """async ([matchId, url, n]) => {
  const { LiveFeed } = await import('/js/live.js');
  window.hall = Array.from({ length: n }, () => {
    const seen = { snapshots: 0, deltas: [] };
    const feed = new LiveFeed({ match: matchId }, { url });
    feed.addEventListener('snapshot', () => { seen.snapshots += 1; });
    feed.addEventListener('delta', (e) => seen.deltas.push(e.detail.position));
    feed.seen = seen;
    return feed.start();
  });
}"""


def test_a_hall_of_feeds_resumes_after_a_server_restart(page, head_api, restarting):
    """Issue 42 point 3: 100 feeds on the restarted server come back by themselves (jittered
    backoff), each resuming with `after=` from the restarted hub's ring: every event stored
    before, during and after the restart arrives once, in order, and no feed needs a second
    snapshot."""
    table, n = 904, 100
    rng = random.Random(42)
    match_id, view = create(head_api, table, rng)
    bodies, _ = plan(view, rng, 10)
    open_blank(page)
    page.evaluate(HALL, [match_id, f"{restarting.ws}/live", n])
    page.wait_for_function("window.hall.every((f) => f.state === 'live')", timeout=60_000)
    snapshots = page.evaluate("window.hall.map((f) => f.last)")
    before = post(head_api, match_id, bodies[:3])
    page.wait_for_function(
        "(p) => window.hall.every((f) => f.last >= p)", arg=before[-1], timeout=60_000
    )
    restarting.stop()
    page.wait_for_function("window.hall.every((f) => f.state !== 'live')", timeout=60_000)
    during = post(head_api, match_id, bodies[3:7])
    restarting.start()
    after = post(head_api, match_id, bodies[7:])
    everything = before + during + after
    page.wait_for_function(
        "(p) => window.hall.every((f) => f.last >= p && f.state === 'live')",
        arg=everything[-1],
        timeout=90_000,
    )
    seen = page.evaluate("window.hall.map((f) => f.seen)")
    for first, got in zip(snapshots, seen, strict=True):
        assert got["snapshots"] == 1
        assert got["deltas"] == sorted(set(got["deltas"]))  # each once, in order
        assert [p for p in got["deltas"] if p > first] == everything
    page.evaluate("window.hall.forEach((f) => f.stop())")
