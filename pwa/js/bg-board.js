// <bg-board>: the one drawing of a backgammon position, for every backgammon face — the 24
// points, both bars, the borne-off trays, checker counts, the cube (value and owner), the dice,
// the score, both clocks when the match has one, and whose turn it is.
//
//   import "/js/bg-board.js";
//   const board = document.querySelector("bg-board");
//   board.data = boardDoc;            // GET /api/backgammon/matches/{id} → .board (view.board_doc)
//   board.marks = { side: "A", from: [13, 8], to: [5], selected: 8 };   // a recorder's taps
//   board.addEventListener("pick", (e) => e.detail.point);            // in marks.side's numbering
//
// Side A (red) is always drawn at the bottom moving counter-clockwise to its home at the bottom
// right, side B (blue) at the top: the colours never swap within a match. Points carry
// data-point (A's numbering), data-a / data-b (checker counts) and, while marks are set,
// data-own (the marked side's numbering: 25 its bar, 0 its tray). Pickable places are buttons;
// everything has a label, so a screen reader reads the whole position.

import { h } from "/js/dom.js";
import { i18n, t } from "/js/i18n.js";

const STYLE = `
  :host { display: block; --a: var(--side-a, #b3261e); --b: var(--side-b, #0b57d0); }
  :host([hidden]) { display: none; }
  .bg { display: grid; gap: 0.5rem; max-width: 48rem; margin: 0 auto; }
  .player { display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 0.75rem;
            padding: 0.25rem 0.5rem; border-left: 0.5rem solid; font-size: var(--text-min, 1.125rem); }
  .player.A { border-color: var(--a); } .player.B { border-color: var(--b); }
  .player.turn { outline: 3px solid currentColor; font-weight: 700; }
  .player .name { flex: 1 1 8rem; }
  .arrow { display: inline-block; width: 1.2em; }
  .score { font-size: var(--text-large, 1.75rem); font-weight: 700; }
  .clock { font-variant-numeric: tabular-nums; font-size: var(--text-large, 1.75rem);
           padding: 0 0.4rem; border: 2px solid currentColor; border-radius: 0.4rem; }
  .clock.running { background: #111; color: #fff; }
  .board { display: grid; grid-template-columns: repeat(6, 1fr) 1.1fr repeat(6, 1fr) 1.3fr;
           grid-template-rows: minmax(8.5rem, auto) auto minmax(8.5rem, auto);
           background: #5b3a1e; padding: 0.25rem; border-radius: 0.4rem; gap: 0 1px; }
  .point, .bar, .tray { position: relative; display: flex; flex-direction: column; align-items: center;
           min-width: 0; min-height: 8.5rem; margin: 0; padding: 0; border: 0; font: inherit;
           background: #e9d8b4; color: #111; border-radius: 0; }
  .bottom { flex-direction: column-reverse; }
  .tri { position: absolute; inset: 1.6rem 8% 0; clip-path: polygon(0 0, 100% 0, 50% 92%); }
  .bottom .tri { inset: 0 8% 1.6rem; clip-path: polygon(50% 8%, 100% 100%, 0 100%); }
  .odd .tri { background: #8c5a2b; } .even .tri { background: #c9a66b; }
  .num { position: relative; font-size: var(--text-min, 1.125rem); line-height: 1.6rem; height: 1.6rem;
         white-space: nowrap; overflow-wrap: normal; letter-spacing: -0.05em; }
  .bar { background: #7a5230; color: #fff; }
  .tray { background: #3b2513; color: #fff; justify-content: center; }
  .tray .count { font-size: var(--text-large, 1.75rem); font-weight: 700; }
  .ck { position: relative; display: flex; align-items: center; justify-content: center;
        width: min(92%, 2.5rem); aspect-ratio: 1; border-radius: 50%; border: 2px solid #111;
        font-size: var(--text-min, 1.125rem); font-weight: 700; line-height: 1; color: #fff; }
  .ck.A { background: var(--a); } .ck.B { background: var(--b); }
  .middle { grid-column: 1 / -1; display: flex; align-items: center; justify-content: space-between;
            gap: 0.5rem; padding: 0.25rem 0.5rem; background: #5b3a1e; color: #fff; min-height: 3.5rem; }
  .note { font-size: var(--text-min, 1.125rem); }
  .dice { display: flex; gap: 0.4rem; }
  .die { display: inline-flex; align-items: center; justify-content: center; width: 3rem; height: 3rem;
         border-radius: 0.4rem; border: 2px solid #111; font-size: var(--text-large, 1.75rem); font-weight: 700;
         background: #fff; color: #111; }
  .die.A { box-shadow: inset 0 -0.35rem 0 var(--a); } .die.B { box-shadow: inset 0 -0.35rem 0 var(--b); }
  .cube { display: inline-flex; align-items: center; justify-content: center; min-width: 3rem; height: 3rem;
          padding: 0 0.25rem; border-radius: 0.3rem; background: #fff; color: #111; border: 3px solid #111;
          font-size: var(--text-large, 1.75rem); font-weight: 800; }
  .cube.dead { background: #ddd; text-decoration: line-through; }
  button.point, button.bar, button.tray { cursor: pointer; touch-action: manipulation; }
  .from { box-shadow: inset 0 0 0 3px #111; }
  .selected { box-shadow: inset 0 0 0 5px #111; background: #fff4b0; }
  .to { box-shadow: inset 0 0 0 5px #146c2e; background: #c8f0cf; }
  .bar.to, .tray.to { background: #146c2e; }
  button:focus-visible { outline: 3px solid #0b57d0; outline-offset: -3px; }
  .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  /* A phone: the board shrinks so the dice and the pad fit the first screen; checkers overlap
   * on a point as on a real board (the fifth still shows the count). */
  @media (max-width: 480px) {
    .bg { gap: 0.25rem; grid-template-columns: minmax(0, 1fr); }
    .player { padding: 0 0.5rem; gap: 0 0.5rem; min-height: 2.25rem; flex-wrap: nowrap; white-space: nowrap; }
    .player > * { flex: none; }
    .player .name { flex: 1 1 0; min-width: 0; overflow: hidden; text-overflow: ellipsis; }
    /* a spectator reads whole names (they wrap); the recorder keeps one line for the pad */
    :host([whole-names]) .player .name { white-space: normal; overflow: visible; text-overflow: clip;
                                         overflow-wrap: anywhere; line-height: 1.15; }
    .score, .clock { font-size: var(--text-min, 1.125rem); }
    .board { grid-template-rows: 4.25rem auto 4.25rem; }
    .point, .bar, .tray { min-height: 0; height: 4.25rem; overflow: hidden; }
    .tray .count { font-size: var(--text-min, 1.125rem); white-space: nowrap; letter-spacing: -0.05em; }
    .num { line-height: 1.2rem; height: 1.2rem; }
    .tri { inset: 1.2rem 8% 0; } .bottom .tri { inset: 0 8% 1.2rem; }
    .ck { flex: none; width: 1.25rem; box-sizing: border-box; }
    .top .ck + .ck { margin-top: -0.8rem; } .bottom .ck + .ck { margin-bottom: -0.8rem; }
    .middle { min-height: 2.75rem; padding: 0.125rem 0.5rem; }
    .middle .note { line-height: 1.2; }
    .die, .cube { width: 2.5rem; min-width: 2.5rem; height: 2.5rem; }
  }
`;

