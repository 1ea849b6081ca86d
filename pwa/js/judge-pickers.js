// The pickers behind the pad's "…" buttons: the offences, remarks and incidents of the
// ruleset in force (GET /api/rulesets/{name}), each in the judge's language with its paragraph.
// Each is handed the face's `ctx` (judge-app.js): its state, and `send` and `render`.

import { citation, t } from "/js/i18n.js";
import { OTHER_PUCKS, rulesetWord, slowPlayKnown, stroke, sidesOf, sideIndex } from "/js/judge-model.js";
import { pick } from "/js/judge-sheets.js";
import { headJudgeConfirms } from "/js/judge-confirm.js";

export const doc = (ctx) => ctx.state.shown;
export const turn = (ctx) => doc(ctx).game.turn;
export const cite = (ctx, key) => citation(ctx.state.catalogue?.cite?.[key]);
// NOVUS08 calls its remark hoiatus: the consequence in the ruleset's own word.
// A turn in which both sides have pucks only in the centre circle and the striker, banked off
// the opposite cushion, touches none of them: not punished (EKML §24(1)6 märkus 1), and the
// sixth such turn in a row annuls the game (§27(6), the second paragraph so numbered).
const STALEMATE_TURN = { kind: "bank_opposite", first_contact: "opposite_cushion",
                         own_open_before: false, own_locked_before: true, only_centre: true };

const outcomeNote = (ctx, o) =>
  `${citation(o.rule)} · ${rulesetWord(`judge.consequence.${o.consequence}`, doc(ctx))}`;
/** Record one stroke: these facts plus whatever modifiers are armed (then disarmed). */
export const tap = (ctx, facts) => {
  const all = { ...armedFacts(ctx.state), ...facts };
  ctx.state.armed = {};
  return ctx.send(stroke(turn(ctx), all));
};

// A stroke with several outcomes (issue 14 point 1): the modifiers — the striker in a pocket
// or over the cushion, an opponent's puck pocketed, a puck over the cushion — are armed first
// (their buttons stay pressed), then the main outcome (pocketed N, no pocket) records them all
// as ONE stroke: "pocketed 2 and the striker went in" is two taps, the common case still one.
const MODIFIER_FACTS = {
  striker_pocket: { striker: "pocket" },
  striker_over: { striker: "over" },
  opponent_pocketed: { opponent_pocketed: 1 },
  own_over: { own_over: 1 },
  opponent_over: { opponent_over: 1, over_first_touched: "" },
  opponent_into_zone: { opponent_into_zone: 1 },
  opponent_into_centre: { opponent_into_centre: 1 },
  // driven there by a direct hit on it (EKML §21(7); pairs §28(3)/(4)): the first contact says so
  opponent_into_zone_hit: { opponent_into_zone: 1, first_contact: "opponent" },
  opponent_into_centre_hit: { opponent_into_centre: 1, first_contact: "opponent" },
  zone_line: { crossed_zone_line: true },
};

function armedFacts(state) {
  return Object.assign({}, ...Object.keys(state.armed || {}).map((k) => MODIFIER_FACTS[k]));
}

/** Arm a modifier, or disarm it when it is armed already; the striker ends in one place. */
export function arm(ctx, name) {
  const { state } = ctx;
  const armed = { ...(state.armed || {}) };
  const was = armed[name];
  for (const other of EXCLUSIVE.find((group) => group.includes(name)) || []) delete armed[other];
  if (!was) armed[name] = true;
  state.armed = armed;
  ctx.render();
}

// One striker ends in one place; the "Other pucks…" button arms one of its choices at a time;
// the zone line (armed from Foul…) goes with any of them and with what was pocketed.
const EXCLUSIVE = [["striker_pocket", "striker_over"], OTHER_PUCKS, ["zone_line"]];

/** Every player of the match, the one with the turn first; `first` (what a rule decides)
 *  before all, marked as the expected choice. */
