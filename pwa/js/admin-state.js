// The console's connection to one competition: its document (pushed by the live feed), the
// hall's tables — every match on them, of any competition or none, and what holds each
// (re-read when a match on one starts or ends, from the hall's feed) — and commands posted at
// the version last seen.
//
//   const desk = new Desk(id); desk.addEventListener("change", render); desk.start();
//   await desk.command({ type: "MakeDraw", seed: 7 });   // 409 → refresh and try once more;
//                                                        // no answer → the same command again

import { request, ApiError } from "/js/api.js";
import { LiveFeed } from "/js/live.js";

export class Desk extends EventTarget {
  constructor(id) {
    super();
    this.id = id;
    this.doc = null;
    this.tables = []; // the live document of every table's latest match, any competition
    this.hall = []; // what holds each busy table (GET /api/hall): a table not listed is free
    this.queue = []; // every competition's matches waiting for a table (GET /api/hall/queue)
    this.bgTables = []; // the backgammon match being played on each table that plays one
    this.version = 0;
    this.standings = null; // { version, rows } as last pushed
    this.feed = null;
    this.hallFeed = null;
    this.hallAt = 0; // the newest position of the log a hall read was asked at
    this.hallAsked = 0; // hall reads asked, and the newest of them shown
    this.hallShown = 0;
  }

  /** Read once, then follow the competition's live feed (its documents come whole whenever
   *  they change) and the hall's (a match on any table starting or ending, whoever called it,
   *  re-reads the tables). No timer. */
  start() {
    this.refresh();
    this.feed = new LiveFeed({ competition: this.id });
    this.feed.addEventListener("competition", (e) => {
      this.standings = { version: e.detail.version, rows: e.detail.standings };
      this.adopt(e.detail.doc);
    });
    this.feed.start();
    this.hallFeed = new LiveFeed({ hall: "all" });
    this.hallFeed.addEventListener("snapshot", (e) => this.tablesMoved(e.detail.matches || [], e.detail.position));
    this.hallFeed.addEventListener("delta", (e) => {
      if (e.detail.live) this.tablesMoved([e.detail.live], e.detail.position);
    });
    this.hallFeed.start();
    return this;
  }

  stop() { this.feed?.stop(); this.hallFeed?.stop(); }

  /** The hall's tables and what holds them, as of a position of the log: at least the newest
   *  position this console has seen, so a read asked later is never older than one asked
   *  before it; and one answered after a later one (a busy hall wifi answers in any order)
   *  is dropped, never shown over the newer. */
  async readHall(position = 0) {
    this.hallAt = Math.max(this.hallAt, position || 0);
    const at = this.hallAt ? `?min_position=${this.hallAt}` : "";
    const asked = ++this.hallAsked;
    const read = await Promise.all([
      request("GET", `/api/tables${at}`), request("GET", `/api/hall${at}`),
      request("GET", `/api/hall/queue${at}`), request("GET", `/api/backgammon/tables${at}`)]);
    if (asked < this.hallShown) return;
    this.hallShown = asked;
    [this.tables, this.hall, this.queue, this.bgTables] = read;
  }

  async refresh() {
    try {
      const [doc] = await Promise.all([request("GET", `/api/competitions/${this.id}`), this.readHall()]);
      this.adopt(doc, true);
    } catch (error) {
      this.dispatchEvent(new CustomEvent("error", { detail: error }));
    }
  }

  /** Keep a newer document; re-render when it is newer or the tables changed. */
  adopt(doc, tablesChanged = false) {
    const newer = !this.doc || doc.version > this.doc.version;
    if (newer) {
      this.doc = doc;
      this.version = Math.max(this.version, doc.version);
    }
    if (newer || tablesChanged) this.dispatchEvent(new Event("change"));
  }

  /** Re-read the tables when a match on one starts, ends or changes table (not per stroke),
   *  as of the position the feed reported (the tables read model may lag a moment). */
  async tablesMoved(docs, position) {
    const known = (d) => this.tables.find((row) => row.table === d.table);
    const moved = docs.some((d) => d.table != null
      && (known(d)?.match_id !== d.match_id || known(d)?.status !== d.status));
    if (!moved) return;
    try {
      await this.readHall(position);
      if (this.doc) this.dispatchEvent(new Event("change"));
    } catch (error) {
      this.dispatchEvent(new CustomEvent("error", { detail: error }));
    }
  }

  /** Post a command; on a stale version (results flow in all the time) retry at the new one.
   *  `stored(reply)` is told as soon as the server has stored it, before the read-back. */
  async command(command, { attempts = 3, stored } = {}) {
    let body = { command_id: crypto.randomUUID(), expected_version: this.version, command: { at: "", ...command } };
    for (let i = 1; ; i++) {
      try {
        const reply = await request("POST", `/api/competitions/${this.id}/commands`, body);
        this.version = reply.last_version;
        stored?.(reply);
        // Stored either way; if the read model is slow (503), the feed brings it when it is there.
        await this.settle(reply.positions.at(-1)).catch(() => {});
        return reply;
      } catch (error) {
        // A stale version is tried again at the current one. A hall refusal (409 table_busy,
        // no_free_table, no_free_block, nothing_to_call) carries no current_version and is the
        // TD's to read. No answer (the hall's wifi, a server busy or restarting) is sent again
        // as it was: its command_id makes a second arrival answer what the first stored.
        const stale = error instanceof ApiError && error.status === 409
          && error.problem?.current_version != null;
        const unanswered = error instanceof ApiError && error.retryable;
        if (!(stale || unanswered) || i >= attempts) throw error;
        if (stale) {
          this.version = error.problem.current_version;
          body = { ...body, command_id: crypto.randomUUID(), expected_version: this.version };
        } else {
          await new Promise((resolve) => setTimeout(resolve, 400 * i));
        }
      }
    }
  }

  /** Read our own write: wait for the read model to reach a position, then re-render (a
   *  call changes what holds the hall's tables, so those are read again too). */
  async settle(position) {
    const [doc] = await Promise.all([
      request("GET", `/api/competitions/${this.id}?min_position=${position}`), this.readHall(position)]);
    this.adopt(doc, true);
  }
}
