// Entrants: register (one form, or a pasted entry list), approve, check in, withdraw.

import { citation, refusalText, t } from "/js/i18n.js";
import { request } from "/js/api.js";
import { confirmAct, h, field, held, section } from "/js/admin-dom.js";
import { guideForm } from "/js/admin-setup.js";

const PAIRS = ["mens_pairs", "womens_pairs", "mixed_pairs"];

/** One person from "Name" or "Name; birth year; M|F; club"; `sex` where the line gives none
 *  (the event's own: a women's event F, a mixed pair's first M and second F). */
function person(text, sex) {
  const [name, year, given, club] = text.split(";").map((s) => (s || "").trim());
  const marked = (given || "").toUpperCase();
  return { name, birth_year: Number(year) || 2000, sex: marked === "F" || marked === "N" ? "F"
    : marked === "M" ? "M" : sex, club: club || "" };
}

/** The sexes an entry's people have unless a line says otherwise: a mixed pair is written
 *  man | woman (EKML §5(1)5), a women's event's people are women, anyone else a man. */
function defaultSexes(discipline) {
  if (discipline === "mixed_pairs") return ["M", "F"];
  return discipline?.startsWith("womens") ? ["F", "F"] : ["M", "M"];
}

/** Entrants from a pasted list: one a line (its number in the box kept), a pair's two people
 *  joined by "|" ("Jaan Tamm | Mari Tamm"). */
export function parseEntryList(text, discipline = "") {
  const sexes = defaultSexes(discipline);
  return text.split("\n").map((raw, i) => ({ line: i + 1, raw, text: raw.trim() }))
    .filter((l) => l.text)
    .map((l) => ({ ...l, members: l.text.split("|").map((part, k) => person(part, sexes[k] || sexes[0])) }));
}

/** Free entrant ids for `count` new entrants (e01, e02, …, none taken). */
function freeIds(doc, count) {
  const taken = new Set(doc.entrants.map((e) => e.id));
  const out = [];
  for (let n = 1; out.length < count; n++) {
    const id = `e${String(n).padStart(2, "0")}`;
    if (!taken.has(id)) out.push(id);
  }
  return out;
}

/** The refusals the desk words its own way (`admin.refusal.*`), by the code the server names
 *  (decision 0130): never by the English the engine wrote. */
const DESK_WORDS = {
  mens_event: "mens_event", womens_event: "womens_event", mixed_pair: "mixed_pair",
  already_registered: "taken", outside_registration: "window", entry_names_entrant: "no_name",
  person_named_twice: "same_person", not_in_age_class: "age_class", entry_size: "members",
};

/** A refusal in the console's words where the desk has its own, else the code's words
 *  (codes.<lang>.json), else as the server said it. The paragraph is cited either way. */
function refusal(v) {
  const key = DESK_WORDS[v.code];
  const said = key ? t(`admin.refusal.${key}`) : refusalText(v.code, v.params, v.detail);
  return `${said} (${citation(v.rule)})`;
}

/** The entry list pasted in (one entrant a line), checked whole first: when every line is
 *  good it is registered; else every bad line is named and the TD registers the good ones
 *  with one more press. What was registered leaves the box; the bad lines stay to mend. */
