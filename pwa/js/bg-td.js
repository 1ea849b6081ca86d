// The TD's and the monitor's sheet on the recorder face, folded away under the players' pad:
// lateness (KSI 2.2.4), a pause (2.2.2), the clock's stops in exactly the eight cases of 4.3.2,
// a wrong game-over claim (+5 min, 4.3.2.8), dice picked up early (30 s, 4.1.5.2), a flag
// (4.3.3), the TD called, a ruling, an appeal and the jury's decision (5.1-5.2, 1.3.2), a
// monitor (1.3.3), an expulsion (1.7.3), slow play (penalty points 2.3.1.2, a clock imposed
// 2.3.1.1), scoresheets that differ between games (4.7), a wrong result corrected (4.6). Each form sends one engine command through the
// recorder (so through the outbox); the engine decides, and a refusal is said with its
// paragraph in words (bg-words.js ruleWords). On a table's device (the players' or the
// monitor's) only what they may record shows: pauses, clock stops, a flag, calling the TD,
// an appeal.
//
//   tdSheet(rec)   a <details data-td> with one <form data-td-form="…"> per command; the same
//                  node while the names, the clock and the language stay (typing survives a
//                  redraw)

import { i18n, t } from "/js/i18n.js";
import { h } from "/js/dom.js";
import { request } from "/js/api.js";
import { sideName } from "/js/bg-board.js";

export const STOP_CASES = [1, 2, 3, 4, 5, 6, 7, 8]; // KSI 4.3.2.1-8, and no others

function field(key, control) {
  return h("label", { class: "stack td-field" }, h("span", {}, t(key)), control);
}

function choice(name, options) {
  return h("select", { name }, options.map(([value, words]) => h("option", { value }, words)));
}

function sides(rec, none = false) {
  const named = ["A", "B"].map((side) => [side, sideName(rec.doc, side)]);
  return none ? [["", t("bg.td.official")], ...named] : named;
}

const side = (rec, key = "bg.td.player") => field(key, choice("side", sides(rec)));
const text = (key, name, attrs = {}) => field(key, h("input", { name, maxlength: 500, ...attrs }));
const number = (key, name, attrs) => field(key, h("input", { name, type: "number", inputmode: "numeric", required: true, ...attrs }));
const now = () => Date.now();

// What only the TD records (the server refuses it from a table's device: access.py).
const TD_ONLY = new Set(["lateness", "claim", "ruling", "decide", "monitor", "expel", "slow", "impose",
                         "dispute", "correct", "testimony", "bar", "admit"]);
// a person as the engine tells people apart (KSI 1.3.2): case, spacing and accents fold away
const BASE = { ð: "d", þ: "th", æ: "ae", ø: "o", œ: "oe", đ: "d", ł: "l" };
const folded = (name) => String(name || "").toLocaleLowerCase().normalize("NFKD").replace(/\p{M}/gu, "")
  .replace(/[ðþæøœđł]/g, (ch) => BASE[ch]).split(/\s+/).filter(Boolean).join(" ");

/** Once per recorder: the people known to the event (a jury is chosen from them, KSI 1.3.2)
 *  and who is signed in (the TD, who cannot sit on it); the sheet is drawn again with them. */
function loadPeople(rec) {
  if (rec.people || rec.device) return;
  rec.people = { names: [], me: "" };
  Promise.all([request("GET", "/api/event/people"), request("GET", "/api/whoami")])
    .then(([known, who]) => { rec.people = { names: known.people || [], me: who.name || who.username || "" }; rec.render(); })
    .catch(() => { rec.people = null; }); // tried again at the next redraw
}

/** Whom the jury may be chosen from: the event's people but the match's players, the TD who
 *  ruled and the TD recording it, whatever the letter case (KSI 1.3.2; the engine checks too). */
export function eligibleJurors(people, players, barred) {
  const out = new Set([...players, ...barred].map(folded));
  return people.filter((name) => !out.has(folded(name)));
}

function juryPicker(rec) {
  const names = eligibleJurors(rec.people?.names || [], rec.doc?.players || [],
                               [rec.match?.ruled_by, rec.people?.me]);
  return h("fieldset", { class: "stack td-field", "data-jurors": "" },
    h("legend", {}, t("bg.td.jury")),
    names.length ? names.map((name) => h("label", { class: "cluster" },
      h("input", { type: "checkbox", name: "juror", value: name }), h("span", {}, name)))
      : h("p", { class: "hint" }, t("bg.td.no_people")));
}

