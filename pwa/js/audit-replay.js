// Replay one match's record for the jury (see audit-app.js for what the face does).
// `Replay` is korona's; `BgReplay` (audit-bg.js) extends it with backgammon's hooks (names,
// words, entries, the board and state at a version) and keeps the rest: the timeline,
// stepping, the chain check, the comparison. audit-app.js loads the record and opens the one
// its first event names (this module imports neither: the imports run one way).

import { citation, codeWords, i18n, t } from "/js/i18n.js";
import { describe } from "/js/api.js";
import { boardFromLive } from "/js/board.js";
import { audit } from "/js/audit-data.js";
import { el } from "/js/spectator-dom.js";
import { stateTable } from "/js/audit-state.js";
import { ENTRY_TYPES, eventText } from "/js/spectator-words.js";

const SANCTIONS = new Set(["FoulCommitted", "PenaltyAwarded", "PenaltyPuckPlaced", "DebtRecorded",
  "RemarkGiven", "WarningGiven", "PlayerRemoved", "NextTurnForfeited", "TimeLimitImposed",
  "RemainingGamesLost"]);
const FILTERS = {
  all: () => true,
  entries: (item, replay) => replay.isEntry(item),
  sanctions: (item, replay) => replay.isSanction(item),
  corrections: (item, replay) => replay.isCorrection(item) || item.correctedBy.length > 0,
};

