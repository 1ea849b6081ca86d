// The recorder of one backgammon match: reads the server's fold, posts one engine command per
// entry at the version it saw, and draws the face (board, clocks, the pad for the phase).
//
//   const rec = new Recorder(root, matchId);  await rec.load();
//   rec.send({ type: "Double", side: "A" })   // the server decides; a refusal is shown
//   rec.doc (board_doc), rec.match (the fold), rec.version, rec.entry (a play being tapped)
//   entries made elsewhere come on the live feed (bg-live.js) and are read at once (`refresh`)

import { citation, t } from "/js/i18n.js";
import { ApiError, describe, deviceId, request } from "/js/api.js";
import { h } from "/js/dom.js";
import "/js/bg-board.js";
import { PlayEntry } from "/js/bg-entry.js";
import { bgEventText } from "/js/bg-words.js";
import { clockPanel, pad, tickClocks } from "/js/bg-controls.js";
import { BgMatchFeed } from "/js/bg-live.js";

export class Recorder {
  constructor(root, id) {
    this.root = root;
    this.id = id;
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
  }

  /** Something recorded on another device (the TD's desk, a monitor) shows here at once: the
   *  live feed says the match moved on, and while nothing is being entered (else as soon as
   *  the face is idle again: `render` asks) it is read again. */
  async refresh(version = this.feed.version) {
    const busy = this.working || this.taps.length || this.opening || this.confirmUndo || this.entry?.moves.length;
    if (busy || this.reading || !this.doc || version <= this.version) return;
    const before = this.version;
    this.reading = true;
    try { await this.load(); } finally { this.reading = false; }
    if (this.version > before) this.refresh(); // the feed went on while this one was read
  }

  get url() { return `/api/backgammon/matches/${this.id}`; }

  get names() { return { A: this.doc?.players?.[0] || "A", B: this.doc?.players?.[1] || "B" }; }

  async load() {
    try {
      const reply = await request("GET", this.url);
      const plays = reply.board.phase === "move" ? await request("GET", `${this.url}/plays`) : null;
      if (plays && plays.version !== reply.version) return this.load(); // moved meanwhile
      Object.assign(this, { version: reply.version, doc: reply.board, match: reply.state, taps: [], opening: null });
      this.entry = plays?.side ? new PlayEntry(plays) : null;
    } catch (error) {
      this.say(error instanceof ApiError && error.status === 404 ? t("bg.no_match", { id: this.id })
        : describe(error), "problem");
    }
    this.render();
  }

  /** Post one command at the version on screen; then show the fold again. */
  async send(command) {
    this.working += 1;
    this.render();
    try {
      const reply = await request("POST", `${this.url}/commands`, {
        command_id: crypto.randomUUID(), expected_version: this.version, command,
        device_id: deviceId(), device_time: new Date().toISOString() });
      this.sayEvents(reply.events.map((e) => e.event));
    } catch (error) {
      this.say(describe(error), "problem");
    } finally {
      this.working -= 1;
    }
    await this.load();
  }

  sayEvents(events) {
    const last = events[events.length - 1];
    const words = events.map((e) => bgEventText(e, this.names)).join(" · ");
    this.say(last?.rule ? `${words} — ${citation(last.rule)}` : words, "ok");
  }

  say(text, tone) {
    this.said = { text, tone };
  }

  pickPoint(point) {
    if (!this.entry || this.working) return;
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
    this.root.dataset.working = String(this.working);
    this.root.replaceChildren(...[this.banner(), clockPanel(this), this.board, pad(this)].filter(Boolean));
    this.refresh(); // behind the feed after an entry elsewhere while this face was busy
  }

  banner() {
    const { text, tone } = this.said;
    return h("p", { class: `bg-banner tone-${tone || "none"}`, role: tone === "problem" ? "alert" : "status",
                    "data-banner": tone || "" }, text);
  }
}