let sheet = null;
function boardSheet() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(STYLE);
  }
  return sheet;
}

const TOP = [13, 14, 15, 16, 17, 18, "barB", 19, 20, 21, 22, 23, 24, "offB"];
const BOTTOM = [12, 11, 10, 9, 8, 7, "barA", 6, 5, 4, 3, 2, 1, "offA"];

/** mm:ss of a clock's milliseconds (seconds rounded up: 0:00 only when the time is gone). */
export function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The running side's time now: `remaining` at the press (device time `since`, ms), less
 *  what ran after the delay left (Bronstein, KSI 3.5.5). Faces count down between presses. */
export function runningLeft(remaining, since, delayLeft) {
  const elapsed = Math.max(0, Date.now() - since);
  return remaining - Math.max(0, elapsed - delayLeft);
}

/** A side's time in a board document's clock, counted down when it is the one running. */
export function timeLeft(clock, side) {
  const at = clock.remaining_ms[side];
  if (clock.running !== side || clock.stopped || !clock.since_ms) return at;
  return runningLeft(at, clock.since_ms, clock.delay_left_ms ?? 0);
}

/** The name of a side in a board document ("A" / "B" when it has none). */
export function sideName(doc, side) {
  return doc?.players?.[side === "A" ? 0 : 1] || t(side === "A" ? "bg.side_a" : "bg.side_b");
}