function when(iso) {
  if (!iso) return "—";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toLocaleString(i18n.lang)} (${iso})`;
}

export class Replay {
  constructor(root, id, record) {
    this.root = root;
    this.id = id;
    this.items = record.map((item, index) => ({ ...item, index, correctedBy: [] }));
    this.byVersion = new Map(this.items.map((item) => [item.version, item]));
    this.markCorrections();
    this.names = this.sideNames();
    this.last = this.items[this.items.length - 1].version;
    this.current = null;
  }

  // --- the discipline's hooks (korona's here; audit-bg.js has backgammon's) ---------------

  sideNames() {
    const created = this.items.find((item) => item.type === "MatchCreated")?.event || {};
    return { A: (created.side_a || []).join(" / ") || "A", B: (created.side_b || []).join(" / ") || "B" };
  }

  words(item) { return eventText(item, this.names); }

  isEntry(item) { return ENTRY_TYPES.has(item.type); }

  isSanction(item) { return SANCTIONS.has(item.type); }

  isCorrection(item) { return item.type === "CorrectionRecorded"; }

  /** The version a correction points back to (null for any other event). */
  corrects(item) { return item.type === "CorrectionRecorded" ? item.event.corrects_version : null; }

  /** Each corrected event learns which events correct it (`correctedBy`). */
  markCorrections() {
    for (const item of this.items) {
      const target = this.byVersion.get(this.corrects(item));
      if (target) target.correctedBy.push(item.version);
    }
  }

  makeBoard() { return el("korona-board", { compact: "" }); }

  at(version) { return audit.at(this.id, version); }

  stateView(doc, other = null) { return stateTable(doc, other); }

  showState(doc) {
    this.state.replaceChildren(this.stateView(doc));
    this.board.data = boardFromLive(doc);
  }

  exportLink() {
    return el("a", { class: "button", "data-pdf": "", i18n: "spec.protocol_pdf", href: this.pdfHref() });
  }

  // --- the replay ---------------------------------------------------------------------

  build() {
    const head = el("div", { class: "stack" },
      el("h2", { text: `${this.names.A} — ${this.names.B}` }),
      el("p", { class: "muted", text: t("audit.summary", { id: this.id, n: this.items.length }) }));
    this.root.append(head, this.actions(), this.stepper(),
                     el("div", { class: "replay-grid" }, this.timeline(), this.step()), this.compare());
    addEventListener("keydown", (e) => this.key(e));
    i18n.addEventListener("change", () => this.relabel());
    const wanted = () => Number(new URLSearchParams(location.hash.slice(1)).get("v"));
    addEventListener("hashchange", () => wanted() !== this.current && this.select(wanted()));
    this.select(this.byVersion.has(wanted()) ? wanted() : 1);
  }

  actions() {
    this.verdict = el("p", { class: "verdict", role: "status", "data-verdict": "" });
    this.verdictMore = el("div", { class: "cluster" });
    this.pdf = this.exportLink();
    return el("div", { class: "stack" },
      el("div", { class: "cluster" },
        el("button", { type: "button", class: "primary", "data-verify": "", i18n: "audit.verify",
                       onclick: () => this.verify() }),
        el("button", { type: "button", "data-download": "", i18n: "audit.download",
                       onclick: () => audit.download(this.id).catch((e) => this.say(describe(e), "error")) }),
        this.pdf),
      this.verdict, this.verdictMore);
  }

  pdfHref() { return `/api/matches/${this.id}/protocol.pdf?lang=${i18n.lang}`; }

  say(text, state) {
    this.verdict.textContent = text;
    this.verdict.dataset.verdict = state;
  }

  async verify() {
    this.say(t("audit.verifying"), "running");
    this.verdictMore.replaceChildren();
    try {
      const report = await audit.verify(this.id);
      if (report.events > this.items.length) {
        this.verdictMore.append(el("p", { "data-grown": "", text: t("audit.grown", { n: report.events, shown: this.items.length }) }),
          el("button", { type: "button", i18n: "audit.reload", onclick: () => location.reload() }));
      }
      if (report.accepted?.length) return this.acceptedDispute(report);
      if (report.intact) {
        this.say(t("audit.intact_n", { n: report.events }), "intact");
        return this.verdictMore.append(this.sealLine(report.seal));
      }
      if (report.disputed || report.broken_version == null) return this.unproven(report);
      const n = report.broken_version;
      this.say(t("audit.broken", { n }), "broken");
      this.verdictMore.append(
        el("button", { type: "button", "data-show-broken": "", text: t("audit.show_event", { n }),
                       onclick: () => this.select(n) }),
        el("p", { class: "muted small", text: report.broken }));
    } catch (error) {
      this.say(describe(error), "error");
    }
  }

  /** The chain holds but nothing signed vouches for it (#41): no signed checkpoint covers
   *  the record, or the server's record is disputed (why, in the face's language). */
  unproven(report) {
    const why = report.disputed ? codeWords(`record.${report.disputed.code}`) : "";
    if (report.disputed) this.say(t("audit.disputed", { why }), "disputed");
    else if (report.broken) this.say(t("audit.seal_failed", { n: report.events }), "broken");
    else this.say(t("audit.unproven", { n: report.events }), "unproven");
    this.verdictMore.append(this.sealLine(report.seal));
    if (report.broken) this.verdictMore.append(el("p", { class: "muted small", "data-problem": "", text: report.broken }));
  }

  /** An accepted dispute touches the record (#50): it stands as accepted, not proven; the
   *  newest such acceptance says where, by whom and why (its code in the face's words). */
  acceptedDispute(report) {
    const last = report.accepted[report.accepted.length - 1];
    const why = codeWords(`record.${last.code}`);
    this.say(t("audit.accepted", { p: last.position, by: last.by, why }), "accepted");
    this.verdictMore.append(this.sealLine(report.seal));
  }

  /** Which checks ran beyond the chain: sealed by a signed checkpoint, or not (yet). */
  sealLine(seal) {
    const text = seal ? t("audit.sealed_at", { p: seal.position }) : t("audit.unsealed");
    return el("p", { class: "muted small", "data-seal": seal ? "sealed" : "unsealed", text });
  }

  stepper() {
    const button = (key, go, label) => el("button", { type: "button", "data-step": key, i18n: label,
                                                      onclick: go });
    this.slider = el("input", { type: "range", min: "1", max: String(this.items.length), step: "1",
                                "data-slider": "", "aria-label": t("audit.slider") });
    this.slider.addEventListener("input", () => this.select(this.items[Number(this.slider.value) - 1].version));
    this.where = el("span", { class: "where", "data-where": "", "aria-live": "polite" });
    return el("nav", { class: "stack stepper", "aria-label": t("audit.steps") },
      el("div", { class: "cluster" },
        button("first", () => this.move(-Infinity), "audit.first"),
        button("prev", () => this.move(-1), "audit.previous"),
        button("next", () => this.move(1), "audit.next"),
        button("last", () => this.move(Infinity), "audit.last"), this.where),
      this.slider, el("p", { class: "muted small", i18n: "audit.keys" }));
  }

  step() {
    this.details = el("dl", { class: "details", "data-details": "" });
    this.state = el("div", { "data-state": "" });
    this.board = this.makeBoard();
    this.detailsTitle = el("h3", { id: "audit-details", tabindex: "-1", i18n: "audit.the_event" });
    return el("section", { class: "step-grid" },
      el("div", { class: "stack" }, this.detailsTitle, this.details),
      el("div", { class: "stack" }, el("h3", { i18n: "audit.the_state" }), this.state, this.board));
  }

  compare() {
    const input = (value) => el("input", { type: "number", min: "1", max: String(this.last),
                                           value: String(value), inputmode: "numeric" });
    this.left = input(1);
    this.right = input(this.last);
    this.sides = el("div", { class: "compare-grid", "data-compare": "" });
    const show = () => this.showCompare();
    this.left.addEventListener("change", show);
    this.right.addEventListener("change", show);
    const box = el("details", { class: "compare" },
      el("summary", { i18n: "audit.compare" }),
      el("div", { class: "cluster" },
        el("label", { class: "cluster" }, el("span", { i18n: "audit.point_a" }), this.left),
        el("label", { class: "cluster" }, el("span", { i18n: "audit.point_b" }), this.right),
        el("button", { type: "button", "data-compare-here": "", i18n: "audit.compare_here",
                       onclick: () => { this.left.value = String(this.current); show(); } })),
      this.sides);
    box.addEventListener("toggle", () => box.open && show());
    this.compareBox = box;
    return box;
  }

  async showCompare() {
    const [a, b] = [Number(this.left.value), Number(this.right.value)];
    if (!this.byVersion.has(a) || !this.byVersion.has(b)) return;
    const [docA, docB] = await Promise.all([this.at(a), this.at(b)]);
    const side = (v, doc, other) => el("div", { class: "stack", "data-point": String(v) },
      el("h4", { text: t("audit.after_event", { n: v }) }),
      el("p", { class: "small", text: this.words(this.byVersion.get(v)) }),
      this.stateView(doc, other));
    this.sides.replaceChildren(side(a, docA, docB), side(b, docB, docA));
  }

  /**
   * The timeline is one composite widget: a listbox that takes one Tab stop, its selected
   * event the active descendant; ↑ ↓ (and ← → Home End, as everywhere on the page) step.
   * A skip link before it goes straight to the event's details.
   */
  timeline() {
    this.filter = el("select", { "data-filter": "", "aria-label": t("audit.filter") },
      ...Object.keys(FILTERS).map((key) => el("option", { value: key, i18n: `audit.filter.${key}` })));
    this.filter.addEventListener("change", () => this.renderTimeline());
    this.list = el("ol", { class: "timeline", "data-timeline": "", role: "listbox", tabindex: "0",
                           id: "audit-timeline", "aria-labelledby": "audit-timeline-title" });
    this.list.addEventListener("keydown", (e) => this.listKey(e));
    const skip = el("a", { class: "skip", href: "#audit-details", "data-skip": "", i18n: "audit.skip_details",
                           onclick: (e) => { e.preventDefault(); this.detailsTitle.focus(); } });
    this.renderTimeline();
    return el("section", { class: "stack" },
      el("div", { class: "cluster" },
        el("h3", { class: "grow", id: "audit-timeline-title", i18n: "audit.timeline" }), this.filter),
      skip, this.list);
  }

  listKey(e) {
    const moves = { ArrowUp: -1, ArrowDown: 1 };
    if (!(e.key in moves) || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    const shown = [...this.list.querySelectorAll("li")];
    const at = shown.findIndex((li) => Number(li.dataset.version) === this.current);
    const next = shown[Math.max(0, Math.min(shown.length - 1, at + moves[e.key]))];
    if (next) this.select(Number(next.dataset.version));
  }

  renderTimeline() {
    const keep = FILTERS[this.filter.value] || FILTERS.all;
    this.list.replaceChildren(...this.items.filter((item) => keep(item, this)).map((item) => this.row(item)));
    this.mark();
  }

  row(item) {
    const who = [recorderName(item), item.device_id && this.deviceName(item.device_id)].filter(Boolean).join(" · ");
    const classes = [this.isEntry(item) ? "entry" : "consequence",
                     item.correctedBy.length ? "corrected" : "", this.isSanction(item) ? "sanction" : ""];
    const sep = () => el("span", { class: "visually-hidden", text: ", " });
    return el("li", { "data-version": String(item.version), class: classes.join(" ").trim(),
                      role: "option", id: `event-${item.version}`, "aria-selected": "false",
                      onclick: () => { this.select(item.version); this.list.focus(); } },
      el("span", { class: "v", text: `#${item.version}` }), sep(),
      el("span", { class: "grow", text: this.words(item) }), sep(),
      el("span", { class: "rule", text: citation(item.event.rule) }), sep(),
      el("span", { class: "who", text: who }));
  }

  /** Scroll the timeline box (never the page) so the selected event is in view. */
  reveal(li) {
    if (!li) return;
    const box = this.list;
    const top = li.offsetTop - box.offsetTop;
    if (top < box.scrollTop || top + li.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = top - box.clientHeight / 2;
    }
  }

  mark() {
    for (const li of this.list.querySelectorAll("li")) {
      const on = Number(li.dataset.version) === this.current;
      li.classList.toggle("selected", on);
      li.setAttribute("aria-selected", String(on));
      if (on) this.list.setAttribute("aria-activedescendant", li.id);
    }
    if (!this.list.querySelector("li.selected")) this.list.removeAttribute("aria-activedescendant");
  }

  move(delta) {
    const at = this.byVersion.get(this.current)?.index ?? 0;
    const next = Math.max(0, Math.min(this.items.length - 1, at + delta));
    this.select(this.items[next].version);
  }

  key(e) {
    if (e.target.closest?.("input, select, textarea") || e.altKey || e.ctrlKey || e.metaKey) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
    if (!(e.key in moves)) return;
    e.preventDefault();
    this.move(moves[e.key]);
  }

  async select(version) {
    const item = this.byVersion.get(version);
    if (!item) return;
    this.current = version;
    this.slider.value = String(item.index + 1);
    this.where.textContent = t("audit.where", { n: item.index + 1, total: this.items.length, v: version });
    this.where.dataset.version = String(version);
    history.replaceState(null, "", `#v=${version}`);
    this.renderDetails(item);
    this.mark();
    this.reveal(this.list.querySelector(`li[data-version="${version}"]`));
    this.state.dataset.version = "";
    try {
      const doc = await this.at(version);
      if (this.current !== version) return; // a later step was chosen meanwhile
      this.showState(doc);
      this.state.dataset.version = String(version);
    } catch (error) {
      this.state.replaceChildren(el("p", { class: "muted", text: describe(error) }));
    }
  }

  renderDetails(item) {
    const row = (key, ...value) => [el("dt", { i18n: `audit.d.${key}` }), el("dd", { "data-d": key }, ...value)];
    const link = (v, label) => el("button", { type: "button", class: "link", "data-goto": String(v),
                                             text: t(label, { n: v }), onclick: () => this.select(v) });
    const links = [];
    if (this.corrects(item) !== null) links.push(link(this.corrects(item), "audit.corrects"));
    for (const v of item.correctedBy) links.push(link(v, "audit.corrected_by"));
    const entry = this.entryOf(item);
    const decided = entry && entry.version !== item.version
      ? row("entry", link(entry.version, "audit.entry_link"), ` ${this.words(entry)}`) : [];
    this.details.replaceChildren(
      // The stored type stays on the element (and in the JSON Lines export), not in the prose.
      ...row("words", el("strong", { text: this.words(item), "data-type": item.type,
                                     title: item.type })),
      ...decided,
      ...row("rule", citation(item.event.rule) || t("audit.no_rule")),
      ...row("recorder", [recorderName(item), item.role && codeWords(item.role)].filter(Boolean).join(" · ") || "—"),
      ...row("device", item.device_id
        ? el("span", { title: item.device_id, "data-device": item.device_id, text: this.deviceName(item.device_id) })
        : "—"),
      ...row("server_time", when(item.recorded_at)),
      ...row("device_time", when(item.device_time)),
      ...(links.length ? row("correction", ...links) : []),
      ...row("hash", el("code", { text: `${item.hash.slice(0, 16)}…`, title: item.hash })));
  }

  /** A device as the jury can read it: "Device 2" (numbered by first appearance in this
   *  record), its id kept in the title for whoever must compare it with a tablet. */
  deviceName(id) {
    this.devices ??= [...new Set(this.items.map((i) => i.device_id).filter(Boolean))];
    return t("audit.device_n", { n: this.devices.indexOf(id) + 1 });
  }

  /** The judge's entry an event belongs to: itself, or the last entry before it. */
  entryOf(item) {
    for (let i = item.index; i >= 0; i -= 1) {
      if (this.isEntry(this.items[i])) return this.items[i];
    }
    return null;
  }

  relabel() {
    this.pdf.href = this.pdfHref();
    this.renderTimeline();
    if (this.current) this.select(this.current);
    if (this.compareBox.open) this.showCompare();
  }
}

/** Who recorded an event, in words: a table judge's link records as "table-5-judge", the
 *  server's own recorders ("competition", "results-processor") have words; a person's name
 *  as it is (the demo's simulator records as "demo", the demo head judge's name, so as that). */
export function recorderName(item) {
  const table = /^table-(\d+)-judge$/.exec(item.recorder || "")?.[1];
  if (table) return t("audit.recorder.table", { table });
  const own = `audit.recorder.${item.recorder}`;
  const said = item.recorder ? t(own) : "";
  return said === own ? item.recorder : said;
}
