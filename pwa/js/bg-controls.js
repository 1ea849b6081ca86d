// The recorder's pad: what can be entered in the phase the fold is in, one tap per fact.
//
//   pad(rec)          start game · opening roll (one die each side) · double / roll (two taps) ·
//                     the play (tap a checker, then a highlighted point; undo a step; send) ·
//                     take / drop · answer a resignation · resign… · undo last entry ·
//                     after a game, each player's scoresheet confirmed (KSI 4.7)
//   clockPanel(rec)   start the clock, or the two big clock buttons (press = PressClock)
//   tickClocks(rec)   the running side's time, counted down on this device between presses

import { i18n, t } from "/js/i18n.js";
import { h } from "/js/dom.js";
import { clockText, runningLeft, sideName } from "/js/bg-board.js";
import { playText } from "/js/bg-entry.js";
import { receiptCard } from "/js/receipt-card.js";

const OTHER = { A: "B", B: "A" };
const KINDS = ["single", "gammon", "backgammon"];

function button(key, params, onclick, attrs = {}) {
  return h("button", { type: "button", onclick, ...attrs }, t(key, params));
}

function section(titleKey, params, ...children) {
  return h("section", { class: "stack bg-pad" }, h("h2", { class: "pad-title" }, t(titleKey, params)), ...children);
}

/** Six buttons, one per face of a die; `chosen` is pressed. */
function dieRow(rec, side, chosen, onpick) {
  return h("div", { class: "dice-row", role: "group", "data-dice-for": side,
                    "aria-label": t("bg.dice_of", { name: sideName(rec.doc, side) }) },
    [1, 2, 3, 4, 5, 6].map((n) => h("button", { type: "button", class: `die-button side-${side}`,
      "data-die": n, "aria-pressed": chosen === n ? "true" : "false", disabled: rec.busy > 0,
      onclick: () => onpick(n) }, String(n))));
}

function opening(rec) {
  const chosen = rec.opening || {};
  const pick = (side) => (n) => {
    rec.opening = { ...chosen, [side]: n };
    const { A, B } = rec.opening;
    if (A && B) {
      rec.opening = null;
      return rec.send({ type: "RollOpening", die_a: A, die_b: B });
    }
    return rec.render();
  };
  return section("bg.pad.opening", {},
    h("p", { class: "hint" }, t("bg.pad.opening_hint")),
    ["A", "B"].map((side) => h("div", { class: "stack opening-side" },
      h("span", { class: `side-label side-${side}` }, sideName(rec.doc, side)),
      dieRow(rec, side, chosen[side], pick(side)))));
}

function mayDouble(rec, side) {
  const { cube, phase, crawford } = rec.doc;
  return phase === "roll" && !crawford && (!cube.owner || cube.owner === side);
}

/** With a clock the opponent's move is complete at his press (KSI 4.1.6.2): until then a
 *  roll is early. After an early roll was ordered rolled again the pad waits for the press. */
function pressFirst(rec, side) {
  const timer = rec.match?.timer;
  if (!rec.match?.clock || !timer || timer.stopped || timer.running === side) return null;
  const key = rec.doc.phase === "roll_only" ? "bg.pad.press_first" : "bg.pad.early_warning";
  return h("p", { class: "hint", "data-press-first": rec.doc.phase }, t(key, { name: sideName(rec.doc, OTHER[side]) }));
}

function rolling(rec) {
  const side = rec.doc.turn;
  const roll = (a, b) => ({ type: "Roll", side, dice: [a, b] });
  const waiting = pressFirst(rec, side);
  if (waiting && rec.doc.phase === "roll_only") return section("bg.pad.roll", { name: sideName(rec.doc, side) }, waiting);
  return section("bg.pad.roll", { name: sideName(rec.doc, side) }, waiting,
    rec.doc.illegal_pending ? illegalAnswers(rec, side) : null,
    mayDouble(rec, side) ? button("bg.pad.double", { value: rec.doc.cube.value * 2 },
      () => rec.send({ type: "Double", side }), { class: "primary big cube-button", "data-action": "double" }) : null,
    h("p", { class: "hint" }, t(rec.taps.length ? "bg.pad.second_die" : "bg.pad.first_die")),
    dieRow(rec, side, rec.taps[0], (n) => rec.tapDie(n, roll)),
    rec.taps.length ? button("bg.pad.clear", {}, () => { rec.taps = []; rec.render(); }, { "data-action": "clear" }) : null);
}