function pasteForm(ctx, guide, late) {
  const pairs = PAIRS.includes(guide.discipline);
  const hint = guide.discipline === "mixed_pairs" ? "admin.entrants.list_mixed_hint"
    : pairs ? "admin.entrants.list_pairs_hint" : "admin.entrants.list_hint";
  const list = h("textarea", { id: "f-entry-list", rows: 6, name: "entry_list", placeholder: t(hint),
                               "aria-describedby": "entry-list-hint" });
  const problems = h("div", { "data-entry-problems": true, role: "status" });
  const admit = late ? h("input", { type: "checkbox", id: "f-admit-late", name: "admit_late" }) : null;
  // The registered lines leave the box by what they say, once each: what the TD typed or
  // pasted while the registrations were under way stays (by line number it was wiped).
  const drop = (registered) => {
    const left = [...registered];
    list.value = list.value.split("\n").filter((raw) => {
      const at = left.indexOf(raw);
      if (at >= 0) left.splice(at, 1);
      return at < 0 && raw.trim();
    }).join("\n");
  };
  // Each line leaves as soon as the server stored it, not once the console has read the
  // competition back: the TD who sees the pair listed types the next into an empty box.
  const registerAll = async (entries) => {
    for (const e of entries) {
      await ctx.desk.command({ type: "RegisterEntrant", entrant_id: e.id, name: e.name,
                               members: e.members, admitted_late: e.admitted_late },
                             { stored: () => drop([e.raw]) });
    }
  };
  const check = async () => {
    const parsed = parseEntryList(list.value, guide.discipline);
    if (!parsed.length) return;
    const ids = freeIds(ctx.desk.doc, parsed.length);
    const entries = parsed.map((l, i) => ({ line: l.line, raw: l.raw, id: ids[i], members: l.members,
      name: l.members.map((m) => m.name).join(" / "), admitted_late: Boolean(admit?.checked) }));
    const body = { entrants: entries.map((e) => ({ entrant_id: e.id, name: e.name, members: e.members,
                                                     admitted_late: e.admitted_late })) };
    const { lines } = await request("POST", `/api/competitions/${ctx.desk.id}/entry-check`, body);
    const bad = lines.filter((v) => !v.ok).map((v) => ({ ...v, entry: entries[v.line - 1] }));
    const good = entries.filter((_, i) => lines[i].ok);
    problems.replaceChildren();
    if (!bad.length) return registerAll(good);
    const confirm = good.length ? h("button", { type: "button", className: "primary",
      "data-action": "register-good", onclick: () => ctx.attempt(async () => {
        problems.replaceChildren();
        await registerAll(good);
      }) }, t("admin.entrants.register_good", { count: good.length })) : null;
    problems.replaceChildren(
      h("p", {}, t("admin.entrants.bad_lines", { count: bad.length })),
      h("ul", { className: "plain" }, bad.map((v) => h("li", { "data-bad-line": v.entry.line },
        t("admin.entrants.bad_line", { line: v.entry.line, name: v.entry.name, why: refusal(v) })))),
      ...(confirm ? [confirm] : [])); // replaceChildren writes a null out as "null" (issue 45)
  };
  return h("form", { className: "stack", "data-keep": true, "data-entry-list": true,
    onsubmit: (e) => { e.preventDefault(); ctx.attempt(check); } },
    field("admin.entrants.list", list),
    h("p", { className: "small", id: "entry-list-hint" }, t(hint)),
    admit ? h("div", { className: "field check" }, admit,
      h("label", { for: "f-admit-late" }, t("admin.entrants.admit_late"))) : null,
    h("button", { type: "submit", className: "primary" }, t("admin.entrants.register")),
    problems);
}

/** Whether the guide's registration window has closed with the draw still to make: the head
 *  judge may then admit a late entry (EKML §12(2)). */
function windowClosed(ctx, doc) {
  const closes = doc.guide.registration?.closes;
  const drawn = doc.order.length > 0 || doc.bracket.length > 0;
  return Boolean(closes) && !drawn && ctx.role() === "head_judge" && Date.now() > Date.parse(closes);
}

const ABSENT = new Set(); // entrants the TD marked not here: "check in all present" leaves them

export function entrantsView(ctx, doc) {
  const late = windowClosed(ctx, doc);
  const paste = held(`entry-list ${ctx.desk.id}`, [doc.guide.discipline, late],
    () => pasteForm(ctx, doc.guide, late));
  const ready = doc.entrants.filter((e) => e.status !== "withdrawn" && e.status !== "checked_in");
  const present = () => ready.filter((e) => !ABSENT.has(e.id));
  const all = h("button", { type: "button", "data-check-in-all": true, disabled: !present().length,
    onclick: () => ctx.attempt(async () => {
      for (const e of present()) {
        if (e.status === "registered") await ctx.desk.command({ type: "ApproveEntrant", entrant_id: e.id });
        await ctx.desk.command({ type: "CheckInEntrant", entrant_id: e.id });
      }
    }) }, t("admin.entrants.check_in_all", { count: present().length }));
  const recount = () => {
    all.textContent = t("admin.entrants.check_in_all", { count: present().length });
    all.disabled = !present().length;
  };
  return h("div", { className: "stack" },
    section("admin.entrants.title", paste, all, table(ctx, doc, recount)), mend(ctx, doc));
}

/** While nobody has entered: the guide can still be mended, or the competition removed (a
 *  guide made by mistake leaves the list on `/`) — EKML §3(5); head judge only. */
function mend(ctx, doc) {
  if (doc.entrants.length || ctx.role() !== "head_judge") return null;
  const form = held(`guide ${ctx.desk.id}`, [doc.guide], () => guideForm(ctx, doc.guide));
  const remove = h("button", { type: "button", "data-action": "remove-competition",
    onclick: () => confirmAct("remove", t("admin.confirm.remove_title", { name: doc.guide.name }),
      t("admin.confirm.remove_explain"), t("admin.confirm.remove"), () => ctx.attempt(async () => {
        await ctx.desk.command({ type: "RemoveCompetition" });
        location.hash = "";
      })) }, t("admin.guide.remove"));
  return section("admin.guide.mend_title", h("p", { className: "small" }, t("admin.guide.mend_help")),
    h("details", { "data-mend-guide": true }, h("summary", {}, t("admin.guide.amend")), form), remove);
}

