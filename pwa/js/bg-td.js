// The TD's and the monitor's sheet on the recorder face, folded away under the players' pad:
// lateness (KSI 2.2.4), a pause (2.2.2), the clock's stops in exactly the eight cases of 4.3.2,
// a wrong game-over claim (+5 min, 4.3.2.8), dice picked up early (30 s, 4.1.5.2), a flag
// (4.3.3), the TD called, a ruling, an appeal and the jury's decision (5.1-5.2, 1.3.2), a
// monitor (1.3.3), an expulsion (1.7.3). Each form sends one engine command through the
// recorder (so through the outbox); the engine decides, and a refusal is said with its
// paragraph in words (bg-words.js ruleWords).
//
//   tdSheet(rec)   a <details data-td> with one <form data-td-form="…"> per command; the same
//                  node while the names, the clock and the language stay (typing survives a
//                  redraw)

import { i18n, t } from "/js/i18n.js";
import { h } from "/js/dom.js";
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

/** One form: its fields, and the command its values make. `arm` asks once before sending. */
function form(rec, name, fields, make, { arm } = {}) {
  const submit = h("button", { type: "submit", class: arm ? "danger" : "primary", "data-td-send": name },
                   t(`bg.td.${name}.send`));
  const onsubmit = (e) => {
    e.preventDefault();
    const values = Object.fromEntries(new FormData(e.target));
    if (arm && e.target.dataset.armed !== "1") {
      e.target.dataset.armed = "1";
      submit.textContent = arm(values);
      return;
    }
    delete e.target.dataset.armed;
    submit.textContent = t(`bg.td.${name}.send`);
    rec.send(make(values));
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
    form(rec, "pickup", [side(rec, "bg.td.offender")], (v) => ({ type: "ClaimEarlyPickup", offender: v.side })),
    form(rec, "flag", [h("label", { class: "cluster" }, h("input", { type: "checkbox", name: "both" }),
                         h("span", {}, t("bg.td.both_flags")))],
      (v) => ({ type: "ReportFlag", at_ms: now(), both: v.both === "on" })),
  ];
}

function disputeForms(rec) {
  return [
    form(rec, "call", [field("bg.td.caller", choice("side", sides(rec, true))), text("bg.td.reason", "reason")],
      (v) => ({ type: "CallTD", side: v.side, reason: v.reason })),
    form(rec, "ruling", [field("bg.td.ruling_text", h("textarea", { name: "text", rows: 3, maxlength: 2000, required: true }))],
      (v) => ({ type: "GiveRuling", text: v.text })),
    form(rec, "appeal", [side(rec)], (v) => ({ type: "Appeal", side: v.side })),
    form(rec, "decide", [text("bg.td.jury", "jury", { required: true }), number("bg.td.votes", "votes", { min: 0, max: 5 })],
      (v) => ({ type: "DecideAppeal", jury: v.jury.split(",").map((s) => s.trim()).filter(Boolean),
                overturn_votes: Number(v.votes) })),
    form(rec, "monitor", [text("bg.td.monitor_name", "name", { required: true }),
                          field("bg.td.requested_by", choice("side", sides(rec, true)))],
      (v) => ({ type: "AppointMonitor", name: v.name, requested_by: v.side })),
    form(rec, "expel", [side(rec), text("bg.td.reason", "reason", { required: true })],
      (v) => ({ type: "Expel", side: v.side, reason: v.reason }),
      { arm: (v) => t("bg.td.expel.confirm", { name: sideName(rec.doc, v.side) }) }),
  ];
}

function build(rec) {
  const [a, b] = rec.match?.pauses || [0, 0];
  return h("details", { class: "td-sheet", "data-td": "" },
    h("summary", {}, t("bg.td.open")),
    h("div", { class: "td-forms" },
      form(rec, "lateness", [side(rec), number("bg.td.minutes", "minutes", { min: 1, max: 600 }),
                             field("bg.td.late_when", choice("reason", [["start", t("bg.td.late_start")],
                                                                        ["pause", t("bg.td.late_pause")]]))],
        (v) => ({ type: "RecordLateness", side: v.side, minutes: Number(v.minutes), reason: v.reason })),
      form(rec, "pause", [side(rec), h("p", { class: "hint", "data-pauses": "" },
                                       t("bg.td.pauses_used", { a: sideName(rec.doc, "A"), b: sideName(rec.doc, "B"), pa: a, pb: b }))],
        (v) => ({ type: "TakePause", side: v.side, own: 1 })),
      rec.match?.timer ? timeForms(rec) : null,
      disputeForms(rec)));
}

/** The sheet, rebuilt only when what it shows changes (names, pauses, clock, language). */
export function tdSheet(rec) {
  const key = JSON.stringify([rec.doc?.players, rec.match?.pauses, Boolean(rec.match?.timer), i18n.lang]);
  if (rec.sheet?.key !== key) {
    const open = rec.sheet?.node.open;
    rec.sheet = { key, node: build(rec) };
    rec.sheet.node.open = Boolean(open);
  }
  return rec.sheet.node;
}