function moving(rec) {
  const side = rec.doc.turn;
  const entry = rec.entry;
  if (rec.doc.illegal_pending) return illegal(rec);
  if (!entry) {
    return section("bg.pad.move", { name: sideName(rec.doc, side) }, reroll(rec, side),
      rec.doc.predicted ? h("p", { class: "hint", "data-wait": "plays" }, t("bg.sync.no_plays")) : null);
  }
  const send = () => rec.send({ type: "Play", side, moves: entry.moves });
  const ready = entry.complete;
  return section("bg.pad.move", { name: sideName(rec.doc, side) }, reroll(rec, side),
    h("p", { class: "hint" }, t(entry.blocked ? "bg.pad.blocked" : ready ? "bg.pad.complete" : "bg.pad.move_hint")),
    h("p", { class: "partial", "data-partial": "" }, t("bg.pad.so_far", { moves: playText(entry.moves) })),
    h("div", { class: "cluster" },
      button("bg.pad.undo_step", {}, () => { entry.undo(); rec.render(); },
        { "data-action": "undo-step", disabled: !entry.moves.length || rec.busy > 0 }),
      button(entry.blocked ? "bg.pad.pass" : "bg.pad.send", { moves: playText(entry.moves) }, send,
        { class: "primary big", "data-action": "play", disabled: !ready || rec.busy > 0 })));
}

/** The dice on the board were rolled early: the opponent may have them rolled again, before
 *  the play (KSI 4.1.5.1; with a clock, a roll before his press: 4.1.6.2). */
function reroll(rec, side) {
  if (!rec.doc.early_roll) return null;
  const opponent = OTHER[side];
  return button("bg.pad.reroll", { name: sideName(rec.doc, opponent) },
    () => rec.send({ type: "RequireReroll", side: opponent }), { "data-action": "reroll" });
}

function illegal(rec) {
  return section("bg.pad.illegal", { name: sideName(rec.doc, OTHER[rec.doc.turn]) }, illegalAnswers(rec, OTHER[rec.doc.turn]));
}

/** Accept the opponent's illegal play or have it corrected (KSI 4.2.3): a roll accepts it too. */
function illegalAnswers(rec, side) {
  return h("div", { class: "cluster", "data-illegal": side },
    button("bg.pad.accept_illegal", {}, () => rec.send({ type: "AcceptIllegalPlay", side }), { "data-action": "accept-illegal" }),
    button("bg.pad.correct_illegal", {}, () => rec.send({ type: "CorrectIllegalPlay", side }), { "data-action": "correct-illegal" }));
}

function answering(rec) {
  const side = OTHER[rec.doc.turn];
  return section("bg.pad.answer", { name: sideName(rec.doc, side), value: rec.doc.cube.value * 2 },
    h("div", { class: "cluster answer" },
      button("bg.pad.take", {}, () => rec.send({ type: "Take", side }), { class: "primary big", "data-action": "take" }),
      button("bg.pad.drop", {}, () => rec.send({ type: "Drop", side, at_ms: Date.now() }), { class: "big danger", "data-action": "drop" })));
}

function resignationAnswer(rec, [by, kind]) {
  const side = OTHER[by];
  const answer = (accept) => () => rec.send({ type: "AnswerConcession", side, accept });
  return section("bg.pad.resigned", { name: sideName(rec.doc, by), kind: t(`bg.kind.${kind}`) },
    h("div", { class: "cluster" },
      button("bg.pad.accept", { name: sideName(rec.doc, side) }, answer(true), { class: "primary big", "data-action": "accept-resign" }),
      button("bg.pad.decline", { name: sideName(rec.doc, side) }, answer(false), { "data-action": "decline-resign" })));
}

