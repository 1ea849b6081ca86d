// The judge face's pure parts: command bodies for each tap, the board as expected while
// commands wait in the outbox, the banner for what the engine decided, an entry in words.
// No DOM here; judge-app.js draws.

import { citation, rulesetWords, t } from "/js/i18n.js";

/** The players of both sides, side A first. */
export const sidesOf = (doc) => [doc?.side_a || [], doc?.side_b || []];

/** 0 for side A, 1 for side B, -1 when the player is not in the match. */
export function sideIndex(doc, player) {
  return sidesOf(doc).findIndex((players) => players.includes(player));
}

/** What the "Other pucks…" button arms, one at a time (judge-pickers.js `puckOver`). */
export const OTHER_PUCKS = ["opponent_pocketed", "own_over", "opponent_over", "opponent_into_zone",
  "opponent_into_zone_hit", "opponent_into_centre", "opponent_into_centre_hit"];

/** `rulesetWords` for a match document (its ruleset). */
export const rulesetWord = (key, doc, params) => rulesetWords(key, doc?.ruleset, params);

/** The slow-play remark is in the ruleset's list, so a time limit can start (EKML §26(4));
 *  before the catalogue has loaded, assumed. */
export const slowPlayKnown = (catalogue) => !catalogue || catalogue.remarks.some((r) => r.code === "slow_play");

export const fullSet = (doc) => (doc?.format === "pairs" ? 16 : 8);

/** A stroke by the player with the turn; `facts` only names what differs from a plain one. */
export function stroke(player, facts = {}) {
  return { type: "RecordStroke", player, facts };
}

/** Does this stroke (facts) cost the turn or a penalty? A judge-side guess, never the record. */
function verdict(facts) {
  const contact = facts.first_contact || "own_open";
  const foul = (facts.striker && facts.striker !== "board") || (facts.offences || []).length > 0
    || !["own_open", "opposite_cushion"].includes(contact);
  const keeps = !foul && (facts.own_pocketed || 0) > 0 && !facts.opponent_pocketed
    && !facts.own_over && !facts.opponent_over && !facts.crossed_zone_line;
  return { foul, keeps };
}

function nextSeat(game, player) {
  const seats = game.seats || [];
  const i = seats.indexOf(player);
  return i < 0 ? player : seats[(i + 1) % seats.length];
}

function penalise(doc, pucks, side) {
  const p = pucks[side];
  if (p.on_board >= fullSet(doc)) pucks[side] = { ...p, debt: p.debt + 1 };
  else pucks[side] = { ...p, on_board: p.on_board + 1, pocketed: Math.max(0, p.pocketed - 1) };
}

/**
 * The live document as it will probably be once `command` is recorded: pucks, turn, remarks.
 * Only for display while offline; the server's documents replace it as they arrive.
 */
export function predict(doc, command) {
  if (!doc?.game || doc.game.over) return doc;
  const game = { ...doc.game, pucks: doc.game.pucks.map((p) => ({ ...p })) };
  const next = { ...doc, game, predicted: true };
  if (command.type === "GiveRemark") {
    const side = sideIndex(doc, command.player);
    if (side >= 0) next.remarks = doc.remarks.map((n, i) => (i === side ? n + 1 : n));
    return next;
  }
  if (command.type === "DeclineTurn") {
    penalise(doc, game.pucks, sideIndex(doc, command.player));
    game.turn = nextSeat(game, command.player);
    return next;
  }
  if (command.type !== "RecordStroke") return next;
  const f = command.facts || {};
  const side = sideIndex(doc, command.player);
  const other = 1 - side;
  const take = (i, n) => {
    const p = game.pucks[i];
    const k = Math.min(n || 0, p.on_board);
    game.pucks[i] = { ...p, on_board: p.on_board - k, pocketed: p.pocketed + k };
  };
  take(side, f.own_pocketed);
  take(other, f.opponent_pocketed);
  game.strokes += 1;
  game.started = true;
  const { foul, keeps } = verdict(f);
  if (foul) penalise(doc, game.pucks, side);
  if (game.pucks[side].on_board === 0 && !game.pucks[side].debt) game.over = true;
  else if (!keeps) game.turn = nextSeat(game, command.player);
  return next;
}

/** Entries' commands folded onto the server's document. */
export const predictAll = (doc, commands) => commands.reduce(predict, doc);

