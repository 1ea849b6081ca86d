// What each button of the judge face does: the one-tap outcomes, the 30 s countdown, undo,
// the opening shot, the game end and the sign-off (the pickers are in judge-pickers.js).

import { t } from "/js/i18n.js";
import { sidesOf, sideIndex, describeEntry } from "/js/judge-model.js";
import { pick, confirm } from "/js/judge-sheets.js";
import { arm, cite, doc, foul, more, pocketedMore, puckOver, remark, tap, turn } from "/js/judge-pickers.js";
import { desk } from "/js/judge-desk.js";

const { state } = desk;
const send = (command) => desk.send(command);
const render = () => desk.render();
const flash = (lines, tone) => desk.flash(lines, tone);
const loadJudgeState = () => desk.loadJudgeState();
const wasSent = (seq) => desk.wasSent(seq);
const confirmKey = (doc) => desk.confirmKey(doc);

/** The 30 s countdown the judge starts (EKML §26(4)); at zero it offers the report. */
async function time() {
  const side = sideIndex(doc(), turn());
  const clock = state.clock;
  if (clock?.phase === "up") return send({ type: "ReportTimeExceeded", player: turn(), limit: "30s" });
  if (clock?.phase === "running") return;
  if (!state.judge?.time_limit?.[side]) {
    const chosen = await pick(t("judge.time"), [
      { value: "slow", label: t("judge.slow_play_remark"), note: cite("slow_remark") },
      { value: "5s", label: t("judge.time_5s"), note: cite("slow_5s") },
    ]);
    if (chosen === "slow") return send({ type: "GiveRemark", player: turn(), reason: "slow_play" });
    if (chosen === "5s") return send({ type: "ReportTimeExceeded", player: turn(), limit: "5s" });
    return;
  }
  const ends = Date.now() + 30000;
  const next = { phase: "running", left: 30 };
  next.timer = setInterval(() => {
    const left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
    if (left === next.left) return;
    next.left = left;
    if (!left) { next.phase = "up"; clearInterval(next.timer); }
    if (state.clock === next) render();
  }, 250);
  state.clock = next;
  render();
}

/** Undo: a queued entry leaves the queue; a recorded one gets a correction event. */
async function undo() {
  const mine = state.pending;
  const last = mine.at(-1);
  if (last && (mine.length > 1 || !navigator.onLine)) {
    const what = describeEntry(last.body.command.type, last.body.command);
    if (!(await confirm(t("judge.undo_title"), t("judge.undo_queued", { what })))) return;
    await desk.outbox.discard(last.seq);
    if (!wasSent(last.seq)) return;
  } else if (last) {
    await desk.outbox.settled();
  }
  const judge = await loadJudgeState();
  const target = navigator.onLine ? judge?.undo : undefined;
  if (target === null) return flash([t("judge.undo_nothing")], "bad");
  const text = target ? t("judge.undo_sent", { what: describeEntry(target.type, target.event) })
                      : t("judge.undo_unknown");
  if (await confirm(t("judge.undo_title"), text, { yes: t("judge.undo") })) {
    state.undoWhat = target ? describeEntry(target.type, target.event) : "";
    return send({ type: "UndoLastEntry", reason: "entered_by_mistake" });
  }
}

async function opening(value) {
  // The first-listed (side A) opens a round robin; elsewhere the side that won the lot.
  const side = value === "listing" ? "A" : value;
  const command = value === "listing" ? { type: "AssignOpeningShot", method: "listing" }
    : { type: "AssignOpeningShot", method: "lot", lot_winner: value };
  if (doc().format === "pairs") { // the pair with the right chooses its opener (EKML §31)
    const [mine, theirs] = side === "A" ? sidesOf(doc()) : sidesOf(doc()).reverse();
    const i = side === "A" ? 0 : 1;
    command.opener = await pick(t("judge.opening_who", { pair: mine.join(" / ") }),
      mine.map((p) => ({ value: p, label: p, className: `side-btn side-${i}` })));
    if (!command.opener) return;
    command.opponent_first = await pick(t("judge.opening_next"),
      theirs.map((p) => ({ value: p, label: p, className: `side-btn side-${1 - i}` })));
    if (!command.opponent_first) return;
  }
  return send(command);
}

async function nextGame() {
  const n = doc().game.game_no;
  if (!(await confirm(t("judge.game_next", { n }), t("judge.game_next_confirm", { n, prev: n - 1 })))) return;
  localStorage.setItem(confirmKey(doc()), "1");
  render();
}

async function sign() {
  const name = (state.judgeName || "").trim();
  if (!name) {
    flash([t("judge.name_first")], "bad");
    return document.getElementById("judge-name")?.focus();
  }
  localStorage.setItem("tableside.judge.name", name);
  if (await confirm(t("judge.sign"), t("judge.sign_confirm", { table: state.table }), { yes: t("judge.sign") })) {
    return send({ type: "SignProtocol", judge: name });
  }
}

async function conflictKeep() {
  const held = desk.outbox.held;
  if (!held) return;
  const current = held.held?.problem?.current_version;
  await desk.outbox.resolve(held.seq, { body: { ...held.body, expected_version: current } });
}

async function conflictDrop() {
  const count = state.pending.length;
  if (!(await confirm(t("judge.conflict_title"), t("judge.conflict_drop_confirm", { count })))) return;
  for (const entry of [...state.pending].reverse()) await desk.outbox.discard(entry.seq);
}

export const ACTIONS = {
  pocketed: (n) => tap({ own_pocketed: n }),
  pocketed_more: pocketedMore,
  no_pocket: () => tap({}),
  striker_pocket: () => arm("striker_pocket"),
  striker_over: () => arm("striker_over"),
  puck_over: puckOver,
  foul, remark, more, time, undo, opening, sign,
  next_game: nextGame,
  judge_name: (value) => { state.judgeName = value; },
  conflict_keep: conflictKeep,
  conflict_drop: conflictDrop,
};
