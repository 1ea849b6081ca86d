// The live feed: a websocket to /live that keeps a face current, and says when it is not.
//
//   import { LiveFeed } from "/js/live.js";
//   const feed = new LiveFeed({ table: 4 });  // or { match: id } / { competition: id } / { hall: "all" }
//   feed.addEventListener("snapshot", (e) => e.detail.matches);  // live documents, position
//   feed.addEventListener("delta", (e) => e.detail);   // { position, match_id, type, event, live }
//   feed.addEventListener("competition", (e) => e.detail);  // { version, doc, standings } (whole)
//   feed.addEventListener("state", (e) => e.detail.state);  // connecting|live|reconnecting|offline
//   new LiveFeed({ venue, stream }, { url })  // the federation's relay; "venue": its notice
//   feed.start(); … feed.stop();
//
// The server sends a snapshot with its position, then deltas in position order, and a
// `caught_up` marker once the backlog is out. After a drop we reconnect with
// `after=<last position applied>`: the server replays the gap (from its ring of recent
// deltas; further behind, a fresh snapshot), so nothing is missed. A delta at or below the
// last position is ignored, so nothing is applied twice.
// Only "live" means the face shows the present; in every other state it must look stale.
// A socket can die without a word (wifi roamed, a NAT forgot it): a live feed quiet for
// QUIET_MS sends {type: "ping"} and is replaced if no answer comes in ANSWER_MS; a face whose
// own command the server answered calls `expect(position)`, which replaces the socket sooner
// when it does not bring that position.
//
// A judge's feed authenticates without putting the token in the URL (proxies log URLs): it
// asks for the `tableside.auth` subprotocol and sends {type: "auth", token} as its first
// message; the server closes with 4401 for a bad, expired or revoked token.

// Reconnects are spread with "full jitter": the n-th attempt in a row waits a random time
// between 0 and min(MAX_DELAY, FIRST_DELAY·2^(n−1)), so a hall of phones that lost the same
// server at the same moment (a restart, the wifi back) comes back spread over that window,
// not all at once, and each resumes with `after=` the last position it applied.
const FIRST_DELAY = 1000;
const MAX_DELAY = 15000;
// A tablet that slept this long may hold a socket that died silently: start afresh on waking.
const SLEPT = 5000;
// A position the server has answered as stored (a judge's own stroke) that a live socket has
// not brought this long after: the socket died silently (wifi roamed, a NAT forgot it).
const EXPECTED_MS = 3000;
// A browser sees no protocol pings, so a quiet match and a dead socket look alike: a live
// socket silent this long is asked for a pong, and replaced if none comes in ANSWER_MS (the
// venue screen on the wall all day, a spectator's phone).
const QUIET_MS = 25000;
const ANSWER_MS = 10000;
import { liveUrl, moveOn } from "/js/api.js";

const AUTH_PROTOCOL = "tableside.auth";

/** How long the n-th failed connect in a row waits before the next (full jitter). */
export function reconnectDelay(failures, random = Math.random) {
  return random() * Math.min(MAX_DELAY, FIRST_DELAY * 2 ** Math.max(0, failures - 1));
}

export class LiveFeed extends EventTarget {
  /** filter: exactly one of { match, table, competition, hall }; token: optional judge token. */
  constructor(filter, { token = null, url = null } = {}) {
    super();
    const [kind, value] = Object.entries(filter).find(([, v]) => v != null) || [];
    if (!["match", "table", "competition", "hall", "venue"].includes(kind)) throw new Error("LiveFeed needs match, table, competition, hall or venue");
    this.query = `${kind}=${encodeURIComponent(value)}`;
    // the federation's relay (`url` its /api/federation/live): a venue, one match of it
    if (kind === "venue" && filter.stream) this.query += `&stream=${encodeURIComponent(filter.stream)}`;
    this.token = token;
    this.fixed = url; // else the venue's server answering now (api.js), looked up per connect
    this.last = null; // position of the last snapshot or delta applied
    this.state = "offline";
    this.failures = 0;
    this.stopped = true;
    this.quietMs = QUIET_MS;
    this.answerMs = ANSWER_MS;
  }

  /** The URL for the next connection: with `after` once anything has been applied. */
  get url() {
    let url = `${this.fixed || liveUrl()}?${this.query}`;
    if (this.last != null) url += `&after=${this.last}`;
    return url;
  }

  start() {
    this.stopped = false;
    this.onOnline = () => this.reconnectNow();
    this.onOffline = () => this.socket?.close();
    this.onVisibility = () => this.wokeUp();
    addEventListener("online", this.onOnline);
    addEventListener("offline", this.onOffline);
    document.addEventListener("visibilitychange", this.onVisibility);
    this.connect();
    this.watch();
    return this;
  }

  /** Check the socket's silence every few seconds (again after quietMs/answerMs change). */
  watch() {
    clearInterval(this.watchdog);
    this.watchdog = setInterval(() => this.checkQuiet(), Math.min(this.quietMs, this.answerMs) / 2);
  }