async function choosePlayer(ctx, title = t("judge.which_player"), first = "") {
  const all = sidesOf(doc(ctx)).flat();
  const ordered = [...new Set([first, turn(ctx), ...all].filter(Boolean))];
  return pick(title, ordered.map((p) => ({
    value: p, label: p, className: `side-btn side-${sideIndex(doc(ctx), p)}${p === first ? " primary" : ""}`,
  })));
}

/** EKML §28(9): only the player without the turn may advise, so advice after the striker is
 *  placed is the shooting pair's partner's (the remark goes to the pair). */
function adviser(ctx) {
  const pair = sidesOf(doc(ctx))[sideIndex(doc(ctx), turn(ctx))] || [];
  return pair.find((p) => p !== turn(ctx)) || "";
}

function foulItems(ctx) {
  const contact = [
    ["contact_none", "judge.contact.none", { first_contact: "none" }, "direct_no_own"],
    ["contact_opponent", "judge.contact.opponent", { first_contact: "opponent" }, "direct_opponent_first"],
    ["contact_locked", "judge.contact.own_locked",
      { first_contact: "own_locked_zone", own_locked_before: true }, "direct_own_locked"],
    // the counts where the rule counts: two or more lose the game (EKML §23(1)1, §23(1)4)
    ["contact_locked_out_2", "judge.contact.own_locked_out_2",
      { first_contact: "own_locked_zone", own_locked_before: true, own_locked_out: 2 }, "locked_out_2"],
    ["contact_locked_moved_2", "judge.contact.own_locked_moved_2",
      { first_contact: "own_locked_zone", own_locked_before: true, locked_hit_moved: 2 }, "locked_hit_moved_2"],
    // a bank stroke off the opposite cushion (EKML §24(1)3), and with every own puck locked (§24(1)6)
    ["contact_bank_opponent", "judge.contact.bank_opponent",
      { kind: "bank_opposite", first_contact: "opponent" }, "bank_opponent_first"],
    ["contact_all_locked_miss", "judge.contact.all_locked_miss",
      { first_contact: "none", own_open_before: false, own_locked_before: true }, "all_locked_bank_miss"],
    ["zone_line", "judge.zone_line", { crossed_zone_line: true }, "zone_line"],
    ["opponent_pocketed", "judge.opponent_pocketed", { opponent_pocketed: 1 }, "opponent_with_own"],
  ].filter(([, , , key]) => ctx.state.catalogue?.cite?.[key]) // not where the ruleset has it not
    .map(([value, label, facts, key]) => ({ value, label: t(label), note: cite(ctx, key), facts,
                                            group: "judge.group.contact" }));
  const offences = applicable(ctx, ctx.state.catalogue?.stroke_offences || []).map((o) => ({
    value: o.code, label: t(`offence.${o.code}`), note: outcomeNote(ctx, o), facts: { offences: [o.code] },
    group: "judge.group.offence",
  }));
  const decline = { value: "decline", label: t("judge.decline"), note: cite(ctx, "pass"), group: "judge.group.turn" };
  return [...contact, decline, ...offences]; // the turn between: Cancel never sits under it
}

// What only a pairs match can have (the order of the four players, a partner's advice).
const PAIRS_ONLY = new Set(["wrong_order", "partner_advice_after_placing", "wrong_partner_order"]);

/** Only what can apply in this match: no pairs-only items in singles. */
function applicable(ctx, items) {
  return doc(ctx).format === "pairs" ? items : items.filter((o) => !PAIRS_ONLY.has(o.code));
}

export async function foul(ctx) {
  const items = foulItems(ctx);
  const chosen = await pick(t("judge.foul"), items, { used: "foul" });
  if (chosen === "decline") return ctx.send({ type: "DeclineTurn", player: turn(ctx) });
  if (chosen === "zone_line") return arm(ctx, "zone_line"); // then what was pocketed (EKML §25(1)4)
  const item = items.find((i) => i.value === chosen);
  if (item) return tap(ctx, item.facts);
}

