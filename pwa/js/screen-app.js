// The venue screen at `/screen`: the hall's big screen, read from 10 m (decision 0136). It
// turns through slides, one at a time on a stage of the screen's own height, every `?every=`
// seconds (default 8): each published event's final standings, cut into pages that fit (every
// row shown in turn), then the tables, paged the same way. Below the stage, the matches just
// called to their tables. `?competition=<id>[,<id>…]` shows only those competitions (their
// backgammon matches too: each row knows the competition that started it).
//
// A slide is `{ kind, key, build?, show? }`; the kinds are made in `slides()`, one function
// each (`standingsPages`, `this.tablePages`, `this.bgPages`): a new kind of card is one more
// function there. Backgammon's matches being played have their own rows (screen-bg.js, issue
// 44) after the korona tables.
// Cards are the spectators' (spectator-cards.js) laid out as rows by screen.css; the feed and
// its stale state are the spectators' too (spectator-tables.js).

import { i18n, t } from "/js/i18n.js";
import { scoreLine, tableText, updateCard } from "/js/spectator-cards.js";
import { showState, TablesBoard } from "/js/spectator-tables.js";
import { el } from "/js/spectator-dom.js";
import { say } from "/js/announce.js";
import { request } from "/js/api.js";
import { standingsPages } from "/js/screen-standings.js";
import { bgMatchList } from "/js/spectator-bg.js";
import { screenBgCard } from "/js/screen-bg.js";

const main = document.getElementById("face");
const params = new URLSearchParams(location.search);
const EVERY = Math.max(1, Number(params.get("every")) || 8) * 1000;
const WANTED = (params.get("competition") || "").split(",").filter(Boolean);
// Standings side by side from this width (a 1080p screen takes two columns of 16 rows).
const TWO_COLUMNS = 1200;

class Screen {
  constructor(root) {
    this.root = root;
    this.badge = el("span", { class: "live-state", role: "status" });
    this.pageLabel = el("span", { class: "page-label", "data-page": "", hidden: "" });
    this.list = el("div", { class: "screen-list", "data-tables": "" });
    this.empty = el("p", { class: "screen-empty", i18n: "spec.no_tables", hidden: "" });
    this.calls = el("ol", { class: "calls", "data-calls": "" });
    this.callBox = el("section", { class: "call-box", hidden: "" },
                      el("h2", { i18n: "screen.next_matches" }), this.calls);
    this.published = el("section", { class: "screen-standings", "data-screen-standings": "", hidden: "" });
    // backgammon beside korona: its own rows, in a box the slides show or hide (issue 44)
    this.bg = bgMatchList({ card: screenBgCard, onChange: () => this.changed(), competitions: WANTED });
    this.bg.section.classList.add("screen-bg");
    this.bgBox = el("div", { class: "screen-bg-box", hidden: "" }, this.bg.section);
    this.stage = el("div", { class: "screen-stage", "data-stage": "" }, this.empty, this.published, this.list,
                    this.bgBox);
    root.append(el("div", { class: "screen-head" }, this.badge, this.pageLabel), this.stage, this.callBox);
    this.events = new Map(); // competition id -> { id, name, sport, version, rows, withdrew } (published)
    this.slideList = [];
    this.at = 0;
    this.board = new TablesBoard(this.list, { competition: WANTED.join(",") || null });
    this.board.addEventListener("state", (e) => showState(this.badge, root, e.detail.state, t));
    this.board.addEventListener("change", () => this.changed());
    this.board.addEventListener("score", (e) => say(scoreLine(e.detail.doc)));
    // A competition's documents, pushed by its feed (`?competition=`) the moment the head
    // judge publishes; for the whole hall, those of the competitions on its tables are read.
    this.board.addEventListener("competition", (e) => this.setEvent(e.detail.competition_id,
      e.detail.doc, e.detail.standings));
    showState(this.badge, root, "connecting", t);
    // Built, but shown only with the first answer: the slides appear at once, paged to fit.
    root.dataset.loading = "";
    this.placeholder = el("p", { class: "placeholder", "data-placeholder": "", i18n: "spec.loading" });
    root.prepend(this.placeholder);
  }

  start() {
    this.board.start();
    this.timer = setInterval(() => this.turn(), EVERY);
    addEventListener("resize", () => this.layout(true));
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
    const called = docs.filter((doc) => doc.status === "called");
    this.callBox.hidden = called.length === 0;
    this.calls.replaceChildren(...called.map((doc) => el("li", { "data-match-id": doc.match_id },
      el("strong", { class: "call-table" }, tableText(doc)),
      el("span", {}, `${doc.side_a.join(" / ")} — ${doc.side_b.join(" / ")}`))));
    this.layout();
  }

  /** The header names the event: the competitions whose matches are on these tables. */
  async nameEvent(docs) {
    const ids = new Set(WANTED.length ? WANTED : docs.map((doc) => doc.competition_id).filter(Boolean));
    const key = [...ids].sort().join(",");
    if (key === this.eventKey) return;
    this.eventKey = key;
    const known = ids.size ? await request("GET", "/api/competitions").catch(() => []) : [];
    const names = known.filter((c) => ids.has(c.competition_id)).map((c) => c.name);
    if (!WANTED.length) this.loadStandings(known.filter((c) => ids.has(c.competition_id) && c.finished));
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
      .then((s) => this.setEvent(c.competition_id, { finished: s.finished, version: s.version,
                                                     guide: { name: c.name }, withdrew: s.withdrew }, s.rows));
    await Promise.all(finished.map(read)).catch(() => null);
  }