function between(rec) {
  if (rec.doc.over) {
    return section("bg.pad.match_over", { name: sideName(rec.doc, rec.doc.winner),
                                           score: rec.doc.score.join(":") }, sheets(rec), result(rec), exports(rec),
      receiptCard(rec.id)); // the signed result both players scan (#29)
  }
  return section("bg.pad.between", { score: rec.doc.score.join(":") }, sheets(rec),
    button("bg.pad.start_game", { n: (rec.doc.game_no || 0) + 1 }, () => rec.send({ type: "StartGame" }),
      { class: "primary big", "data-action": "start-game" }));
}

/** After a game: each player confirms that his scoresheet agrees with the record (KSI 4.7);
 *  a sheet that differs is the TD's to settle (the TD's sheet: score dispute). */
function sheets(rec) {
  const n = rec.doc.game_no || 0;
  if (!n) return null;
  const score = rec.doc.score.join(":");
  const agreed = rec.doc.sheets || [];
  return h("div", { class: "stack sheets", "data-sheets": agreed.join("") },
    h("p", { class: "hint" }, t("bg.pad.sheets", { n, score })),
    h("div", { class: "cluster" }, ["A", "B"].map((side) => (agreed.includes(side)
      ? h("span", { class: `side-label side-${side}`, "data-sheet-ok": side }, t("bg.pad.sheet_ok", { name: sideName(rec.doc, side) }))
      : button("bg.pad.sheet_confirm", { name: sideName(rec.doc, side), score },
        () => rec.send({ type: "ConfirmScore", side }), { "data-confirm-score": side, disabled: rec.busy > 0 })))));
}

/** A finished match's papers: the protocol in the face's language, the .mat for gnubg. */
function exports(rec) {
  const link = (key, path, attr) => h("a", { class: "button", href: `${rec.url}/${path}`, download: "", [attr]: "" }, t(key));
  return h("div", { class: "cluster" },
    link("bg.export_pdf", `protocol.pdf?lang=${i18n.lang}`, "data-protocol"),
    link("bg.export_mat", "match.mat", "data-mat"));
}

/** A finished match: the winner reports the result, the TD confirms and publishes it (KSI 4.6);
 *  the table's device says the TD will, and once the TD has, goes back to its table's judge face
 *  by itself (after a few seconds showing the result), where the next call finds it. */
function result(rec) {
  const { reported, confirmed } = rec.match || {};
  const winner = rec.doc.winner;
  const back = rec.table ? h("a", { class: "button", href: `/judge?table=${rec.table}`, "data-back-to-table": "" },
                             t("bg.table.back", { table: rec.table })) : null;
  if (confirmed && rec.device) {
    rec.leaveSoon(`/judge?table=${rec.table}`); // the next call to this table finds the device there
    return h("div", { class: "stack" }, h("p", { class: "hint", "data-result": "confirmed" }, t("bg.pad.confirmed")),
      h("p", { class: "hint", "data-leaving": "" }, t("bg.table.back_soon", { table: rec.table })), back);
  }
  if (confirmed) return h("div", { class: "stack" }, h("p", { class: "hint", "data-result": "confirmed" }, t("bg.pad.confirmed")), back);
  if (reported && rec.device) {
    return h("div", { class: "stack" }, h("p", { class: "hint", "data-result": "reported" }, t("bg.pad.await_td")), back);
  }
  if (reported) {
    return button("bg.pad.confirm", {}, () => rec.send({ type: "ConfirmResult" }),
      { class: "primary big", "data-action": "confirm-result" });
  }
  return button("bg.pad.report", { name: sideName(rec.doc, winner) },
    () => rec.send({ type: "ReportResult", side: winner }), { class: "primary big", "data-action": "report-result" });
}

/** The resignation menu: a side resigns a single, gammon or backgammon (KSI 4.5). */
function resignMenu(rec) {
  return h("details", { class: "resign", "data-resign": "" },
    h("summary", {}, t("bg.pad.resign")),
    ["A", "B"].map((side) => h("div", { class: "cluster" },
      h("span", { class: `side-label side-${side}` }, sideName(rec.doc, side)),
      KINDS.map((kind) => button(`bg.kind.${kind}`, {}, () => rec.send({ type: "Concede", side, kind }),
        { "data-resign-side": side, "data-resign-kind": kind })))));
}

