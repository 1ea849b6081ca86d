// A stored backgammon event in words, for the recorder's banner and the audit's timeline:
// "Ása plays 3-1: 8/5 6/5", "Bjarni takes: the cube is at 2". The words live in
// i18n/backgammon.<lang>.json (bg.ev.<type>); the paragraph cited is the event's `rule`.
//
//   import { bgEventText } from "/js/bg-words.js";
//   bgEventText(event, { A: "Ása", B: "Bjarni" })
//   bgBoardNames(boardDoc)   // { A: "Ása", B: "Bjarni" } from a board document

import { citation, t } from "/js/i18n.js";
import { clockText } from "/js/bg-board.js";
import { playText } from "/js/bg-entry.js";

const other = (side) => (side === "A" ? "B" : "A");
const score = (pair) => (pair ? `${pair[0]}:${pair[1]}` : "");

/** The variant of an event's words, when it has one (a tie, a Crawford game, an illegal play). */
function variant(e) {
  if (e.type === "BgOpeningRolled" && !e.starter) return ".tie";
  if (e.type === "BgGameStarted" && e.crawford) return ".crawford";
  if (e.type === "BgPlayRecorded" && e.legal === false) return ".illegal";
  if (e.type === "BgTDCalled" && e.reason) return ".reason";
  if (e.type === "BgAppealDecided" && e.jury) return e.overturned ? ".overturned" : ".upheld";
  if (e.type === "BgScoreSet" && e.sheet_a && e.sheet_b) return ".sheets";
  return "";
}

function params(e, names) {
  const side = e.side || e.winner || e.starter || e.requested_by || "";
  return {
    ...e,
    type: e.type,
    name: names[side] || side,
    other: names[other(side)] || "",
    a: names.A || "A",
    b: names.B || "B",
    dice: e.dice ? e.dice.join("-") : "",
    // the opening roll, the starter's (higher) die first: "3-1: Ása starts"
    roll: e.starter === "B" ? `${e.die_b}-${e.die_a}` : `${e.die_a}-${e.die_b}`,
    moves: playText(e.moves),
    kind: e.kind ? t(`bg.kind.${e.kind}`) : "",
    by: e.by ? t(`bg.by.${e.by}`) : "",
    score: score(e.score),
    n: e.to_version ?? "",
    text: e.text || e.name || "",
    time: e.ms !== undefined ? clockText(Math.abs(e.ms)) : "",
    a_time: e.remaining ? clockText(e.remaining[0]) : "",
    b_time: e.remaining ? clockText(e.remaining[1]) : "",
    caller: e.type === "BgTDCalled" ? (names[e.side] || t("bg.ev.caller_official")) : "",
    jury: e.jury ? e.jury.join(", ") : "",
    votes: e.overturn_votes ?? "",
    size: e.jury ? e.jury.length : "",
    monitor: e.type === "BgMonitorReported" ? e.name : "",
    seconds: e.ms !== undefined ? Math.round(Math.abs(e.ms) / 1000) : "",
    sheet_a: score(e.sheet_a),
    sheet_b: score(e.sheet_b),
    // the count a plural form is picked by (t: `key.one`, … by Intl.PluralRules)
    ...(e.type === "BgPenaltyPoints" ? { count: e.points } : {}),
  };
}

/** The names of a match's sides from its record (the created event), "A" / "B" without one. */
export function bgNames(events) {
  const created = events.find((e) => e.type === "BgMatchCreated") || {};
  return { A: created.player_a || "A", B: created.player_b || "B" };
}

/** The names of a match's sides from a board document (view.board_doc). */
export function bgBoardNames(board) {
  return { A: board?.players?.[0] || "A", B: board?.players?.[1] || "B" };
}

/** One event in the reader's language. */
export function bgEventText(event, names) {
  const key = `bg.ev.${event.type}`;
  const words = t(key + variant(event), params(event, names));
  return words === key + variant(event) ? t("bg.ev.other", { type: event.type }) : words;
}

/** A paragraph cited, with its title in words when the face has one:
 *  "KSI 2.2.2 (Pauses)", "KSI 4.3.2.3 (a die fell on the floor)". */
export function ruleWords(rule) {
  const para = String(rule || "").replace(/^KSI\s+/, "");
  const stop = /^4\.3\.2\.(\d)$/.exec(para);
  const key = stop ? `bg.stop.${stop[1]}` : `bg.rule.${para}`;
  const words = t(key);
  return !rule || words === key ? citation(rule) : `${citation(rule)} (${words})`;
}
