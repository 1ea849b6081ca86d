// The recorder of one backgammon match: reads the server's fold, queues one engine command per
// entry in the outbox (outbox.js, the judge's: IndexedDB, sent in order, once, by command_id)
// at the version it saw, and draws the face (board, clocks, the pad for the phase).
//
//   const rec = new Recorder(root, matchId, outbox, { table, device });  await rec.load();
//   (`device`: the table's device, the players' or the monitor's: the TD's forms are not offered)
//   rec.send({ type: "Double", side: "A" })   // the server decides; a refusal is shown
//   rec.served (board_doc), rec.doc (it with the queued entries carried out, bg-offline.js),
//   rec.match (the fold), rec.version, rec.entry (a play being tapped), rec.pending (queued)
//   entries made elsewhere come on the live feed (bg-live.js) and are read at once (`refresh`)
//
// Offline the entries wait in the outbox (shown, in words, under the pad) and the face goes on
// from the predicted board as far as the outcome is certain; a reload keeps them (the fold is
// kept in localStorage). A 409 (another device recorded meanwhile) holds the queue: the face
// says what the other device recorded and what waits here, and the recorder sends his after
// theirs or discards them. Nothing is dropped without being said.

import { t } from "/js/i18n.js";
import { ApiError, describe, request } from "/js/api.js";
import { h, morph } from "/js/dom.js";
import "/js/bg-board.js";
import { PlayEntry } from "/js/bg-entry.js";
import { bgEventText, ruleWords } from "/js/bg-words.js";
import { tdSheet } from "/js/bg-td.js";
import { clockPanel, pad, tickClocks } from "/js/bg-controls.js";
import { commandText, predict } from "/js/bg-offline.js";
import { syncPanel } from "/js/bg-sync.js";
import { BgMatchFeed } from "/js/bg-live.js";

const LEAVE_MS = 6000; // a table's device shows a confirmed result this long before going back

export class Recorder {
  constructor(root, id, outbox, { table = null, device = false } = {}) {
    this.root = root;
    this.id = id;
    this.outbox = outbox;
    this.table = table;
    this.device = device;
    this.pending = []; // this match's entries waiting in the outbox, oldest first
    this.expect = new Set(); // command_ids sent online whose reply is awaited
    this.held = null; // a conflict: { seq, current, changes: [words], mine: [words] }
    this.served = null;
    this.doc = null;
    this.match = null;
    this.version = 0;
    this.entry = null;
    this.taps = []; // dice tapped so far (one per die)
    this.opening = null; // the opening roll's dice tapped so far, by side
    this.working = 0;
    this.said = { text: "", tone: "" };
    this.board = h("bg-board", { "data-bg-board": "" });
    this.board.addEventListener("pick", (e) => this.pickPoint(e.detail.point));
    this.timer = setInterval(() => tickClocks(this), 250);
    this.feed = new BgMatchFeed(id).start();
    this.feed.addEventListener("change", (e) => this.refresh(e.detail.version));
    outbox.addEventListener("change", () => this.refreshPending());
    outbox.addEventListener("sent", (e) => this.onSent(e.detail));
    outbox.addEventListener("rejected", (e) => this.onRejected(e.detail));
    outbox.addEventListener("conflict", (e) => this.onConflict(e.detail));
    outbox.addEventListener("retry", () => { this.expect.clear(); this.render(); });
  }

  /** Taps being queued plus entries sent and not yet answered: the pad waits for them. */
  get busy() { return this.working + this.expect.size; }

  /** Dice or checkers tapped and not yet sent: a read of the same version keeps them. */
  get entering() { return Boolean(this.taps.length || this.opening || this.entry?.started); }

  get commandsUrl() { return `${this.url}/commands`; }

  ours(entry) { return entry?.url === this.commandsUrl; }

  async refreshPending() {
    this.pending = (await this.outbox.entries()).filter((e) => this.ours(e));
    if (!this.ours(this.outbox.held)) this.held = null;
    this.predicted();
    this.render();
  }

  /** The served board with the queued entries carried out (none while a conflict holds them). */
  predicted() {
    const waiting = this.held ? [] : this.pending.map((e) => e.body.command);
    this.doc = predict(this.served, waiting);
    if (waiting.length) this.entry = null; // the legal orders were for the served board
    else if (this.served && !this.entry && this.plays?.version === this.version) this.entry = new PlayEntry(this.plays);
  }

  async onSent({ entry, reply }) {
    if (!this.ours(entry)) return;
    this.expect.delete(entry.command_id);
    this.feed.live.expect(reply.positions?.at(-1) || 0); // a feed that never brings it is dead
    this.sayEvents(reply.events.map((e) => e.event));
    await this.load();
  }

  async onRejected({ entry, status, problem }) {
    if (!this.ours(entry)) return;
    this.expect.delete(entry.command_id);
    const what = commandText(entry.body.command, this.names);
    const refusal = new ApiError(status, { ...problem, rule: ruleWords(problem?.rule) });
    this.say(`${t("bg.sync.rejected", { what })} — ${describe(refusal)}`, "problem");
    await this.load();
  }

  /** Another device recorded meanwhile: say what, in words, beside what waits here. */
  async onConflict({ entry, problem }) {
    if (!this.ours(entry)) return;
    this.expect.clear();
    const from = entry.body.expected_version ?? this.version;
    const events = await request("GET", `/api/matches/${this.id}/events?after=${from}`).catch(() => []);
    await this.refreshPending();
    this.held = { seq: entry.seq, current: problem?.current_version ?? null,
                  changes: events.map((e) => bgEventText(e.event, this.names)),
                  mine: this.pending.map((e) => commandText(e.body.command, this.names)) };
    await this.load();
  }

