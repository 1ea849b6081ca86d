// The venue screen at `/screen`: every table in large type, readable from 10 m; when more
// tables are playing than fit, it pages through them; below, the matches just called to
// their tables. `?every=<seconds>` sets the paging interval (default 8); `?competition=<id>`
// shows only that competition's tables.
//
// Cards are the spectators' (spectator-cards.js) laid out as rows by screen.css; the feed and
// its stale state are the spectators' too (spectator-tables.js).

import { i18n, t } from "/js/i18n.js";
import { scoreLine, tableText, updateCard } from "/js/spectator-cards.js";
import { showState, TablesBoard } from "/js/spectator-tables.js";
import { el } from "/js/spectator-dom.js";
import { say } from "/js/announce.js";
import { request } from "/js/api.js";
import { standingsTable } from "/js/spectator-competition.js";
import { bgMatchList } from "/js/spectator-bg.js";
import { screenBgCard } from "/js/screen-bg.js";

const main = document.getElementById("face");
const params = new URLSearchParams(location.search);
const EVERY = Math.max(1, Number(params.get("every")) || 8) * 1000;

class Screen {
  constructor(root) {
    this.root = root;
    this.badge = el("span", { class: "live-state", role: "status" });
    this.pageLabel = el("span", { class: "page-label", "data-page": "" });
    this.list = el("div", { class: "screen-list", "data-tables": "" });
    this.empty = el("p", { class: "screen-empty", i18n: "spec.no_tables", hidden: "" });
    this.calls = el("ol", { class: "calls", "data-calls": "" });
    this.callBox = el("section", { class: "call-box", hidden: "" },
                      el("h2", { i18n: "screen.next_matches" }), this.calls);
    this.published = el("section", { class: "screen-standings", "data-screen-standings": "", hidden: "" });
    // backgammon beside korona: its own rows, below the tables (issue 44)
    this.bg = bgMatchList({ card: screenBgCard, onChange: () => this.changed() });
    this.bg.section.classList.add("screen-bg");
    root.append(el("div", { class: "screen-head" }, this.badge, this.pageLabel),
                this.empty, this.published, this.list, this.bg.section, this.callBox);
    this.page = 0;
    this.board = new TablesBoard(this.list, { competition: params.get("competition") });
    this.board.addEventListener("state", (e) => showState(this.badge, root, e.detail.state, t));
    this.board.addEventListener("change", () => this.changed());
    this.board.addEventListener("score", (e) => say(scoreLine(e.detail.doc)));
    // A competition's published standings, pushed by its feed (`?competition=`) the moment the
    // head judge publishes; for the whole hall, those of the competitions on its tables.
    this.board.addEventListener("competition", (e) => this.showStandings([{ ...e.detail,
      name: e.detail.doc.guide?.name }]));
    showState(this.badge, root, "connecting", t);
    // Built, but shown only with the first answer: the rows appear at once, paged to fit.
    root.dataset.loading = "";
    this.placeholder = el("p", { class: "placeholder", "data-placeholder": "", i18n: "spec.loading" });
    root.prepend(this.placeholder);
  }

  start() {
    this.board.start();
    this.timer = setInterval(() => this.turnPage(), EVERY);
    addEventListener("resize", () => this.layout());
    i18n.addEventListener("change", () => this.relabel());
  }

  changed() {
    if (this.placeholder) {
      this.placeholder.remove();
      this.placeholder = null;
      delete this.root.dataset.loading;
    }
    const docs = this.board.docs();
    this.nameEvent(docs);
    this.empty.hidden = docs.length > 0 || this.bg.size() > 0;
    const called = docs.filter((doc) => doc.status === "called");
    this.callBox.hidden = called.length === 0;
    this.calls.replaceChildren(...called.map((doc) => el("li", { "data-match-id": doc.match_id },
      el("strong", { class: "call-table" }, tableText(doc)),
      el("span", {}, `${doc.side_a.join(" / ")} — ${doc.side_b.join(" / ")}`))));
    this.layout();
  }

  /** The header names the event: the competitions whose matches are on these tables. */
  async nameEvent(docs) {
    const wanted = params.get("competition");
    const ids = new Set(wanted ? [wanted] : docs.map((doc) => doc.competition_id).filter(Boolean));
    const key = [...ids].sort().join(",");
    if (key === this.eventKey) return;
    this.eventKey = key;
    const known = ids.size ? await request("GET", "/api/competitions").catch(() => []) : [];
    const names = known.filter((c) => ids.has(c.competition_id)).map((c) => c.name);
    if (!wanted) this.loadStandings(known.filter((c) => ids.has(c.competition_id) && c.finished));
    const title = document.querySelector("header.bar h1");
    if (!title || this.eventKey !== key) return;
    if (names.length) {
      delete title.dataset.i18n;
      title.classList.add("event-name");
      title.textContent = names.join(" · ");
    } else {
      title.dataset.i18n = "face.screen";
      title.classList.remove("event-name");
      title.textContent = t("face.screen");
    }
  }

  /** The published standings of these finished competitions, read once (the hall's tables
   *  bring the next change). */
  async loadStandings(finished) {
    const read = (c) => request("GET", `/api/competitions/${c.competition_id}/standings`)
      .then((s) => ({ name: c.name, doc: { finished: true }, standings: s.rows || [] }));
    this.showStandings(await Promise.all(finished.map(read)).catch(() => []));
  }

  /** Published standings above the tables: final results, in the hall's large type. */
  showStandings(list) {
    const shown = list.filter((c) => c.doc?.finished && c.standings?.length);
    this.published.hidden = !shown.length;
    this.published.replaceChildren(...shown.flatMap((c) => [
      el("h2", { text: `${c.name || ""} · ${t("screen.final_standings")}` }),
      standingsTable(c.standings, c.doc.guide?.sport)]));
    this.layout();
  }

  /** How many rows fit under the header and above the calls. */
  rowsThatFit() {
    const cards = [...this.list.children];
    if (!cards.length) return 1;
    const shown = cards.find((c) => !c.hidden) || cards[0];
    const height = shown.getBoundingClientRect().height || 1;
    const gap = parseFloat(getComputedStyle(this.list).rowGap) || 0;
    const top = this.list.getBoundingClientRect().top;
    const below = this.callBox.hidden ? 0 : this.callBox.getBoundingClientRect().height;
    // (the published standings stand above the list: `top` already lies below them)
    const room = innerHeight - top - below - 16;
    return Math.max(1, Math.floor((room + gap) / (height + gap)));
  }

  layout() {
    const cards = [...this.list.children];
    for (const card of cards) card.hidden = false;
    this.size = this.rowsThatFit();
    this.pages = Math.max(1, Math.ceil(cards.length / this.size));
    this.page %= this.pages;
    this.show();
  }

  show() {
    [...this.list.children].forEach((card, i) => {
      card.hidden = Math.floor(i / this.size) !== this.page;
    });
    this.pageLabel.hidden = this.pages < 2;
    this.pageLabel.dataset.page = String(this.page + 1);
    this.pageLabel.textContent = t("screen.page", { page: this.page + 1, pages: this.pages });
  }

  turnPage() {
    if (!this.pages || this.pages < 2) return;
    this.page = (this.page + 1) % this.pages;
    this.show();
  }

  relabel() {
    for (const card of this.list.children) updateCard(card, card.doc);
    showState(this.badge, this.root, this.board.state, t);
    this.changed();
  }
}

await i18n.ready;
const root = el("section", { class: "screen", "data-live": "false" });
main.replaceChildren(root);
main.dataset.faceBuilt = "screen";
new Screen(root).start();