function table(ctx, doc, recount) {
  const here = (e) => (e.status === "withdrawn" || e.status === "checked_in" ? ""
    : h("input", { type: "checkbox", "data-present": e.id, checked: !ABSENT.has(e.id),
        "aria-label": t("admin.entrants.present", { name: e.name }),
        onchange: (ev) => { if (ev.target.checked) ABSENT.delete(e.id); else ABSENT.add(e.id); recount(); } }));
  const row = (e) => h("tr", { "data-entrant": e.id, "data-status": e.status },
    h("td", {}, here(e)), h("td", {}, e.id), h("td", {}, e.name),
    h("td", {}, e.members.map((m) => m.club).filter(Boolean).join(", ")),
    h("td", {}, t(`admin.status.${e.status}`)),
    h("td", { className: "cluster" }, actions(ctx, e)));
  return h("table", { className: "grid-table" },
    h("thead", {}, h("tr", {}, ["admin.col.present", "admin.col.id", "admin.col.name", "admin.col.club",
      "admin.col.status", "admin.col.actions"].map((k) => h("th", {}, t(k))))),
    h("tbody", {}, doc.entrants.map(row)));
}

function actions(ctx, e) {
  const act = (key, command) => h("button", { type: "button", "data-action": key,
    onclick: () => ctx.attempt(() => ctx.desk.command({ ...command, entrant_id: e.id })) },
    t(`admin.entrants.${key}`));
  const out = [];
  // published: only a name's correction (decision 0191)
  if (ctx.desk.doc?.finished) {
    return e.status === "withdrawn" || ctx.role() !== "head_judge" ? [] : [h("button", { type: "button",
      "data-action": "correct_published", onclick: (ev) => renameForm(ctx, e, ev.currentTarget.closest("tr"), true) },
    t("admin.entrants.correct_published"))];
  }
  if (e.status === "registered") out.push(act("approve", { type: "ApproveEntrant" }));
  if (e.status === "approved") out.push(act("check_in", { type: "CheckInEntrant" }));
  if (e.status !== "withdrawn") {
    out.push(h("button", { type: "button", "data-action": "rename",
      onclick: (ev) => renameForm(ctx, e, ev.currentTarget.closest("tr")) }, t("admin.entrants.rename")));
    out.push(h("button", { type: "button", "data-action": "withdraw",
      onclick: () => confirmAct("withdraw", t("admin.confirm.withdraw_title", { name: e.name }),
        t("admin.confirm.withdraw_explain"), t("admin.confirm.withdraw"),
        () => ctx.attempt(() => ctx.desk.command({ type: "WithdrawEntrant", entrant_id: e.id }))) },
      t("admin.entrants.withdraw")));
  }
  return out;
}

/** A typo mended in place (RenameEntrant, EKML §8(2)): the names as a line of the entry list;
 *  a name given bare keeps that person's year, sex and club. */
function renameForm(ctx, e, row, published = false) {
  const input = h("input", { type: "text", id: `f-rename-${e.id}`, "data-rename": e.id,
    value: e.members.map((m) => m.name).join(" | "), "aria-label": t("admin.entrants.rename") });
  const reason = published ? h("input", { type: "text", id: `f-reason-${e.id}`, "data-reason": e.id,
    required: true, "aria-label": t("admin.entrants.correct_reason"),
    placeholder: t("admin.entrants.correct_reason") }) : null;
  const save = (ev) => {
    ev.preventDefault();
    const members = input.value.split("|").map((part, k) => (part.includes(";")
      ? person(part, e.members[k]?.sex || "M") : { ...e.members[k], name: part.trim() }));
    const named = { entrant_id: e.id, name: members.map((m) => m.name).join(" / "), members };
    ctx.attempt(() => ctx.desk.command(published
      ? { type: "CorrectPublished", ...named, reason: reason.value }
      : { type: "RenameEntrant", ...named }));
  };
  row.cells[2].replaceChildren(h("form", { className: "cluster", onsubmit: save }, input, reason,
    h("button", { type: "submit", className: "primary" },
      t(published ? "admin.entrants.correct_save" : "admin.entrants.save_name"))));
  input.focus();
}