export async function remark(ctx) {
  const items = applicable(ctx, ctx.state.catalogue?.remarks || [])
    .map((r) => ({ value: r.code, label: t(`remark.${r.code}`), note: citation(r.rule) }));
  const reason = await pick(rulesetWord("judge.remark", doc(ctx)), items, { used: "remark" });
  if (!reason) return;
  const first = reason === "partner_advice_after_placing" ? adviser(ctx) : "";
  const player = await choosePlayer(ctx, undefined, first);
  if (player) return ctx.send({ type: "GiveRemark", player, reason });
}

async function incident(ctx) {
  const items = applicable(ctx, ctx.state.catalogue?.incidents || []).map((o) => ({
    value: o.code, label: t(`incident.${o.code}`), note: outcomeNote(ctx, o) }));
  const code = await pick(t("judge.incident"), items, { used: "incident" });
  if (code) return reportIncident(ctx, code);
}

/** Report incident `code` against the player the judge picks next. */
async function reportIncident(ctx, code) {
  const player = await choosePlayer(ctx);
  if (!player) return;
  const command = { type: "ReportIncident", code, player };
  if ((ctx.state.catalogue?.head_judge_confirms || []).includes(code)) { // EKML §22(4)
    return headJudgeConfirms(ctx, command, `${t(`incident.${code}`)}: ${player}`);
  }
  // EKML §23(1)3 and §23(1)5: the game is lost when 2+ pucks moved (the label says so)
  if (code === "moved_pucks" || code === "ignored_stop") command.pucks_moved = 2;
  if (code === "moved_last_puck") command.pucks_moved = 1;
  return ctx.send(command);
}

/** Does the ruleset in force have it? Nothing is offered that the server always refuses: no
 *  card where the text has none (NOVUS08's yellow; LV with `fill_silences: none`), no time
 *  report without a slow-play remark to start the limit (EKML §26(4); LV unfilled has none). */
function offered(ctx, value) {
  const catalogue = ctx.state.catalogue;
  if (value === "yellow" || value === "red") return Boolean(catalogue?.cite?.[value]);
  if (value.startsWith("time")) return slowPlayKnown(catalogue);
  return true;
}

export async function more(ctx) {
  const { state, send } = ctx;
  // What only the head judge confirms is one tap from here, not under Incident… (EKML §22(4))
  const confirmed = (state.catalogue?.incidents || [])
    .filter((o) => (state.catalogue?.head_judge_confirms || []).includes(o.code))
    .map((o) => ({ value: `confirm:${o.code}`, label: t(`incident.${o.code}`), note: outcomeNote(ctx, o) }));
  const items = [
    { value: "incident", label: t("judge.incident") },
    ...confirmed,
    { value: "knock", label: t("judge.knock"), note: cite(ctx, "table_knock") },
    { value: "decline", label: t("judge.decline"), note: cite(ctx, "pass") },
    { value: "stalemate", label: t("judge.stalemate_turn", { n: doc(ctx).game.stalemate || 0 }),
      note: cite(ctx, "stalemate") },
    { value: "time_5s", label: rulesetWord("judge.time_5s", doc(ctx)), note: cite(ctx, "slow_5s") },
    { value: "time_30s", label: t("judge.time_30s"), note: cite(ctx, "time_30s") },
    { value: "yellow", label: t("judge.yellow"), note: cite(ctx, "yellow") },
    { value: "red", label: t("judge.red"), note: cite(ctx, "red") },
  ].filter((i) => offered(ctx, i.value));
  const debtSide = (doc(ctx).game.pucks || []).findIndex((p) => p.debt > 0);
  if (debtSide >= 0 && state.catalogue?.cite?.debt_forgotten) {
    items.push({ value: "forget", label: t("judge.forget_debt"), note: cite(ctx, "debt_forgotten") });
  }
  const chosen = await pick(t("judge.more"), items);
  if (chosen === "incident") return incident(ctx);
  if (chosen?.startsWith("confirm:")) return reportIncident(ctx, chosen.slice("confirm:".length));
  if (chosen === "stalemate") return tap(ctx, STALEMATE_TURN);
  if (chosen === "decline") return send({ type: "DeclineTurn", player: turn(ctx) });
  if (chosen === "time_5s" || chosen === "time_30s") {
    return send({ type: "ReportTimeExceeded", player: turn(ctx), limit: chosen.slice(5) });
  }
  if (chosen === "forget") return send({ type: "ForgetDebt", side: debtSide ? "B" : "A" });
  if (chosen === "knock") return knock(ctx);
  if (chosen === "yellow" || chosen === "red") {
    const player = await choosePlayer(ctx);
    if (player) return send({ type: "GiveWarning", player, card: chosen });
  }
}

