// What each button of the judge face does: the one-tap outcomes, and the pickers for the rest
// (offences, remarks and incidents of the ruleset in force, each with its paragraph).

import { t } from "/js/i18n.js";
import { state, send, render, flash, outbox, loadJudgeState, wasSent, confirmKey } from "/js/judge-app.js";
import { stroke, sidesOf, sideIndex, describeEntry } from "/js/judge-model.js";
import { pick, confirm } from "/js/judge-sheets.js";

const doc = () => state.shown;
const turn = () => doc().game.turn;
const cite = (key) => state.catalogue?.cite?.[key] || "";
const outcomeNote = (o) => `${o.rule} · ${t(`judge.consequence.${o.consequence}`)}`;
const tap = (facts) => send(stroke(turn(), facts));

/** Every player of the match, the one with the turn first. */
async function choosePlayer(title = t("judge.which_player")) {
  const all = sidesOf(doc()).flat();
  const ordered = [turn(), ...all.filter((p) => p !== turn())].filter(Boolean);
  return pick(title, ordered.map((p) => ({ value: p, label: p,
                                           className: `side-btn side-${sideIndex(doc(), p)}` })));
}

function foulItems() {
  const contact = [
    ["contact_none", "judge.contact.none", { first_contact: "none" }, "direct_no_own"],
    ["contact_opponent", "judge.contact.opponent", { first_contact: "opponent" }, "direct_opponent_first"],
    ["contact_locked", "judge.contact.own_locked",
      { first_contact: "own_locked_zone", own_locked_before: true }, "direct_own_locked"],
    ["zone_line", "judge.zone_line", { crossed_zone_line: true }, "zone_line"],
    ["opponent_pocketed", "judge.opponent_pocketed", { opponent_pocketed: 1 }, "opponent_with_own"],
  ].map(([value, label, facts, key]) => ({ value, label: t(label), note: cite(key), facts }));
  const offences = (state.catalogue?.stroke_offences || []).map((o) => ({
    value: o.code, label: t(`offence.${o.code}`), note: outcomeNote(o), facts: { offences: [o.code] },
  }));
  const decline = { value: "decline", label: t("judge.decline"), note: cite("pass") };
  return [...contact, ...offences, decline];
}

async function foul() {
  const items = foulItems();
  const chosen = await pick(t("judge.foul"), items);
  if (chosen === "decline") return send({ type: "DeclineTurn", player: turn() });
  const item = items.find((i) => i.value === chosen);
  if (item) return tap(item.facts);
}

async function remark() {
  const pairs = doc().format === "pairs";
  const items = (state.catalogue?.remarks || [])
    .filter((r) => pairs || r.code !== "partner_advice_after_placing")
    .map((r) => ({ value: r.code, label: t(`remark.${r.code}`), note: r.rule }));
  const reason = await pick(t("judge.remark"), items);
  if (!reason) return;
  const player = await choosePlayer();
  if (player) return send({ type: "GiveRemark", player, reason });
}

async function incident() {
  const items = (state.catalogue?.incidents || []).map((o) => ({
    value: o.code, label: t(`incident.${o.code}`), note: outcomeNote(o) }));
  const code = await pick(t("judge.incident"), items);
  if (!code) return;
  const player = await choosePlayer();
  if (!player) return;
  const command = { type: "ReportIncident", code, player };
  if (code === "moved_pucks") command.pucks_moved = 2;
  if (code === "moved_last_puck") command.pucks_moved = 1;
  return send(command);
}

