// A backgammon match on the live feed (`/live?match=<id>`): the board and the latest events,
// kept current as they are stored — for the spectator's match page and the recorder (an entry
// made on another device shows at once). One LiveFeed underneath: snapshot, resume with
// `after`, nothing twice (live.js).
//
//   import { BgMatchFeed } from "/js/bg-live.js";
//   const feed = new BgMatchFeed(matchId).start();
//   feed.addEventListener("change", () => { feed.board; feed.version; feed.log(); });
//   feed.addEventListener("state", (e) => e.detail.state);   // connecting|live|reconnecting|offline
//   feed.addEventListener("missing", (e) => …);              // no such match (reason "origin": this address gets no feed)
//   feed.stop();
//   feed.barred  // { code, rule } while the TD bars spectators at a player's request (KSI 1.6.4):
//                // the public feed then says that and nothing of the match (board null)
//
// An entry is what the server sent of one stored event: { position, version, type, rule,
// event, recorded_at } — `bgEventText(entry.event, names)` words it (bg-words.js).

import { LiveFeed } from "/js/live.js";

const KEEP = 200; // events kept for the log (the snapshot brings the last 30 and every dispute)
// a match's disputes stay in the log to its end, however long (KSI 5, 1.3.3)
const DISPUTE = new Set(["BgTDCalled", "BgRulingGiven", "BgAppealLodged", "BgTestimonyRecorded",
  "BgMonitorAppointed", "BgMonitorReported", "BgAppealDecided", "BgRulingOverturned",
  "BgPlayerExpelled"]);

export class BgMatchFeed extends EventTarget {
  constructor(id, { keep = KEEP } = {}) {
    super();
    this.id = id;
    this.keep = keep;
    this.board = null;
    this.barred = null;
    this.version = 0;
    this.entries = new Map(); // version → entry
    this.live = new LiveFeed({ match: id });
    this.live.addEventListener("snapshot", (e) => this.snapshot(e.detail));
    this.live.addEventListener("delta", (e) => this.delta(e.detail));
    this.live.addEventListener("state", (e) => this.emit("state", e.detail));
    this.live.addEventListener("refused", (e) => this.emit("missing", { reason: e.detail.reason }));
  }

  get state() { return this.live.state; }

  start() {
    this.live.start();
    return this;
  }

  stop() { this.live.stop(); }

  /** The board document (view.board_doc) at its version, and the last events before it. */
  snapshot(message) {
    const bg = message.backgammon;
    if (!bg) return this.emit("missing", {});
    this.barred = bg.barred ? { code: bg.code, rule: bg.rule } : null;
    this.entries = new Map(bg.entries.map((entry) => [entry.version, entry]));
    this.update(bg.board, bg.version);
  }

  /** One stored event and the board after it. */
  delta(message) {
    if (message.discipline !== "backgammon") return;
    if (message.barred) { // KSI 1.6.4: an event happened; nothing of it is shown
      this.barred = { code: message.code, rule: message.rule };
      this.entries = new Map();
      return this.update(null, message.version);
    }
    this.barred = null;
    const { position, version, type, rule, event, recorded_at } = message;
    this.entries.set(version, { position, version, type, rule, event, recorded_at });
    for (const [old, entry] of this.entries) {
      if (this.entries.size <= this.keep) break;
      if (!DISPUTE.has(entry.type)) this.entries.delete(old);
    }
    this.update(message.board, version);
  }

  update(board, version) {
    this.board = board;
    this.version = version;
    this.emit("change", { version });
  }

  /** The entries in the order they were stored. */
  log() {
    return [...this.entries.values()].sort((a, b) => a.version - b.version);
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
}
