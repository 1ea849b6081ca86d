// Entrants: register (one form, or a pasted entry list), approve, check in, withdraw.

import { t } from "/js/i18n.js";
import { h, field, held, section } from "/js/admin-dom.js";

const PAIRS = ["mens_pairs", "womens_pairs", "mixed_pairs"];

/** One person from "Name; birth year; M|F; club". */
function person(text) {
  const [name, year, sex, club] = text.split(";").map((s) => (s || "").trim());
  return { name, birth_year: Number(year) || 2000, sex: (sex || "M").toUpperCase() === "F" ? "F" : "M",
           club: club || "" };
}

/** Entrants from a pasted list: one a line; a pair's two people joined by "|". */
export function parseEntryList(text) {
  return text.split("\n").map((l) => l.trim()).filter(Boolean)
    .map((line) => line.split("|").map(person));
}

async function register(ctx, members) {
  const taken = new Set(ctx.desk.doc.entrants.map((e) => e.id));
  let n = taken.size + 1;
  while (taken.has(`e${String(n).padStart(2, "0")}`)) n++;
  const id = `e${String(n).padStart(2, "0")}`;
  const name = members.map((m) => m.name).join(" / ");
  await ctx.desk.command({ type: "RegisterEntrant", entrant_id: id, name, members });
  return id;
}

/** The entry list pasted in (one entrant a line), registered in one go. */
function pasteForm(ctx, pairs) {
  const list = h("textarea", { id: "f-entry-list", rows: 6, name: "entry_list",
                               placeholder: pairs ? t("admin.entrants.list_pairs_hint")
                                                  : t("admin.entrants.list_hint") });
  return h("form", { className: "stack", "data-keep": true, "data-entry-list": true,
    onsubmit: async (e) => {
      e.preventDefault();
      await ctx.attempt(async () => {
        for (const members of parseEntryList(list.value)) await register(ctx, members);
        list.value = "";
      });
    } },
    field("admin.entrants.list", list),
    h("button", { type: "submit", className: "primary" }, t("admin.entrants.register")));
}

export function entrantsView(ctx, doc) {
  const pairs = PAIRS.includes(doc.guide.discipline);
  const paste = held(`entry-list ${ctx.desk.id}`, [pairs], () => pasteForm(ctx, pairs));
  const ready = doc.entrants.filter((e) => e.status !== "withdrawn" && e.status !== "checked_in");
  const all = h("button", { type: "button", "data-check-in-all": true, disabled: !ready.length,
    onclick: () => ctx.attempt(async () => {
      for (const e of ready) {
        if (e.status === "registered") await ctx.desk.command({ type: "ApproveEntrant", entrant_id: e.id });
        await ctx.desk.command({ type: "CheckInEntrant", entrant_id: e.id });
      }
    }) }, t("admin.entrants.check_in_all", { count: ready.length }));
  return h("div", { className: "stack" },
    section("admin.entrants.title", paste, all, table(ctx, doc)));
}

function table(ctx, doc) {
  const row = (e) => h("tr", { "data-entrant": e.id, "data-status": e.status },
    h("td", {}, e.id), h("td", {}, e.name),
    h("td", {}, e.members.map((m) => m.club).filter(Boolean).join(", ")),
    h("td", {}, t(`admin.status.${e.status}`)),
    h("td", { className: "cluster" }, actions(ctx, e)));
  return h("table", { className: "grid-table" },
    h("thead", {}, h("tr", {}, ["admin.col.id", "admin.col.name", "admin.col.club",
      "admin.col.status", "admin.col.actions"].map((k) => h("th", {}, t(k))))),
    h("tbody", {}, doc.entrants.map(row)));
}

function actions(ctx, e) {
  const act = (key, command) => h("button", { type: "button", "data-action": key,
    onclick: () => ctx.attempt(() => ctx.desk.command({ ...command, entrant_id: e.id })) },
    t(`admin.entrants.${key}`));
  const out = [];
  if (e.status === "registered") out.push(act("approve", { type: "ApproveEntrant" }));
  if (e.status === "approved") out.push(act("check_in", { type: "CheckInEntrant" }));
  if (e.status !== "withdrawn") out.push(act("withdraw", { type: "WithdrawEntrant" }));
  return out;
}