async function more() {
  const items = [
    { value: "incident", label: t("judge.incident") },
    { value: "knock", label: t("judge.knock"), note: cite("table_knock") },
    { value: "decline", label: t("judge.decline"), note: cite("pass") },
    { value: "time_5s", label: t("judge.time_5s"), note: cite("slow_5s") },
    { value: "time_30s", label: t("judge.time_30s"), note: cite("time_30s") },
    { value: "yellow", label: t("judge.yellow"), note: cite("yellow") },
    { value: "red", label: t("judge.red"), note: cite("red") },
  ];
  const debtSide = (doc().game.pucks || []).findIndex((p) => p.debt > 0);
  if (debtSide >= 0 && state.catalogue?.cite?.debt_forgotten) {
    items.push({ value: "forget", label: t("judge.forget_debt"), note: cite("debt_forgotten") });
  }
  const chosen = await pick(t("judge.more"), items);
  if (chosen === "incident") return incident();
  if (chosen === "decline") return send({ type: "DeclineTurn", player: turn() });
  if (chosen === "time_5s" || chosen === "time_30s") {
    return send({ type: "ReportTimeExceeded", player: turn(), limit: chosen.slice(5) });
  }
  if (chosen === "forget") return send({ type: "ForgetDebt", side: debtSide ? "B" : "A" });
  if (chosen === "knock") {
    const n = await pick(t("judge.knock_count"), [0, 1, 2, 3].map((k) => ({
      value: String(k), label: k === 3 ? "3+" : String(k) })), { columns: 4 });
    if (n !== null) return send({ type: "KnockTable", player: turn(), pucks_moved: Number(n) });
    return;
  }
  if (chosen === "yellow" || chosen === "red") {
    const player = await choosePlayer();
    if (player) return send({ type: "GiveWarning", player, card: chosen });
  }
}

async function pocketedMore() {
  const side = sideIndex(doc(), turn());
  const left = doc().game.pucks[side].on_board;
  const items = [];
  for (let n = 3; n <= left; n += 1) items.push({ value: String(n), label: String(n) });
  const n = await pick(t("judge.pocketed_n_title"), items, { columns: 4 });
  if (n) return tap({ own_pocketed: Number(n) });
}

async function puckOver() {
  const chosen = await pick(t("judge.puck_over"), [
    { value: "own", label: t("judge.own_over"), note: cite("puck_over") },
    { value: "opponent", label: t("judge.opponent_over"), note: cite("puck_over") },
  ]);
  if (chosen === "own") return tap({ own_over: 1 });
  if (chosen === "opponent") return tap({ opponent_over: 1, over_first_touched: "" });
}

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
    await outbox.discard(last.seq);
    if (!wasSent(last.seq)) return;
  } else if (last) {
    await outbox.settled();
  }
  const judge = await loadJudgeState();
  const target = navigator.onLine ? judge?.undo : undefined;
  if (target === null) return flash([t("judge.undo_nothing")], "bad");
  const text = target ? t("judge.undo_sent", { what: describeEntry(target.type, target.event) })
                      : t("judge.undo_unknown");
  if (await confirm(t("judge.undo_title"), text, { yes: t("judge.undo") })) {
    state.undoWhat = target ? describeEntry(target.type, target.event) : "";
    return send({ type: "UndoLastEntry", reason: "table judge: entered by mistake" });
  }
}

async function opening(value) {
  if (value === "listing") return send({ type: "AssignOpeningShot", method: "listing" });
  const command = { type: "AssignOpeningShot", method: "lot", lot_winner: value };
  if (doc().format === "pairs") {
    const [mine, theirs] = value === "A" ? sidesOf(doc()) : sidesOf(doc()).reverse();
    const i = value === "A" ? 0 : 1;
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
  const held = outbox.held;
  if (!held) return;
  const current = held.held?.problem?.current_version;
  await outbox.resolve(held.seq, { body: { ...held.body, expected_version: current } });
}

async function conflictDrop() {
  const count = state.pending.length;
  if (!(await confirm(t("judge.conflict_title"), t("judge.conflict_drop_confirm", { count })))) return;
  for (const entry of [...state.pending].reverse()) await outbox.discard(entry.seq);
}

export const ACTIONS = {
  pocketed: (n) => tap({ own_pocketed: n }),
  pocketed_more: pocketedMore,
  no_pocket: () => tap({}),
  striker_pocket: () => tap({ striker: "pocket" }),
  striker_over: () => tap({ striker: "over" }),
  puck_over: puckOver,
  foul, remark, more, time, undo, opening, sign,
  next_game: nextGame,
  judge_name: (value) => { state.judgeName = value; },
  conflict_keep: conflictKeep,
  conflict_drop: conflictDrop,
};