  checkQuiet() {
    if (this.state !== "live" || !this.socket) return;
    const now = Date.now();
    if (this.pinged != null) {
      if (now - this.pinged > this.answerMs) this.replace();
    } else if (now - this.heard > this.quietMs) {
      this.pinged = now;
      try { this.socket.send(JSON.stringify({ type: "ping" })); } catch { this.replace(); }
    }
  }

  stop() {
    this.stopped = true;
    removeEventListener("online", this.onOnline);
    removeEventListener("offline", this.onOffline);
    document.removeEventListener("visibilitychange", this.onVisibility);
    clearTimeout(this.timer);
    clearTimeout(this.expecting);
    clearInterval(this.watchdog);
    this.socket?.close();
    this.setState("offline");
  }

  /** The server has stored `position` where this feed looks (a reply to the face's own
   *  command said so): if a live socket has not brought it within EXPECTED_MS, it died
   *  silently and is replaced (with `after`, so nothing is lost) — sooner than the quiet
   *  ping would find out. */
  expect(position) {
    this.expected = Math.max(this.expected ?? 0, position);
    if (this.expecting) return; // one check at a time: taps every second never postpone it
    this.expecting = setTimeout(() => {
      this.expecting = null;
      const behind = (this.last ?? 0) < this.expected;
      if (behind && this.socket && this.state === "live" && !this.stopped) this.replace();
    }, EXPECTED_MS);
  }

  connect() {
    if (this.stopped) return;
    if (!navigator.onLine) return this.setState("offline");
    this.setState(this.last == null && !this.failures ? "connecting" : "reconnecting");
    const socket = this.token ? new WebSocket(this.url, [AUTH_PROTOCOL]) : new WebSocket(this.url);
    this.socket = socket;
    if (this.token) socket.onopen = () => socket.send(JSON.stringify({ type: "auth", token: this.token }));
    this.heard = Date.now();
    this.pinged = null;
    this.answered = false;
    socket.onmessage = (message) => {
      this.answered = true;
      this.heard = Date.now(); // anything at all, a pong too, says the socket is alive
      this.pinged = null;
      this.receive(JSON.parse(message.data));
    };
    socket.onclose = (event) => this.closed(socket, event);
  }

  receive(message) {
    this.apply(message);
    // The head the feed has shown: how far a signed checkpoint may plausibly be (checkpoint-witness.js).
    if (this.last > (globalThis.tablesideFeedHead || 0)) globalThis.tablesideFeedHead = this.last;
  }

  apply(message) {
    if (message.kind === "snapshot") {
      this.last = message.position ?? 0;
      this.emit("snapshot", message);
    } else if (message.kind === "caught_up") {
      // Everything up to here is out: from now on the face shows the present.
      this.failures = 0;
      if (message.position != null && message.position > (this.last ?? -1)) this.last = message.position;
      this.setState("live");
    } else if (message.kind === "venue") {
      // The federation's word on the venue (online, or offline since a time): whole, not a delta.
      this.emit("venue", message);
    } else if (message.kind === "competition") {
      // A competition's documents, whole (standings, bracket, calls, results): not a delta,
      // so not ordered by position; the face keeps the highest `version` it has seen.
      this.emit("competition", message);
    } else if (message.position != null) {
      if (this.last != null && message.position <= this.last) return; // seen: never twice
      this.last = message.position;
      this.emit("delta", message);
    }
  }

  closed(socket, event) {
    if (socket !== this.socket || this.stopped) return;
    this.socket = null;
    if (event.code >= 4400 && event.code < 4500) {
      // Refused (bad filter, forbidden origin, revoked token): retrying cannot help.
      this.emit("refused", { code: event.code, reason: event.reason });
      return this.setState("offline");
    }
    if (!navigator.onLine) return this.setState("offline");
    // A server that never answered this socket may be gone: the venue's next one is tried.
    if (!this.fixed && !this.answered) moveOn();
    this.failures += 1;
    this.setState("reconnecting");
    this.timer = setTimeout(() => this.connect(), reconnectDelay(this.failures));
  }

  wokeUp() {
    if (document.visibilityState === "hidden") {
      this.hiddenAt = Date.now();
    } else if (this.socket && Date.now() - (this.hiddenAt ?? Infinity) > SLEPT) {
      this.hiddenAt = null;
      this.replace();
    }
  }

  /** Drop the socket without waiting for a close handshake that may never come, and
   *  reconnect (with `after`: nothing is lost). The face looks stale until the server says
   *  we are caught up. */
  replace() {
    const old = this.socket;
    this.socket = null;
    old.onmessage = null;
    old.close();
    this.failures += 1; // so the state reads "reconnecting", not "connecting"
    this.connect();
  }

  /** The network is back: reconnect soon, at a moment of this device's own (every phone of
   *  the hall sees its wifi come back at once). */
  reconnectNow() {
    clearTimeout(this.timer);
    this.failures = 0;
    if (!this.socket) this.timer = setTimeout(() => this.connect(), Math.random() * FIRST_DELAY);
  }

  setState(state) {
    if (state === this.state) return;
    this.state = state;
    this.emit("state", { state });
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
}
