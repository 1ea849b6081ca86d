// A play as the recorder taps it: one checker at a time, among the legal orders the server
// computed (GET /api/backgammon/matches/{id}/plays: every order of single-die moves that makes
// a legal play). This module only filters that list; it never generates moves itself.
//
//   const entry = new PlayEntry(plays);      // { side, dice, orders }
//   entry.pick(13); entry.pick(10);          // a checker, then a highlighted destination
//   entry.marks                              // what <bg-board> highlights now
//   entry.complete, entry.moves, entry.started, entry.undo()
//   entry.preview(doc)                       // the board with the steps so far carried out

import { t } from "/js/i18n.js";

const same = (a, b) => a[0] === b[0] && a[1] === b[1];

export class PlayEntry {
  constructor(plays) {
    this.side = plays?.side || "";
    this.dice = plays?.dice || [];
    this.orders = plays?.orders || [];
    this.moves = [];
    this.selected = null;
  }

  /** Something of the play is tapped already: a checker picked or a step made. */
  get started() { return this.moves.length > 0 || this.selected !== null; }

  /** No checker can move: the play is the empty one (rules of play, KSI 1.2.1). */
  get blocked() { return Boolean(this.side) && this.orders.length === 0; }

  /** The orders that start with the moves made so far. */
  get open() {
    return this.orders.filter((order) => this.moves.every((m, i) => same(m, order[i] || [])));
  }

  /** Every legal order is made: the play can be sent. */
  get complete() {
    return this.blocked || this.open.some((order) => order.length === this.moves.length);
  }

  /** The next steps: [from, to] pairs any open order continues with. */
  get next() {
    const n = this.moves.length;
    return this.open.filter((order) => order.length > n).map((order) => order[n]);
  }

  get froms() { return [...new Set(this.next.map(([from]) => from))]; }

  tos(from) { return [...new Set(this.next.filter(([f]) => f === from).map(([, to]) => to))]; }

  /** A tap on a place (own numbering): select a checker, move it, or change the selection. */
  pick(point) {
    if (this.selected !== null && this.tos(this.selected).includes(point)) {
      this.moves = [...this.moves, [this.selected, point]];
      this.selected = null;
      const froms = this.froms;
      if (froms.length === 1) this.selected = froms[0]; // the only checker that can go on
    } else if (point === this.selected) {
      this.selected = null;
    } else if (this.froms.includes(point)) {
      this.selected = point;
    }
  }

  undo() {
    this.moves = this.moves.slice(0, -1);
    this.selected = null;
  }

  /** The board document with the moves so far carried out, checker by checker (a lone
   *  opponent checker where one lands goes to the bar): what the recorder sees while tapping. */
  preview(doc) {
    if (!this.moves.length) return doc;
    const mover = this.side;
    const foe = mover === "A" ? "B" : "A";
    const me = [...doc.position[mover]];
    const opp = [...doc.position[foe]];
    for (const [from, to] of this.moves) {
      me[from] -= 1;
      me[to] += 1;
      if (to >= 1 && to <= 24 && opp[25 - to] === 1) {
        opp[25 - to] = 0;
        opp[25] += 1;
      }
    }
    const pips = (side) => side.reduce((sum, n, p) => sum + n * p, 0);
    return { ...doc, position: { [mover]: me, [foe]: opp },
             pips: { [mover]: pips(me), [foe]: pips(opp) } };
  }

  get marks() {
    if (!this.side) return null;
    const to = this.selected === null ? [] : this.tos(this.selected);
    return { side: this.side, from: this.froms, to, selected: this.selected };
  }
}

/** A play in the usual notation: "8/5 6/5", "bar/22", "3/off"; "no move" when empty. */
export function playText(moves) {
  if (!moves?.length) return t("bg.no_move");
  const place = (p) => (p === 25 ? t("bg.bar") : p === 0 ? t("bg.off") : String(p));
  return moves.map(([from, to]) => `${place(from)}/${place(to)}`).join(" ");
}