/** Undo is one tap plus confirm (UX.md): the first tap asks, the second undoes. */
function undoLast(rec) {
  if (!rec.confirmUndo) {
    return button("bg.pad.undo", {}, () => { rec.confirmUndo = true; rec.render(); }, { "data-action": "undo" });
  }
  return h("div", { class: "cluster confirm", role: "group" },
    h("span", {}, t("bg.pad.undo_confirm")),
    button("bg.pad.undo_yes", {}, () => { rec.confirmUndo = false; rec.send({ type: "UndoLast" }); },
      { class: "danger", "data-action": "undo-yes" }),
    button("bg.pad.undo_no", {}, () => { rec.confirmUndo = false; rec.render(); }, { "data-action": "undo-no" }));
}

function phasePanel(rec) {
  const { phase } = rec.doc;
  const concession = rec.match?.game?.concession || ["", ""];
  if (rec.doc.over || phase === "over") return between(rec);
  if (FROZEN.has(rec.doc.dispute)) {  // KSI 5.1: everything stays untouched
    return section("bg.pad.frozen", {}, h("p", { class: "hint", "data-frozen": rec.doc.dispute },
                                          t(`bg.pad.frozen.${rec.doc.dispute}`)));
  }
  if (concession[0]) return resignationAnswer(rec, concession);
  if (phase === "opening") return opening(rec);
  if (phase === "roll" || phase === "roll_only") return rolling(rec);
  if (phase === "move") return moving(rec);
  if (phase === "doubled") return answering(rec);
  return section("bg.pad.wait", {}, h("p", { class: "hint", "data-wait": "network" }, t("bg.sync.wait")));
}

const FROZEN = new Set(["called", "appealed"]); // the board waits for the TD or the jury

export function pad(rec) {
  // resigning is offered once no checker can be hit (KSI 4.5), never on a frozen board
  const inGame = !rec.doc.over && rec.doc.phase !== "over" && !rec.doc.contact
    && !FROZEN.has(rec.doc.dispute);
  return h("div", { class: "stack bg-work", "data-phase": rec.doc.phase },
    phasePanel(rec),
    h("div", { class: "cluster more" }, undoLast(rec), inGame ? resignMenu(rec) : null));
}

/** What a side has left now: the record's time, less what ran since the last press. */
function shownTime(timer, side) {
  const i = side === "A" ? 0 : 1;
  if (timer.running !== side || timer.stopped) return timer.remaining[i];
  return runningLeft(timer.remaining[i], timer.since, timer.delay_left);
}

export function clockPanel(rec) {
  if (!rec.match?.clock) return null;
  const timer = rec.match.timer;
  if (!timer) {
    return h("div", { class: "clocks" }, button("bg.clock.start", {}, () => rec.send({ type: "StartClock", at_ms: Date.now() }),
      { class: "big", "data-action": "start-clock" }));
  }
  // stopped (a drop, a call, a die on the floor: KSI 4.3.2): the players restart it here
  const resume = timer.stopped ? button("bg.clock.resume", {}, () => rec.send({ type: "ResumeClock", at_ms: Date.now() }),
    { class: "big", "data-action": "resume-clock", disabled: rec.busy > 0 }) : null;
  return h("div", { class: "clocks", role: "group", "aria-label": t("bg.clock.label") }, resume, ["A", "B"].map((side) => {
    const may = !timer.stopped && (!timer.running || timer.running === side);
    return h("button", { type: "button", class: `clock-button side-${side}${timer.running === side ? " running" : ""}`,
      "data-press": side, disabled: !may || rec.busy > 0,
      onclick: () => rec.send({ type: "PressClock", side, at_ms: Date.now() }) },
      h("span", { class: "clock-name" }, sideName(rec.doc, side)),
      h("span", { class: "clock-time", "data-time": side }, clockText(shownTime(timer, side))));
  }));
}

export function tickClocks(rec) {
  const timer = rec.match?.timer;
  if (!timer?.running || timer.stopped) return;
  const span = rec.root.querySelector(`[data-time="${timer.running}"]`);
  if (span) span.textContent = clockText(shownTime(timer, timer.running));
}