class BgBoard extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({ mode: "open" });
    this.shadowRoot.adoptedStyleSheets = [boardSheet()]; // the CSP allows no inline style
    this._data = null;
    this._marks = null;
    this.onLanguage = () => this.render();
  }

  connectedCallback() {
    i18n.addEventListener("change", this.onLanguage);
    this.ticking = setInterval(() => this.tick(), 500);
    this.render();
  }

  disconnectedCallback() {
    i18n.removeEventListener("change", this.onLanguage);
    clearInterval(this.ticking);
  }

  /** The running clock's digits, counted down between presses (its label is left alone). */
  tick() {
    const clock = this._data?.clock;
    if (!clock?.running || clock.stopped) return;
    const span = this.shadowRoot.querySelector(`[data-clock="${clock.running}"]`);
    if (span) span.textContent = clockText(timeLeft(clock, clock.running));
  }

  get data() { return this._data; }

  set data(doc) {
    this._data = doc || null;
    this.render();
  }

  get marks() { return this._marks; }

  set marks(marks) {
    this._marks = marks || null;
    this.render();
  }

  render() {
    const doc = this._data;
    if (!doc) {
      this.shadowRoot.replaceChildren(h("p", { text: t("bg.no_game") }));
      return;
    }
    const root = h("div", { class: "bg", role: "group", "aria-label": summary(doc) },
      playerPanel(doc, "B"), this.boardGrid(doc), playerPanel(doc, "A"));
    this.shadowRoot.replaceChildren(root);
    this.dataset.version = String(doc.version ?? "");
  }

  boardGrid(doc) {
    const grid = h("div", { class: "board", "data-board": "" });
    const place = (key, row) => this.place(doc, key, row);
    grid.append(...TOP.map((key) => place(key, "top")), middle(doc), ...BOTTOM.map((key) => place(key, "bottom")));
    return grid;
  }

  /** One place on the board: a point (A's number), a bar ("barA") or a tray ("offA"). */
  place(doc, key, row) {
    const kind = typeof key === "number" ? "point" : key.slice(0, 3) === "bar" ? "bar" : "tray";
    const own = this.ownNumber(key);
    const marks = this._marks;
    const from = own !== null && marks.from?.includes(own);
    const to = own !== null && marks.to?.includes(own);
    const selected = own !== null && marks.selected === own;
    const pickable = from || to || selected;
    const classes = [kind, row, kind === "point" ? (key % 2 ? "odd" : "even") : "",
                     from ? "from" : "", to ? "to" : "", selected ? "selected" : ""];
    const label = placeLabel(doc, key, own);
    const attrs = { class: classes.filter(Boolean).join(" "), "data-own": own };
    // A button is named by its (hidden) words, so the name holds what it shows (WCAG 2.5.3).
    if (pickable) Object.assign(attrs, { type: "button", "aria-pressed": selected ? "true" : null,
                                         onclick: () => this.pick(own) });
    else Object.assign(attrs, { role: "img", "aria-label": label });
    const node = h(pickable ? "button" : "div", attrs, ...placeContent(doc, key, kind, this.numbering()),
                   pickable ? h("span", { class: "visually-hidden", text: label }) : null);
    if (kind === "point") Object.assign(node.dataset, { point: key, a: pointCount(doc, "A", key), b: pointCount(doc, "B", key) });
    else node.dataset[kind] = key.slice(3);
    return node;
  }

  /** The side whose numbers the board shows: the marked side, else the side on turn, else A. */
  numbering() {
    return this._marks?.side || this._data?.turn || "A";
  }

  /** A place in the marked side's numbering (25 its bar, 0 its tray), null without marks. */
  ownNumber(key) {
    const side = this._marks?.side;
    if (!side) return null;
    if (typeof key === "number") return side === "A" ? key : 25 - key;
    if (key.slice(3) !== side) return null;
    return key.startsWith("bar") ? 25 : 0;
  }

  pick(point) {
    this.dispatchEvent(new CustomEvent("pick", { detail: { point } }));
  }
}

/** Checkers of `side` on A's point k. */
function pointCount(doc, side, k) {
  const pos = doc.position?.[side] || [];
  return side === "A" ? pos[k] || 0 : pos[25 - k] || 0;
}

function placeCount(doc, key) {
  if (typeof key === "number") {
    const a = pointCount(doc, "A", key);
    return a ? ["A", a] : ["B", pointCount(doc, "B", key)];
  }
  const side = key.slice(3);
  return [side, doc.position?.[side]?.[key.startsWith("bar") ? 25 : 0] || 0];
}

