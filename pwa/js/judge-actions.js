// What each button of the judge face does: the one-tap outcomes, the 30 s countdown, undo,
// the opening shot, the game end and the sign-off (the pickers are in judge-pickers.js).
// Each action is handed the face's `ctx` (judge-app.js) and the button's value.

import { t } from "/js/i18n.js";
import { sidesOf, sideIndex, describeEntry, rulesetWord } from "/js/judge-model.js";
import { pick, confirm } from "/js/judge-sheets.js";
import { arm, cite, doc, foul, more, noShow, pocketedMore, puckOver, remark, tap, turn } from "/js/judge-pickers.js";

/** The 30 s countdown the judge starts (EKML §26(4)); at zero it offers the report. */
async function time(ctx) {
  const { state } = ctx;
  const side = sideIndex(doc(ctx), turn(ctx));
  const clock = state.clock;
  if (clock?.phase === "up") return ctx.send({ type: "ReportTimeExceeded", player: turn(ctx), limit: "30s" });
  if (clock?.phase === "running") return;
  if (!state.judge?.time_limit?.[side]) {
    const chosen = await pick(t("judge.time"), [
      { value: "slow", label: rulesetWord("judge.slow_play_remark", doc(ctx)), note: cite(ctx, "slow_remark") },
      { value: "5s", label: rulesetWord("judge.time_5s", doc(ctx)), note: cite(ctx, "slow_5s") },
    ]);
    if (chosen === "slow") return ctx.send({ type: "GiveRemark", player: turn(ctx), reason: "slow_play" });
    if (chosen === "5s") return ctx.send({ type: "ReportTimeExceeded", player: turn(ctx), limit: "5s" });
    return;
  }
  const ends = Date.now() + 30000;
  const next = { phase: "running", left: 30 };
  next.timer = setInterval(() => {
    const left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
    if (left === next.left) return;
    next.left = left;
    if (!left) { next.phase = "up"; clearInterval(next.timer); }
    if (state.clock === next) ctx.render();
  }, 250);
  state.clock = next;
  ctx.render();
}

/** Undo: a queued entry leaves the queue; a recorded one gets a correction event. */
async function undo(ctx) {
  const mine = ctx.state.pending;
  const last = mine.at(-1);
  if (last && (mine.length > 1 || !navigator.onLine)) {
    const what = describeEntry(last.body.command.type, last.body.command);
    if (!(await confirm(t("judge.undo_title"), t("judge.undo_queued", { what })))) return;
    await ctx.outbox.discard(last.seq);
    if (!ctx.wasSent(last.seq)) return;
  } else if (last) {
    await ctx.outbox.settled();
  }
  const judge = await ctx.loadJudgeState();
  const target = navigator.onLine ? judge?.undo : undefined;
  if (target === null) return ctx.flash([t("judge.undo_nothing")], "bad");
  const text = target ? t("judge.undo_sent", { what: describeEntry(target.type, target.event) })
                      : t("judge.undo_unknown");
  if (await confirm(t("judge.undo_title"), text, { yes: t("judge.undo") })) {
    ctx.state.undoWhat = target ? describeEntry(target.type, target.event) : "";
    return ctx.send({ type: "UndoLastEntry", reason: "entered_by_mistake" });
  }
}

async function opening(ctx, value) {
  // The first-listed (side A) opens a round robin; elsewhere the side that won the lot.
  const side = value === "listing" ? "A" : value;
  const command = value === "listing" ? { type: "AssignOpeningShot", method: "listing" }
    : { type: "AssignOpeningShot", method: "lot", lot_winner: value };
  if (doc(ctx).format === "pairs") { // the pair with the right chooses its opener (EKML §31)
    const [mine, theirs] = side === "A" ? sidesOf(doc(ctx)) : sidesOf(doc(ctx)).reverse();
    const i = side === "A" ? 0 : 1;
    command.opener = await pick(t("judge.opening_who", { pair: mine.join(" / ") }),
      mine.map((p) => ({ value: p, label: p, className: `side-btn side-${i}` })));
    if (!command.opener) return;
    command.opponent_first = await pick(t("judge.opening_next"),
      theirs.map((p) => ({ value: p, label: p, className: `side-btn side-${1 - i}` })));
    if (!command.opponent_first) return;
  }
  return ctx.send(command);
}

async function nextGame(ctx) {
  const n = doc(ctx).game.game_no;
  if (!(await confirm(t("judge.game_next", { n }), t("judge.game_next_confirm", { n, prev: n - 1 })))) return;
  localStorage.setItem(ctx.confirmKey(doc(ctx)), "1");
  ctx.render();
}

async function sign(ctx) {
  const name = (ctx.state.judgeName || "").trim();
  if (!name) {
    ctx.flash([t("judge.name_first")], "bad");
    return document.getElementById("judge-name")?.focus();
  }
  localStorage.setItem("tableside.judge.name", name);
  if (await confirm(t("judge.sign"), t("judge.sign_confirm", { table: ctx.state.table }), { yes: t("judge.sign") })) {
    return ctx.send({ type: "SignProtocol", judge: name });
  }
}

async function conflictKeep(ctx) {
  const held = ctx.outbox.held;
  if (!held) return;
  const current = held.held?.problem?.current_version;
  await ctx.outbox.resolve(held.seq, { body: { ...held.body, expected_version: current } });
}

async function conflictDrop(ctx) {
  const count = ctx.state.pending.length;
  if (!(await confirm(t("judge.conflict_title"), t("judge.conflict_drop_confirm", { count })))) return;
  for (const entry of [...ctx.state.pending].reverse()) await ctx.outbox.discard(entry.seq);
}

/** Each button's action, called with the face's `ctx` and the button's value. */
export const ACTIONS = {
  pocketed: (ctx, n) => tap(ctx, { own_pocketed: n }),
  pocketed_more: pocketedMore,
  no_pocket: (ctx) => tap(ctx, {}),
  striker_pocket: (ctx) => arm(ctx, "striker_pocket"),
  striker_over: (ctx) => arm(ctx, "striker_over"),
  puck_over: puckOver,
  foul, remark, more, time, undo, opening, sign,
  no_show: noShow,
  next_game: nextGame,
  judge_name: (ctx, value) => { ctx.state.judgeName = value; },
  conflict_keep: conflictKeep,
  conflict_drop: conflictDrop,
};
