// <korona-board>: the board at a glance — each side's pucks, pocketed, penalty pucks, debts,
// and whose turn it is. Positions on the board are not recorded, so pucks are drawn as they
// are set out, rows of 8 against the cushions (EKML §19(1)): a row per side in singles, four
// rows in pairs (each player's 8 opposite him; side A's rows across, side B's down the
// sides); the numbers beside them are the truth.
//
//   import "/js/board.js";
//   const board = document.querySelector("korona-board");
//   board.data = { turn: 0, sides: [{ name, on_board, pocketed, penalty, debt }, { … }] };
//   board.data = boardFromLive(liveDoc);    // a /live or /api/matches/{id} document
//
// Side 0 is always drawn at the bottom in --side-a, side 1 at the top in --side-b: a judge
// learns the colours once and they never swap within a match.

import { i18n, t } from "/js/i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const STYLE = `
  :host { display: block; }
  svg { display: block; width: 100%; max-width: 28rem; margin: 0 auto; height: auto; }
  .frame { fill: var(--board-cushion, #5b3a1e); }
  .field { fill: var(--board-field, #e9d8b4); }
  .pocket { fill: #111; }
  .line { stroke: #6b4f2a; stroke-width: 0.5; fill: none; }
  .puck-0 { fill: var(--side-a, #b3261e); }
  .puck-1 { fill: var(--side-b, #0b57d0); }
  .turn { stroke: #111; stroke-width: 1; }
  ul { list-style: none; margin: 0.5rem 0 0; padding: 0; display: grid; gap: 0.25rem; }
  li { font-size: var(--text, 1.25rem); padding: 0.25rem 0.5rem; border-left: 0.5rem solid; }
  li.side-0 { border-color: var(--side-a, #b3261e); }
  li.side-1 { border-color: var(--side-b, #0b57d0); }
  li.has-turn { font-weight: 700; outline: 3px solid currentColor; }
  .arrow { display: inline-block; width: 1.5em; }
  :host([compact]) ul { display: none; } /* the face shows the sides in words itself */
`;

/** Board data from a live document: sides in the match's order, turn by the player's name. */
export function boardFromLive(doc) {
  const game = doc?.game;
  if (!game) return { turn: null, sides: [] };
  const names = [doc.side_a || [], doc.side_b || []];
  const sides = names.map((players, i) => {
    const p = game.pucks?.[i] || {};
    return { name: players.join(" / "), on_board: p.on_board ?? 0, pocketed: p.pocketed ?? 0,
             penalty: p.placed ?? 0, debt: p.debt ?? 0 };
  });
  const turn = names.findIndex((players) => players.includes(game.turn));
  return { turn: turn < 0 ? null : turn, sides, pairs: doc.format === "pairs" };
}

/** In pairs, the seats in words: the clockwise order from the opening seat (EKML §28(1)) and,
 *  before a later game's first stroke, what everyone does between games (§28(1) märkus 1).
 *  Singles: nothing (the sides simply change ends). */
export function seatLines(doc) {
  const game = doc?.game;
  if (doc?.format !== "pairs" || !game?.seats?.length) return [];
  const lines = [t("board.seats", { order: game.seats.join(" → ") })];
  if (game.game_no > 1 && !game.started) lines.push(t("board.seats_move"));
  return lines;
}

let sheet = null;
function boardSheet() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(STYLE);
  }
  return sheet;
}

class KoronaBoard extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({ mode: "open" });
    // A constructed sheet, not a <style> element: the CSP allows no inline style.
    this.shadowRoot.adoptedStyleSheets = [boardSheet()];
    this._data = { turn: null, sides: [] };
    this.onLanguage = () => this.render();
  }

  connectedCallback() {
    i18n.addEventListener("change", this.onLanguage);
    this.render();
  }

  disconnectedCallback() {
    i18n.removeEventListener("change", this.onLanguage);
  }

  get data() { return this._data; }

  set data(value) {
    this._data = value || { turn: null, sides: [] };
    this.render();
  }

  render() {
    const { sides, turn, pairs } = this._data;
    const svg = drawBoard(sides, turn, Boolean(pairs));
    const summary = sides.map((side, i) => sideLine(side, i, turn));
    svg.setAttribute("aria-label", summary.join(". ") || t("board.no_game"));
    const legend = document.createElement("ul");
    legend.setAttribute("aria-label", t("board.label"));
    legend.append(...sides.map((side, i) => legendItem(side, i, turn)));
    this.shadowRoot.replaceChildren(svg, legend);
  }
}

function sideName(side, i) {
  return side.name || t(i === 0 ? "board.side_a" : "board.side_b");
}

function sideLine(side, i, turn) {
  const text = t("board.side", { ...side, name: sideName(side, i) });
  return i === turn ? `${text}. ${t("board.turn", { name: sideName(side, i) })}` : text;
}

function legendItem(side, i, turn) {
  const item = document.createElement("li");
  item.className = `side-${i}${i === turn ? " has-turn" : ""}`;
  item.dataset.side = String(i);
  const arrow = document.createElement("span");
  arrow.className = "arrow";
  arrow.textContent = i === turn ? "▶" : "";
  arrow.setAttribute("aria-hidden", "true");
  item.append(arrow, sideLine(side, i, turn));
  return item;
}

function el(name, attrs) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

function drawBoard(sides, turn, pairs) {
  const svg = el("svg", { viewBox: "0 0 100 100", role: "img" });
  svg.append(el("rect", { class: "frame", x: 0, y: 0, width: 100, height: 100, rx: 2 }));
  svg.append(el("rect", { class: "field", x: 6, y: 6, width: 88, height: 88 }));
  for (const [x, y] of [[9, 9], [91, 9], [9, 91], [91, 91]]) {
    svg.append(el("circle", { class: "pocket", cx: x, cy: y, r: 4.5 }));
  }
  svg.append(el("circle", { class: "line", cx: 50, cy: 50, r: 12 }));
  // Each side's base line, and the diagonals from the pockets towards the centre circle.
  for (const d of [20, 80]) {
    svg.append(el("line", { class: "line", x1: 20, y1: d, x2: 80, y2: d }));
    svg.append(el("line", { class: "line", x1: d, y1: 20, x2: d, y2: 80 }));
  }
  for (const [x, y] of [[13, 13], [87, 13], [13, 87], [87, 87]]) {
    svg.append(el("line", { class: "line", x1: x, y1: y, x2: 50 + (x - 50) * 0.3, y2: 50 + (y - 50) * 0.3 }));
  }
  svg.append(...sides.map((side, i) => puckRows(side, i, i === turn, pairs)));
  return svg;
}

const ROW = 8; // a player's pucks, set out in one row (EKML §19(1))
// Where a side's rows lie: [across?, offset from the top or left edge], first row first.
const ROWS = {
  singles: [[[true, 72]], [[true, 28]]],
  pairs: [[[true, 86], [true, 14]], [[false, 14], [false, 86]]],
};

function puckRows(side, i, hasTurn, pairs) {
  const group = el("g", { "data-side": String(i), "aria-hidden": "true" });
  const rows = ROWS[pairs ? "pairs" : "singles"][i];
  let left = Math.max(0, Math.min(side.on_board, ROW * rows.length));
  rows.forEach(([across, at], r) => {
    const count = Math.min(left, ROW);
    left -= count;
    const row = el("g", { "data-row": String(r) });
    const start = 50 - ((count - 1) * 5.5) / 2;
    for (let k = 0; k < count; k += 1) {
      const [cx, cy] = across ? [start + k * 5.5, at] : [at, start + k * 5.5];
      row.append(el("circle", { class: `puck-${i}${hasTurn ? " turn" : ""}`, cx, cy, r: 2.4 }));
    }
    group.append(row);
  });
  return group;
}

customElements.define("korona-board", KoronaBoard);