  /** After a conflict: the held entry goes after the other device's, the rest chain on it. */
  async sendMine() {
    const held = this.pending.find((e) => e.seq === this.held?.seq);
    if (!held) return;
    const current = this.held.current ?? (await request("GET", this.url)).version;
    this.held = null;
    await this.outbox.resolve(held.seq, { body: { ...held.body, expected_version: current } });
  }

  /** After a conflict: what waits here is not wanted (the other device recorded it). */
  async discardMine() {
    const seqs = this.pending.map((e) => e.seq);
    this.held = null;
    for (const seq of seqs) await this.outbox.discard(seq);
    this.say(t("bg.sync.discarded", { count: seqs.length }), "ok");
    await this.load();
  }

  /** Something recorded on another device (the TD's desk, a monitor) shows here at once: the
   *  live feed says the match moved on, and while nothing is being entered or waits in the
   *  outbox (else as soon as the face is idle again: `render` asks) it is read again. */
  async refresh(version = this.feed.version) {
    const busy = this.busy || this.pending.length || this.entering || this.confirmUndo;
    if (busy || this.reading || !this.doc || version <= this.version) return;
    const before = this.version;
    this.reading = true;
    try { await this.load(); } finally { this.reading = false; }
    if (this.version > before) this.refresh(); // the feed went on while this one was read
  }

  get url() { return `/api/backgammon/matches/${this.id}`; }

  get names() { return { A: this.doc?.players?.[0] || "A", B: this.doc?.players?.[1] || "B" }; }

  get keptKey() { return `tableside.bg.fold.${this.id}`; }

  async load() {
    try {
      const reply = await request("GET", this.url);
      const plays = reply.board.phase === "move" ? await request("GET", `${this.url}/plays`) : null;
      if (plays && plays.version !== reply.version) return this.load(); // moved meanwhile
      this.show(reply, plays);
      // Kept for a reload without wifi (the worker has the app, this has the match).
      try { localStorage.setItem(this.keptKey, JSON.stringify({ reply, plays })); } catch { /* memory */ }
    } catch (error) {
      const kept = error.status === 0 && !this.served ? JSON.parse(localStorage.getItem(this.keptKey) || "null") : null;
      if (kept) this.show(kept.reply, kept.plays);
      else if (error.status !== 0 || !this.served) this.say(error.status === 404 ? t("bg.no_match", { id: this.id }) : describe(error), "problem");
    }
    await this.refreshPending();
  }

  /** A reply read: the dice and checkers being tapped stay when it is the version they were
   *  tapped on (a read the feed started crossing the judge's tap), and go when the match moved. */
  show(reply, plays) {
    const moved = reply.version !== this.version || !this.served;
    Object.assign(this, { version: reply.version, served: reply.board, match: reply.state });
    this.plays = plays?.side ? plays : null;
    if (!moved && this.entering) return;
    Object.assign(this, { taps: [], opening: null });
    this.entry = this.plays ? new PlayEntry(this.plays) : null;
  }

  /** Queue one command at the version on screen (or, behind queued ones, at the version the
   *  one before it ends on: chainVersions); the outbox sends it when it can. */
  async send(command) {
    this.working += 1;
    this.render();
    try {
      const behind = this.pending.length > 0;
      const body = { expected_version: behind ? null : this.version, command };
      const entry = await this.outbox.enqueue(this.commandsUrl, body);
      if (navigator.onLine) this.expect.add(entry.command_id);
      else this.say(t("bg.sync.queued"), "queued");
    } catch (error) {
      this.say(describe(error), "problem");
    } finally {
      this.working -= 1;
    }
    this.render();
  }

  /** Once: after `LEAVE_MS` showing what is on screen, the device goes to `url`. */
  leaveSoon(url) {
    this.leaving ??= setTimeout(() => location.replace(url), LEAVE_MS);
  }

  sayEvents(events) {
    const last = events[events.length - 1];
    const words = events.map((e) => bgEventText(e, this.names)).join(" · ");
    this.say(last?.rule ? `${words} — ${ruleWords(last.rule)}` : words, "ok");
  }

  say(text, tone) {
    this.said = { text, tone };
  }

  pickPoint(point) {
    if (!this.entry || this.busy) return;
    this.entry.pick(point);
    this.render();
  }

  /** A die tapped: the second one sends the roll (`make` builds the command from the two). */
  tapDie(value, make) {
    this.taps = [...this.taps, value];
    if (this.taps.length < 2) return this.render();
    const [first, second] = this.taps;
    this.taps = [];
    return this.send(make(first, second));
  }

  render() {
    if (!this.doc) {
      this.root.replaceChildren(this.banner());
      return;
    }
    this.board.data = this.entry ? this.entry.preview(this.doc) : this.doc;
    this.board.marks = this.entry?.marks || null;
    this.root.dataset.version = String(this.version);
    this.root.dataset.working = String(this.busy);
    this.root.dataset.pending = String(this.pending.length);
    const active = document.activeElement;
    // In place: a die or button under the judge's thumb when the feed redraws stays that node.
    morph(this.root, [this.banner(), clockPanel(this), this.board,
      this.held ? null : pad(this), syncPanel(this), tdSheet(this)].filter(Boolean));
    if (active && active !== document.activeElement && this.root.contains(active)) active.focus();
    this.refresh(); // behind the feed after an entry elsewhere while this face was busy
  }

  banner() {
    const { text, tone } = this.said;
    // Focusable: on a phone a long message scrolls inside its two lines (keyboard too).
    return h("p", { class: `bg-banner tone-${tone || "none"}`, role: tone === "problem" ? "alert" : "status",
                    "data-banner": tone || "", tabindex: text ? "0" : null }, text);
  }
}
