// Every table of the venue, kept current by the live feed: used by the spectators' list and
// the venue screen.
//
//   import { TablesBoard } from "/js/spectator-tables.js";
//   const board = new TablesBoard(listElement, { href: (doc) => `/?match=${doc.match_id}` });
//   board.addEventListener("state", (e) => e.detail.state);   // live | reconnecting | …
//   board.addEventListener("change", () => board.docs());      // a table's match changed
//   board.addEventListener("score", (e) => e.detail.doc);      // games won or status changed
//   board.addEventListener("competition", (e) => e.detail);    // a competition's documents
//   board.start();
//
// One feed: the competition's, or for the whole venue the hall's (every match on every
// table, whoever called it; a delta carries the match's whole live document, and a table
// that starts its first match arrives as a delta, so nothing is rediscovered on a timer).
// The board is "live" only while its feed is; anything else is reported so the face can
// grey its live dots.

import { request } from "/js/api.js";
import { LiveFeed } from "/js/live.js";
import { matchCard, newer, newestPerTable, updateCard } from "/js/spectator-cards.js";

const ORDER = ["offline", "reconnecting", "connecting", "live"];

export class TablesBoard extends EventTarget {
  constructor(list, { href = null, competition = null } = {}) {
    super();
    this.list = list;
    this.href = href;
    this.competition = competition;
    this.cards = new Map(); // table number -> card element
    this.feeds = new Map(); // "competition:x" | "table:n" -> LiveFeed
    this.state = "connecting";
  }

  async start() {
    await this.discover();
    return this;
  }

  stop() {
    for (const feed of this.feeds.values()) feed.stop();
  }

  /** The newest live document of every table, in table order. */
  docs() {
    return [...this.cards.values()].map((card) => card.doc);
  }

  async discover() {
    // `competition` may name several, comma-separated (the venue screen's `?competition=a,b`).
    const ids = this.competition ? String(this.competition).split(",") : [];
    const queries = ids.length ? ids.map((id) => `?competition=${encodeURIComponent(id)}`) : [""];
    let docs = [];
    try {
      docs = (await Promise.all(queries.map((q) => request("GET", `/api/tables${q}`)))).flat();
    } catch {
      this.setState(navigator.onLine ? "reconnecting" : "offline");
      return;
    }
    for (const doc of docs) this.upsert(doc);
    for (const id of ids) this.follow("competition", id);
    if (!ids.length) this.follow("hall", "all");
    this.changed();
  }

  follow(kind, value) {
    const key = `${kind}:${value}`;
    if (this.feeds.has(key)) return;
    const feed = new LiveFeed({ [kind]: value });
    feed.addEventListener("snapshot", (e) => {
      for (const doc of newestPerTable(e.detail.matches || []).values()) this.upsert(doc);
      this.changed();
    });
    feed.addEventListener("delta", (e) => {
      if (e.detail.live) this.upsert(e.detail.live);
      this.changed();
    });
    feed.addEventListener("state", () => this.combine());
    feed.addEventListener("competition", (e) => {
      this.dispatchEvent(new CustomEvent("competition", { detail: e.detail }));
    });
    this.feeds.set(key, feed);
    feed.start();
  }

  upsert(doc) {
    if (doc?.table == null) return;
    this.leave(doc);
    const card = this.cards.get(doc.table);
    if (card) {
      if (!newer(doc, card.doc)) return;
      const before = card.doc;
      updateCard(card, doc);
      if (scoreChanged(before, doc)) {
        this.dispatchEvent(new CustomEvent("score", { detail: { doc } }));
      }
      if (this.href) card.href = this.href(doc);
      return;
    }
    const fresh = matchCard(doc, { href: this.href ? this.href(doc) : null });
    fresh.dataset.table = String(doc.table);
    const after = [...this.cards.keys()].filter((n) => n > doc.table).sort((a, b) => a - b)[0];
    this.list.insertBefore(fresh, after != null ? this.cards.get(after) : null);
    this.cards.set(doc.table, fresh);
  }

  /** A match moved to another table (decision 0207) leaves the card of the table it left. */
  leave(doc) {
    for (const [n, card] of this.cards) {
      if (n !== doc.table && card.doc?.match_id === doc.match_id) {
        card.remove();
        this.cards.delete(n);
      }
    }
  }

  combine() {
    const states = [...this.feeds.values()].map((feed) => feed.state);
    const worst = states.sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b))[0] || "live";
    this.setState(worst);
  }

  setState(state) {
    if (state === this.state) return;
    this.state = state;
    this.dispatchEvent(new CustomEvent("state", { detail: { state } }));
  }

  changed() {
    this.dispatchEvent(new CustomEvent("change"));
  }
}

/** True when a table's games won or its match's status differ (what is worth announcing). */
export function scoreChanged(before, doc) {
  if (!before || before.match_id !== doc.match_id) return Boolean(before);
  return String(before.won) !== String(doc.won) || before.status !== doc.status;
}

/** Show a feed state on a badge and mark `root` live or not (greys its live dots). */
export function showState(badge, root, state, t) {
  badge.dataset.state = state;
  badge.textContent = t(`live.${state}`);
  root.dataset.live = String(state === "live");
}