function placeContent(doc, key, kind, numbering) {
  const [side, count] = placeCount(doc, key);
  if (kind === "tray") return [h("span", { class: "count", "aria-hidden": "true", text: String(count) })];
  const shown = Math.min(count, 5);
  const checkers = Array.from({ length: shown }, (_, i) =>
    h("span", { class: `ck ${side}`, "aria-hidden": "true",
                   text: i === shown - 1 && count > 1 ? String(count) : "" }));
  if (kind === "bar") return checkers;
  const number = numbering === "A" ? key : 25 - key;
  return [h("span", { class: "tri", "aria-hidden": "true" }),
          h("span", { class: "num", "aria-hidden": "true", text: String(number) }), ...checkers];
}

function placeLabel(doc, key, own) {
  const [side, count] = placeCount(doc, key);
  const who = count ? t("bg.checkers", { count, name: sideName(doc, side) }) : t("bg.empty");
  if (typeof key !== "number") {
    const where = key.startsWith("bar") ? "bg.bar_of" : "bg.off_of";
    return `${t(where, { name: sideName(doc, key.slice(3)) })}: ${who}`;
  }
  const n = own ?? (doc.turn === "B" ? 25 - key : key);
  return `${t("bg.point", { n })}: ${who}`;
}

function middle(doc) {
  const note = doc.crawford ? t("bg.crawford") : doc.over ? t("bg.match_over", { name: sideName(doc, doc.winner) })
    : doc.game_no ? t("bg.game_of", { n: doc.game_no, length: doc.length })
    : t("bg.no_game_yet", { length: doc.length }); // never "Game 0"
  const dice = (doc.dice || []).map((d) => h("span", { class: `die ${doc.turn}`, text: String(d) }));
  const cube = doc.cube && !doc.cube.owner ? cubeFace(doc) : null;
  return h("div", { class: "middle" },
    h("span", { class: "note", "data-note": "", text: note }), cube,
    h("span", { class: "dice", role: "img", "data-dice": (doc.dice || []).join("-"),
                   "aria-label": doc.dice?.length ? t("bg.dice", { dice: doc.dice.join("–") }) : t("bg.no_dice") },
      ...dice));
}

/** The cube: 64 when centred at 1 (KSI 4.4.1), its value otherwise; dead in the Crawford game. */
function cubeFace(doc) {
  const value = doc.cube.value === 1 && !doc.cube.owner ? 64 : doc.cube.value;
  const label = doc.cube.owner ? t("bg.cube_owned", { value: doc.cube.value, name: sideName(doc, doc.cube.owner) })
    : t("bg.cube_centred", { value: doc.cube.value });
  return h("span", { class: `cube${doc.cube.dead ? " dead" : ""}`, "data-cube": doc.cube.value,
                        "data-owner": doc.cube.owner || "", role: "img", "aria-label": label,
                        text: String(value) });
}

function playerPanel(doc, side) {
  const i = side === "A" ? 0 : 1;
  const turn = doc.turn === side && !doc.over && doc.phase !== "over";
  const clock = doc.clock
    ? h("span", { class: `clock${doc.clock.running === side ? " running" : ""}`, "data-clock": side,
                     "aria-label": t("bg.clock", { time: clockText(doc.clock.remaining_ms[side]) }),
                     text: clockText(timeLeft(doc.clock, side)) })
    : null;
  return h("div", { class: `player ${side}${turn ? " turn" : ""}`, "data-player": side },
    h("span", { class: "arrow", "aria-hidden": "true", text: turn ? "▶" : "" }),
    h("span", { class: "name", text: sideName(doc, side) }),
    turn ? h("span", { class: "visually-hidden", text: t("bg.on_turn") }) : null,
    h("span", { class: "score", "data-score": side, "aria-label": t("bg.score", { score: doc.score[i] }),
                   text: String(doc.score[i]) }),
    h("span", { "data-pips": side, text: t("bg.pips", { pips: doc.pips?.[side] ?? 0 }) }),
    doc.cube?.owner === side ? cubeFace(doc) : null,
    clock);
}

/** The whole position in one sentence per side, for the board's label. */
function summary(doc) {
  const side = (s) => t("bg.side_summary", { name: sideName(doc, s), score: doc.score[s === "A" ? 0 : 1],
    pips: doc.pips?.[s] ?? 0, bar: doc.position?.[s]?.[25] || 0, off: doc.position?.[s]?.[0] || 0 });
  const turn = doc.turn && !doc.over ? t("bg.turn_of", { name: sideName(doc, doc.turn) }) : "";
  return [side("A"), side("B"), turn].filter(Boolean).join(". ");
}

customElements.define("bg-board", BgBoard);
