// The audit replay of a backgammon match (issue 12): the korona replay's timeline, stepping,
// chain check and comparison (audit-replay.js), with backgammon's hooks — each event in words
// with its KSI paragraph, and after it the position, cube, score and both clocks (<bg-board>
// and a table), read from GET /api/backgammon/matches/{id}/at/{version}.

import { i18n, t } from "/js/i18n.js";
import { request } from "/js/api.js";
import { el } from "/js/spectator-dom.js";
import { Replay } from "/js/audit-replay.js";
import { stateTable } from "/js/audit-state.js";
import { clockText, sideName } from "/js/bg-board.js";
import { bgEventText, bgNames } from "/js/bg-words.js";

const SANCTIONS = new Set(["BgPenaltyPoints", "BgPlayerExpelled", "BgTimeAdded", "BgFlagFell",
  "BgRulingGiven", "BgAppealDecided", "BgDoubleVoided", "BgIllegalPlayCorrected"]);
const boards = new Map(); // "id@version" -> the board after it (an old version never changes)

/** The compared rows of a board: [field, A, B] (side-less rows in A). */
function boardValues(doc) {
  const b = doc?.board || {};
  const clock = (side) => (b.clock ? clockText(b.clock.remaining_ms[side]) : "—");
  const cube = b.cube ? `${b.cube.value}${b.cube.owner ? ` · ${sideName(b, b.cube.owner)}` : ""}` : "—";
  return [
    ["score", String(b.score?.[0] ?? 0), String(b.score?.[1] ?? 0)],
    ["game", b.game_no ? String(b.game_no) : "—", null],
    ["turn", b.turn ? sideName(b, b.turn) : "—", null],
    ["dice", b.dice?.length ? b.dice.join("-") : "—", null],
    ["cube", cube, null],
    ["pips", String(b.pips?.A ?? "—"), String(b.pips?.B ?? "—")],
    ["bar", String(b.position?.A?.[25] ?? 0), String(b.position?.B?.[25] ?? 0)],
    ["off", String(b.position?.A?.[0] ?? 0), String(b.position?.B?.[0] ?? 0)],
    ["clock", clock("A"), clock("B")],
  ];
}

export class BgReplay extends Replay {
  sideNames() { return bgNames(this.items.map((item) => item.event)); }

  words(item) { return bgEventText(item.event, this.names); }

  /** The first event a command stored is the recorder's entry; the rest follow from it. */
  isEntry(item) {
    const before = this.items[item.index - 1];
    return !before || before.command_id !== item.command_id;
  }

  isSanction(item) { return SANCTIONS.has(item.type); }

  isCorrection(item) { return item.type === "BgEntryUndone" || item.type === "BgResultCorrected"; }

  /** An undo points back to the first event it takes back. */
  corrects(item) { return item.type === "BgEntryUndone" ? item.event.to_version + 1 : null; }

  /** An undo takes back every event after the version it returns to. */
  markCorrections() {
    for (const undo of this.items.filter((item) => item.type === "BgEntryUndone")) {
      for (const item of this.items) {
        const between = item.version > undo.event.to_version && item.version < undo.version;
        if (between && !item.correctedBy.length) item.correctedBy.push(undo.version);
      }
    }
  }

  makeBoard() { return el("bg-board", { "data-bg-board": "" }); }

  at(version) {
    const key = `${this.id}@${version}`;
    if (!boards.has(key)) {
      const url = `/api/backgammon/matches/${this.id}/at/${version}`;
      boards.set(key, request("GET", url).catch((error) => { boards.delete(key); throw error; }));
    }
    return boards.get(key);
  }

  stateView(doc, other = null) {
    return stateTable(doc, other, { values: boardValues, names: [this.names.A, this.names.B],
                                    label: (field) => t(`bg.field.${field}`) });
  }

  showState(doc) {
    this.state.replaceChildren(this.stateView(doc));
    this.board.data = doc.board;
  }

  /** The protocol PDF in the face's language (KSI 4.6/4.7, with the chain head to verify),
   *  and the .mat beside it for GNU Backgammon. */
  exportLink() {
    this.matLink = el("a", { class: "button", "data-mat": "", i18n: "bg.export_mat",
                             href: `/api/backgammon/matches/${this.id}/match.mat` });
    return el("a", { class: "button", "data-pdf": "", i18n: "bg.export_pdf", href: this.pdfHref() });
  }

  actions() {
    const box = super.actions();
    this.pdf.after(this.matLink);
    return box;
  }

  pdfHref() { return `/api/backgammon/matches/${this.id}/protocol.pdf?lang=${i18n.lang}`; }
}