/** EKML §23(1)2: the game is lost by whoever knocked the table, the waiting player as well
 *  as the shooter: the judge names the knocker, then how many pucks moved. */
async function knock(ctx) {
  const player = await choosePlayer(ctx, t("judge.knock_who"));
  if (!player) return;
  const n = await pick(t("judge.knock_count"), [0, 1, 2, 3].map((k) => ({
    value: String(k), label: k === 3 ? "3+" : String(k) })), { columns: 4 });
  if (n !== null) return ctx.send({ type: "KnockTable", player, pucks_moved: Number(n) });
}

export async function pocketedMore(ctx) {
  const side = sideIndex(doc(ctx), turn(ctx));
  const left = doc(ctx).game.pucks[side].on_board;
  const items = [];
  for (let n = 3; n <= left; n += 1) items.push({ value: String(n), label: String(n) });
  const n = await pick(t("judge.pocketed_n_title"), items, { columns: 4 });
  if (n) return tap(ctx, { own_pocketed: Number(n) });
}

/** "Other pucks…": arm an own or opponent's puck over the cushion, or an opponent's puck
 *  pocketed; with one armed, the button disarms them instead. */
export async function puckOver(ctx) {
  const armedOne = OTHER_PUCKS.find((k) => ctx.state.armed?.[k]);
  if (armedOne) return arm(ctx, armedOne); // pressed again: disarm
  // A legal stroke's puck stays where it went (EKML §21(8)); one driven there by a direct hit
  // on it is put back in singles (§21(7)), and in pairs stays in the rear zone (§28(3)) or
  // goes back from the centre (§28(4)), penalised either way (decision 0185).
  const pairs = doc(ctx).format === "pairs";
  const chosen = await pick(t("judge.other_pucks_title"), [
    { value: "opponent_pocketed", label: t("judge.opponent_pocketed"), note: cite(ctx, "opponent_with_own") },
    { value: "own_over", label: t("judge.own_over"), note: cite(ctx, "puck_over") },
    { value: "opponent_over", label: t("judge.opponent_over"), note: cite(ctx, "puck_over") },
    { value: "opponent_into_zone", label: t("judge.opponent_into_zone"), note: cite(ctx, "into_lock_legal") },
    { value: "opponent_into_zone_hit", label: t("judge.opponent_into_zone_hit"),
      note: cite(ctx, pairs ? "pairs_zone_not_restored" : "into_lock_restored") },
    { value: "opponent_into_centre", label: t("judge.opponent_into_centre"), note: cite(ctx, "into_lock_legal") },
    { value: "opponent_into_centre_hit", label: t("judge.opponent_into_centre_hit"),
      note: cite(ctx, pairs ? "pairs_centre_restored" : "into_lock_restored") },
  ]);
  if (chosen) arm(ctx, chosen);
}

/** A no-show before any opening (EKML §22(3)): the opening panel's button; the match is lost
 *  by the player who is not at the table. */
export async function noShow(ctx) {
  const [a, b] = sidesOf(doc(ctx));
  const items = [...a.map((p) => [p, 0]), ...b.map((p) => [p, 1])].map(([p, i]) => ({
    value: p, label: p, className: `side-btn side-${i}`, note: cite(ctx, "no_show") }));
  const player = await pick(t("judge.no_show_who"), items);
  if (player) return ctx.send({ type: "ReportIncident", code: "no_show", player });
}
