"""The live-feed client against the real /live: snapshot, deltas, a drop, `after`, no repeats."""

from __future__ import annotations

import random

from support.harness import Api
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
