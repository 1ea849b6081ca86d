// Match events in plain words, in the reader's language: "Mari Tamm pocketed 2 — turn continues".
//
//   import { eventText, entryLines, sideNames } from "/js/spectator-words.js";
//   eventText({ type, event }, names)    // one event: "turn passes to Jaan Kask"
//   entryLines(events, names)            // one line per judge's entry (a stroke and what the
//                                        // rules made of it), newest last
//   names = sideNames(liveDoc)           // { A: "Mari Tamm", B: "Jaan Kask" }
//
// The messages live in i18n/spectator.<lang>.json (`ev.*`), so a page using this module
// loads the spectator face's messages (`data-i18n-faces="… spectator"`).

import { citation, codeWords as words, reasonWords, rulesetWords, t } from "/js/i18n.js";

// The first event of each judge's command; everything after it, up to the next, is what the
// rules decided (mirrors ENTRY_LIST in backend/tableside/rules/events.py).
export const ENTRY_TYPES = new Set(["MatchCreated", "OpeningShotAssigned", "StrokeRecorded",
  "IncidentReported", "CorrectionRecorded", "ProtocolSigned", "MatchScheduled", "PlayersCalled"]);

// Consequences not worth a spectator's attention (the auditor still sees each one).
const QUIET = new Set(["RowMoved"]);

/** Names of each side from a live or protocol document. */
export function sideNames(doc) {
  return { A: (doc?.side_a || []).join(" / ") || "A", B: (doc?.side_b || []).join(" / ") || "B",
           ruleset: doc?.ruleset || "" };
}

const own = (key, names, params) => rulesetWords(key, names?.ruleset, params);

function stroke(e) {
  const f = e.facts || {};
  let text = f.own_pocketed
    ? t("ev.stroke.pocketed", { player: e.player, count: f.own_pocketed })
    : t("ev.stroke.none", { player: e.player });
  if (f.opponent_pocketed) text += t("ev.stroke.opponent", { count: f.opponent_pocketed });
  if (f.striker === "pocket") text += t("ev.stroke.striker_pocket");
  if (f.striker === "over") text += t("ev.stroke.striker_over");
  if (!e.legal) text += t("ev.stroke.foul");
  return text;
}

const TEXT = {
  MatchCreated: (e) => t("ev.MatchCreated", { a: e.side_a.join(" / "), b: e.side_b.join(" / "),
                                              ruleset: e.ruleset, count: e.games }),
  MatchScheduled: (e) => t("ev.MatchScheduled", { table: e.table }),
  PlayersCalled: (e) => t("ev.PlayersCalled", { table: e.table }),
  OpeningShotAssigned: (e, n) => t("ev.OpeningShotAssigned", { name: n[e.side], method: words(e.method) }),
  GameSetUp: (e) => t(e.replay ? "ev.GameSetUp.replay" : "ev.GameSetUp",
                      { game: e.game_no, opener: e.opener }),
  StartPositionRestored: () => t("ev.StartPositionRestored"),
  StrokeRecorded: stroke,
  TurnKept: () => t("ev.TurnKept"),
  TurnPassed: (e) => t("ev.TurnPassed", { to: e.to }),
  TurnSkipped: (e) => t("ev.TurnSkipped", { player: e.player }),
  NextTurnForfeited: (e) => t("ev.NextTurnForfeited", { player: e.player }),
  FoulCommitted: (e) => t("ev.FoulCommitted", { what: words(e.code) }),
  OffenceDisregarded: (e) => t("ev.OffenceDisregarded", { what: words(e.code) }),
  PenaltyAwarded: (e) => t("ev.PenaltyAwarded", { player: e.player }),
  PenaltyPuckPlaced: (e) => t(e.from_debt ? "ev.PenaltyPuckPlaced.debt" : "ev.PenaltyPuckPlaced",
                              { player: e.player }),
  DebtRecorded: (e) => t("ev.DebtRecorded", { player: e.player }),
  DebtCancelled: (e, n) => t("ev.DebtCancelled", { name: n[e.side], count: e.count }),
  PucksRestored: (e, n) => t("ev.PucksRestored", { name: n[e.side], count: e.count }),
  PucksToCentre: (e, n) => t("ev.PucksToCentre", { name: n[e.side], count: e.count }),
  OpponentPucksLeft: (e, n) => t("ev.OpponentPucksLeft", { name: n[e.side], count: e.count }),
  SeriesStopped: (e) => t("ev.SeriesStopped", { player: e.player }),
  RowMoved: (e) => t("ev.RowMoved", { player: e.player }),
  RemarkGiven: (e, names) => own("ev.RemarkGiven", names,
                                 { player: e.player, count: e.count, what: words(e.reason) }),
  TimeLimitImposed: (e, n) => t("ev.TimeLimitImposed", { name: n[e.side] }),
  WarningGiven: (e) => t(e.card === "red" ? "ev.WarningGiven.red" : "ev.WarningGiven", { player: e.player }),
  GameEnded: (e, n) => t("ev.GameEnded", { game: e.game_no, name: n[e.winner], how: words(e.reason) }),
  GameAnnulled: (e) => t("ev.GameAnnulled", { game: e.game_no, how: words(e.reason) }),
  RemainingGamesLost: (e, n) => t("ev.RemainingGamesLost", { name: n[e.side], count: e.games }),
  PlayerRemoved: (e) => t("ev.PlayerRemoved", { player: e.player }),
  MatchEnded: (e, n) => (e.winner
    ? t("ev.MatchEnded", { a: e.games_a, b: e.games_b, name: n[e.winner] })
    : t("ev.MatchEnded.drawn", { a: e.games_a, b: e.games_b })),
  IncidentReported: (e, names) => own(
    e.kind === "remark" ? "ev.IncidentReported.remark" : "ev.IncidentReported",
    names, { what: words(e.code), player: e.player || "—" }),
  CorrectionRecorded: (e) => t(e.by === "head_judge" ? "ev.CorrectionRecorded.head" : "ev.CorrectionRecorded",
                               { version: e.corrects_version, why: reasonWords(e.reason) || "—" }),
  ProtocolSigned: (e) => t("ev.ProtocolSigned", { judge: e.judge }),
  MatchAbandoned: (e) =>
    t("ev.MatchAbandoned", { why: reasonWords(e.reason) }) + (e.note ? ` — “${e.note}”` : ""),
};