// What the banner shows first, most serious first: [event type, words for it].
const BANNER = [
  ["MatchEnded", () => t("judge.match_ended")],
  ["GameEnded", (e, doc) => t("judge.game_ended", { n: e.game_no, name: sideName(doc, e.winner) })],
  ["GameAnnulled", (e) => t("judge.game_annulled", { n: e.game_no })],
  ["RemainingGamesLost", (e, doc) => t("judge.remaining_lost", { count: e.games, name: sideName(doc, e.side) })],
  ["PlayerRemoved", (e) => t("judge.player_removed", { name: e.player })],
  ["WarningGiven", (e) => t("judge.warning_given", { card: t(`judge.card.${e.card}`), name: e.player })],
  ["PenaltyAwarded", (e) => t("judge.penalty_puck_to", { name: e.player })],
  ["NextTurnForfeited", (e) => t("judge.turn_forfeited_by", { name: e.player })],
  ["DebtRecorded", () => t("judge.debt_owed")],
  ["PenaltyPuckPlaced", () => t("judge.penalty_placed")],
  ["TimeLimitImposed", () => t("judge.time_limit_imposed")],
  ["RemarkGiven", (e, doc) => rulesetWord("judge.remark_given", doc, { count: e.count, name: e.player })],
  ["SeriesStopped", () => t("judge.series_stopped")],
  ["TurnPassed", () => t("judge.loss_of_turn")],
  ["TurnSkipped", (e) => `${e.player}: ${t("judge.turn_skipped")}`],
  ["TurnKept", () => t("judge.another_stroke")],
  ["DebtCancelled", () => t("judge.debt_cancelled")],
  ["OffenceDisregarded", () => t("judge.offence_noted")], // forbidden, no sanction (LV 13.2 unfilled)
  ["PucksToCentre", () => t("judge.pucks_to_centre")],
  ["CorrectionRecorded", () => t("judge.corrected")],
  ["ProtocolSigned", () => t("judge.signed_banner")],
];

function sideName(doc, side) {
  const players = sidesOf(doc)[side === "B" ? 1 : 0];
  return players.join(" / ") || side;
}

/**
 * Up to three lines ("Loss of turn — EKML §25(1)1") for a command's stored events, most
 * serious first; `tone` is "bad" when the shooter was punished, else "ok".
 */
export function bannerFor(events, doc) {
  const lines = [];
  for (const [type, words] of BANNER) {
    const found = events.find((e) => e.type === type);
    if (!found) continue;
    const rule = citation(found.event?.rule);
    lines.push(rule ? `${words(found.event, doc)} — ${rule}` : words(found.event, doc));
    if (lines.length === 3) break;
  }
  const bad = events.some((e) => ["PenaltyAwarded", "TurnPassed", "RemarkGiven", "WarningGiven",
    "PlayerRemoved", "RemainingGamesLost"].includes(e.type));
  return { lines, tone: bad ? "bad" : "ok" };
}

/** An entry (command or stored entry event) in the judge's words, for undo and conflicts. */
export function describeEntry(type, entry) {
  if (type === "RecordStroke" || type === "StrokeRecorded") {
    return `${t("judge.stroke_by", { name: entry.player })}: ${strokeWords(entry.facts || {})}`;
  }
  if (type === "GiveRemark") return `${t("term.remark")} · ${entry.player}: ${t(`remark.${entry.reason}`)}`;
  if (type === "IncidentReported") {
    const word = { remark: `remark.${entry.code}`, incident: `incident.${entry.code}`,
                   pass: "judge.decline", table_knock: "judge.knock",
                   time: `judge.time_${entry.code}`, warning: `judge.${entry.code}`,
                   debt_forgotten: "judge.forget_debt" }[entry.kind];
    return [entry.player, word ? t(word) : entry.code].filter(Boolean).join(": ");
  }
  if (type === "ReportIncident") return `${entry.player || ""}: ${t(`incident.${entry.code}`)}`;
  if (type === "DeclineTurn") return `${entry.player}: ${t("judge.decline")}`;
  if (type === "KnockTable") return `${entry.player}: ${t("judge.knock")}`;
  if (type === "ReportTimeExceeded") return `${entry.player}: ${t(`judge.time_${entry.limit}`)}`;
  if (type === "GiveWarning") return `${entry.player}: ${t(`judge.${entry.card}`)}`;
  if (type === "OpeningShotAssigned" || type === "AssignOpeningShot") {
    return `${t("term.opening_shot")}: ${(entry.seats || [entry.opener || entry.lot_winner]).join(", ")}`;
  }
  if (type === "UndoLastEntry") return t("judge.undo");
  return type;
}

function strokeWords(f) {
  const words = [];
  if (f.own_pocketed) words.push(`${t("term.pocketed")} ${f.own_pocketed}`);
  if (f.opponent_pocketed) words.push(t("judge.opponent_pocketed"));
  if (f.striker === "pocket") words.push(t("judge.striker_pocket"));
  if (f.striker === "over") words.push(t("judge.striker_over"));
  if (f.own_over) words.push(t("judge.own_over"));
  if (f.opponent_over) words.push(t("judge.opponent_over"));
  const hit = f.first_contact === "opponent" ? "_hit" : ""; // by a direct hit on it (§21(7))
  if (f.opponent_into_zone) words.push(t(`judge.opponent_into_zone${hit}`));
  if (f.opponent_into_centre) words.push(t(`judge.opponent_into_centre${hit}`));
  const locked = f.opponent_into_zone || f.opponent_into_centre;
  if (f.first_contact === "none") words.push(t("judge.contact.none"));
  if (hit && !locked) words.push(t("judge.contact.opponent"));
  if (f.first_contact === "own_locked_zone") words.push(t("judge.contact.own_locked"));
  if (f.crossed_zone_line) words.push(t("judge.zone_line"));
  for (const code of f.offences || []) words.push(t(`offence.${code}`));
  return words.join(", ") || t("judge.no_pocket");
}