// What an overturn orders on the board as it was at the call (KSI 5.2): none, or one remedy.
const REMEDIES = ["", "reroll", "accept", "correct"];
function remedy(rec, kind) {
  const turn = rec.match?.game?.turn || "A";
  const other = turn === "A" ? "B" : "A";
  return { reroll: { type: "RequireReroll", side: other }, accept: { type: "AcceptIllegalPlay", side: turn },
           correct: { type: "CorrectIllegalPlay", side: turn } }[kind] || null;
}

/** One form: its fields, and the command its values make. `arm` asks once before sending.
 *  A table's device (players, monitor) gets no form for what only the TD records. */
function form(rec, name, fields, make, { arm } = {}) {
  if (rec.device && TD_ONLY.has(name)) return null;
  const submit = h("button", { type: "submit", class: arm ? "danger" : "primary", "data-td-send": name },
                   t(`bg.td.${name}.send`));
  const onsubmit = (e) => {
    e.preventDefault();
    const data = new FormData(e.target);
    const values = Object.fromEntries(data);
    if (arm && e.target.dataset.armed !== "1") {
      e.target.dataset.armed = "1";
      submit.textContent = arm(values);
      return;
    }
    delete e.target.dataset.armed;
    submit.textContent = t(`bg.td.${name}.send`);
    rec.send(make(values, data));
  };
  return h("form", { class: "stack td-form", "data-td-form": name, onsubmit },
    h("h3", { class: "td-title" }, t(`bg.td.${name}.title`)), fields, submit);
}

function timeForms(rec) {
  const cases = STOP_CASES.map((n) => [String(n), `${n}. ${t(`bg.stop.${n}`)}`]);
  return [
    form(rec, "stop", [field("bg.td.case", choice("case", cases))],
      (v) => ({ type: "StopClock", case: Number(v.case), at_ms: now() })),
    form(rec, "resume", [], () => ({ type: "ResumeClock", at_ms: now() })),
    form(rec, "claim", [side(rec, "bg.td.claimant")],
      (v) => ({ type: "RuleGameOverClaim", claimant: v.side, right: false })),
    form(rec, "pickup", [side(rec, "bg.td.offender")], (v) => ({ type: "ClaimEarlyPickup", offender: v.side, at_ms: now() })),
    form(rec, "flag", [h("label", { class: "cluster" }, h("input", { type: "checkbox", name: "both" }),
                         h("span", {}, t("bg.td.both_flags")))],
      (v) => ({ type: "ReportFlag", at_ms: now(), both: v.both === "on" })),
  ];
}

function disputeForms(rec) {
  return [
    form(rec, "call", [field("bg.td.caller", choice("side", sides(rec, true))), text("bg.td.reason", "reason")],
      (v) => ({ type: "CallTD", side: v.side, reason: v.reason, at_ms: now() })),
    form(rec, "ruling", [field("bg.td.ruling_text", h("textarea", { name: "text", rows: 3, maxlength: 2000, required: true }))],
      (v) => ({ type: "GiveRuling", text: v.text })),
    form(rec, "appeal", [side(rec)], (v) => ({ type: "Appeal", side: v.side })),
    form(rec, "testimony", [text("bg.td.witness", "witness", { required: true }),
                            field("bg.td.said", h("textarea", { name: "text", rows: 2, maxlength: 2000, required: true }))],
      (v) => ({ type: "RecordTestimony", witness: v.witness, text: v.text })),
    form(rec, "decide", [juryPicker(rec), number("bg.td.votes", "votes", { min: 0, max: 5 }),
                         field("bg.td.remedy", choice("remedy", REMEDIES.map((r) => [r, t(`bg.td.remedy.${r || "none"}`)]))),
                         field("bg.td.jury_reasons", h("textarea", { name: "reasons", rows: 2, maxlength: 2000 }))],
      (v, data) => ({ type: "DecideAppeal", jury: data.getAll("juror"), overturn_votes: Number(v.votes),
                      remedy: remedy(rec, v.remedy), reasons: v.reasons || "" })),
    form(rec, "monitor", [text("bg.td.monitor_name", "name", { required: true }),
                          field("bg.td.requested_by", choice("side", sides(rec, true)))],
      (v) => ({ type: "AppointMonitor", name: v.name, requested_by: v.side })),
    // a player asks the TD to bar spectators from the match (KSI 1.6.4); the TD lifts it
    rec.match?.barred_by ? form(rec, "admit", [], () => ({ type: "AdmitSpectators" }))
      : form(rec, "bar", [side(rec, "bg.td.requested_by")],
        (v) => ({ type: "BarSpectators", requested_by: v.side })),
    rec.match?.monitor ? form(rec, "report", [field("bg.td.report_text", h("textarea", { name: "text", rows: 3, maxlength: 2000, required: true }))],
      (v) => ({ type: "FileMonitorReport", text: v.text })) : null,
    form(rec, "expel", [side(rec), text("bg.td.reason", "reason", { required: true })],
      (v) => ({ type: "Expel", side: v.side, reason: v.reason }),
      { arm: (v) => t("bg.td.expel.confirm", { name: sideName(rec.doc, v.side) }) }),
  ];
}