  /** A competition's document and standings: kept while it is published with rows. */
  setEvent(id, doc, rows) {
    if (!id || !doc) return;
    const had = this.events.get(id);
    if (had && had.version > (doc.version ?? 0)) return;
    if (doc.finished && rows?.length) {
      this.events.set(id, { id, name: doc.guide?.name ?? had?.name, sport: doc.guide?.sport,
                            version: doc.version ?? 0, rows, withdrew: doc.withdrew ?? [] });
    } else if (!had) {
      return;
    } else {
      this.events.delete(id);
    }
    this.layout(true);
  }

  /** Every slide, in the order they are shown: each event's standings, then the tables. */
  slides() {
    const columns = innerWidth >= TWO_COLUMNS ? 2 : 1;
    const standings = [...this.events.values()].flatMap((e) => standingsPages(this.stage, e, columns));
    return [...standings, ...this.tablePages(), ...this.bgPages()];
  }

  /** The backgammon matches, as many rows to a page as the stage holds. */
  bgPages() {
    const rows = [...this.bg.section.querySelectorAll("[data-bg-match]")];
    if (!rows.length) return [];
    this.bgBox.hidden = false;
    for (const row of rows) row.hidden = false;
    const size = this.rowsThatFit(rows);
    const pages = [];
    for (let from = 0; from < rows.length; from += size) {
      const mine = new Set(rows.slice(from, from + size).map((row) => row.dataset.bgMatch));
      pages.push({ kind: "backgammon", key: `bg:${from}:${size}`, show: () => {
        for (const row of this.bg.section.querySelectorAll("[data-bg-match]")) row.hidden = !mine.has(row.dataset.bgMatch);
      } });
    }
    return pages;
  }

  /** The tables, as many rows to a page as the stage holds. */
  tablePages() {
    const cards = [...this.list.children];
    if (!cards.length) return [];
    this.list.hidden = false;
    for (const card of cards) card.hidden = false;
    const size = this.rowsThatFit(cards);
    const pages = [];
    for (let from = 0; from < cards.length; from += size) {
      const mine = new Set(cards.slice(from, from + size));
      pages.push({ kind: "tables", key: `tables:${from}:${size}`,
                   show: () => { for (const card of this.list.children) card.hidden = !mine.has(card); } });
    }
    return pages;
  }

  /** How many table rows the stage holds. */
  rowsThatFit(cards) {
    const height = cards[0].getBoundingClientRect().height || 1;
    const gap = parseFloat(getComputedStyle(this.list).rowGap) || 0;
    return Math.max(1, Math.floor((this.stage.clientHeight + gap) / (height + gap)));
  }

  /** Slides made again for what is known now; the one on show stays if it still exists. */
  layout(force = false) {
    if ("loading" in this.root.dataset) return; // not laid out yet: nothing to measure
    const shown = this.slideList[this.at]?.key;
    const size = `${this.stage.clientWidth}x${this.stage.clientHeight}`;
    const cards = this.list.children.length + this.bg.size();
    if (!force && size === this.size && cards === this.cardCount) return this.show(false);
    this.size = size;
    this.cardCount = cards;
    this.slideList = this.slides();
    const again = this.slideList.findIndex((s) => s.key === shown);
    this.at = again >= 0 ? again : this.at % Math.max(1, this.slideList.length);
    this.show(force || again < 0);
  }

  /** The slide at `this.at` on the stage; `fresh` builds a standings page again. */
  show(fresh = true) {
    const slide = this.slideList[this.at];
    this.empty.hidden = Boolean(slide);
    this.list.hidden = slide?.kind !== "tables";
    this.bgBox.hidden = slide?.kind !== "backgammon";
    this.published.hidden = slide?.kind !== "standings";
    if (slide?.kind === "tables" || slide?.kind === "backgammon") slide.show();
    if (slide?.kind === "standings" && (fresh || this.published.dataset.key !== slide.key)) {
      this.published.dataset.key = slide.key;
      this.published.replaceChildren(slide.build());
    }
    const count = this.slideList.length;
    this.pageLabel.hidden = count < 2;
    this.pageLabel.dataset.page = String(this.at + 1);
    this.pageLabel.dataset.pages = String(count);
    this.pageLabel.textContent = t("screen.page", { page: this.at + 1, pages: count });
  }

  turn() {
    if (this.slideList.length < 2) return;
    this.at = (this.at + 1) % this.slideList.length;
    this.show();
  }

  relabel() {
    for (const card of this.list.children) updateCard(card, card.doc);
    showState(this.badge, this.root, this.board.state, t);
    this.changed();
    this.layout(true);
  }
}

await i18n.ready;
const root = el("section", { class: "screen", "data-live": "false" });
main.replaceChildren(root);
main.dataset.faceBuilt = "screen";
new Screen(root).start();