/** The stored event types this module has words for (a test holds it to the registry). */
export const WORDED = Object.keys(TEXT);

/** One stored event ({type, event}) in words. */
export function eventText({ type, event }, names = { A: "A", B: "B" }) {
  const text = TEXT[type];
  return text ? text(event || {}, names) : type;
}

/**
 * Group events (in version order) into one line per entry:
 * { version, type, text, rule, events } where text = "entry — consequence; consequence".
 */
export function entryLines(events, names) {
  const lines = [];
  for (const item of events) {
    const last = lines[lines.length - 1];
    if (ENTRY_TYPES.has(item.type) || !last) {
      lines.push({ version: item.version, type: item.type, head: eventText(item, names),
                   more: [], rules: [], events: [item] });
    } else {
      last.events.push(item);
      if (!QUIET.has(item.type)) last.more.push(eventText(item, names));
    }
    const rule = item.event?.rule;
    const line = lines[lines.length - 1];
    if (rule && !line.rules.includes(citation(rule))) line.rules.push(citation(rule));
  }
  return numbered(lines).map((l) => ({ ...l, text: lineText(l) }));
}

/** Entries numbered 1, 2, 3… as the reader sees them (not by stored version, which skips the
 *  events an entry brings along); an entry a correction took back is marked, both ways. */
function numbered(lines) {
  const byVersion = new Map();
  lines.forEach((line, i) => {
    line.n = i + 1;
    for (const item of line.events) byVersion.set(item.version, line);
  });
  for (const line of lines) {
    const fix = line.events.find((item) => item.type === "CorrectionRecorded");
    const target = fix && byVersion.get(fix.event.corrects_version);
    if (!target || target === line) continue;
    target.undone = line.n;
    line.corrects = target.n;
    // One numbering on a line: the entry it takes back, never the stored event's version.
    const key = fix.event.by === "head_judge" ? "ev.CorrectionRecorded.head_entry" : "ev.CorrectionRecorded.entry";
    if (line.events[0] === fix) line.head = t(key, { n: target.n, why: reasonWords(fix.event.reason) || "—" });
  }
  return lines;
}

function lineText(l) {
  const text = l.more.length ? `${l.head} — ${l.more.join("; ")}` : l.head;
  if (l.undone) return `${text} (${t("spec.undone", { n: l.undone })})`;
  if (l.corrects && l.events[0].type !== "CorrectionRecorded") {
    return `${text} (${t("spec.corrects", { n: l.corrects })})`;
  }
  return text;
}