/** A number field whose label names someone: "Ása's sheet: Bjarni". */
function named(key, params, name, attrs) {
  return h("label", { class: "stack td-field" }, h("span", {}, t(key, params)),
    h("input", { name, type: "number", inputmode: "numeric", required: true, min: 0, max: 99, ...attrs }));
}

/** Slow play (KSI 2.3.1): penalty points, or a clock imposed on a match without one. */
function slowForms(rec) {
  return [
    form(rec, "slow", [side(rec), number("bg.td.points", "points", { min: 1, max: rec.doc.length || 99 })],
      (v) => ({ type: "PenaliseSlowPlay", side: v.side, points: Number(v.points) })),
    rec.match?.timer ? null : form(rec, "impose", [], () => ({ type: "StartClock", at_ms: now(), imposed: true })),
  ];
}

/** The score: sheets that differ between games (KSI 4.7), a wrong result corrected (KSI 4.6). */
function scoreForms(rec) {
  const name = (s) => sideName(rec.doc, s);
  if (rec.doc.over) {
    return form(rec, "correct", [field("bg.td.winner", choice("side", sides(rec))),
                                 named("bg.td.points_of", { name: name("A") }, "a"),
                                 named("bg.td.points_of", { name: name("B") }, "b"),
                                 text("bg.td.reason", "reason", { required: true })],
      (v) => ({ type: "CorrectResult", winner: v.side, score: [Number(v.a), Number(v.b)], reason: v.reason }));
  }
  if (rec.doc.phase !== "over" || !rec.doc.game_no) return null;
  const sheet = (owner, of, key) => named("bg.td.sheet", { owner: name(owner), name: name(of) }, key);
  return form(rec, "dispute", [sheet("A", "A", "aa"), sheet("A", "B", "ab"), sheet("B", "A", "ba"), sheet("B", "B", "bb")],
    (v) => ({ type: "ResolveScoreDispute", sheet_a: [Number(v.aa), Number(v.ab)], sheet_b: [Number(v.ba), Number(v.bb)] }));
}

/** Offered only when it can be recorded: lateness and pauses between games (KSI 2.2.4, 2.2.2),
 *  the clock, disputes and slow play while the match is played; once it is over, only the
 *  result's correction (KSI 4.6). */
function build(rec) {
  loadPeople(rec);
  const [a, b] = rec.match?.pauses || [0, 0];
  const live = !rec.doc?.over;
  const between = live && rec.doc?.phase === "over";
  return h("details", { class: "td-sheet", "data-td": "", "data-kept": "" },
    h("summary", {}, t("bg.td.open")),
    h("div", { class: "td-forms" },
      between ? betweenForms(rec, a, b) : null,
      live && rec.match?.timer ? timeForms(rec) : null,
      live ? disputeForms(rec) : null, live ? slowForms(rec) : null, scoreForms(rec)));
}

function betweenForms(rec, a, b) {
  return [
      form(rec, "lateness", [side(rec), number("bg.td.minutes", "minutes", { min: 1, max: 600 }),
                             field("bg.td.late_when", choice("reason", [["start", t("bg.td.late_start")],
                                                                        ["pause", t("bg.td.late_pause")]]))],
        (v) => ({ type: "RecordLateness", side: v.side, minutes: Number(v.minutes), reason: v.reason })),
      form(rec, "pause", [side(rec), h("p", { class: "hint", "data-pauses": "" },
                                       t("bg.td.pauses_used", { a: sideName(rec.doc, "A"), b: sideName(rec.doc, "B"), pa: a, pb: b }))],
        (v) => ({ type: "TakePause", side: v.side, own: 1 })),
  ];
}

/** The sheet, rebuilt only when what it shows changes (names, pauses, clock, language). */
export function tdSheet(rec) {
  const between = rec.doc?.over ? "match" : rec.doc?.phase === "over" ? rec.doc?.game_no : "";
  const key = JSON.stringify([rec.doc?.players, rec.match?.pauses, Boolean(rec.match?.timer), between,
                              rec.doc?.length, i18n.lang, rec.people?.names?.length, rec.match?.monitor,
                              rec.match?.ruled_by, rec.match?.barred_by]);
  if (rec.sheet?.key !== key) {
    const open = rec.sheet?.node.open;
    rec.sheet = { key, node: build(rec) };
    rec.sheet.node.open = Boolean(open);
  }
  return rec.sheet.node;
}
