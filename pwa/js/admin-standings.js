// Standings as the read model ranks them, final placings, and publishing (finishing) them.

import { t } from "/js/i18n.js";
import { request } from "/js/api.js";
import { h, section } from "/js/admin-dom.js";
import { attempt, role } from "/js/admin-app.js";

export function standingsView(desk, doc) {
  const table = h("table", { className: "grid-table", "data-standings": true },
    h("thead", {}, h("tr", {}, ["admin.col.place", "admin.col.name", "admin.col.points",
      "admin.col.played", "admin.col.games", "admin.col.pucks", "admin.col.tie_breaks"]
      .map((k) => h("th", {}, t(k))))), h("tbody", {}));
  request("GET", `/api/competitions/${desk.id}/standings`).then((s) => {
    table.tBodies[0].replaceChildren(...s.rows.map((r) => h("tr", { "data-entrant": r.entrant },
      h("td", {}, `${r.place}${r.shared ? "=" : ""}`), h("td", {}, r.name),
      h("td", { "data-points": r.points }, String(r.points)), h("td", {}, String(r.played)),
      h("td", {}, `${r.games_won}:${r.games_lost}`), h("td", {}, String(r.pucks_diff)),
      h("td", {}, r.tie_breaks.map((x) => Math.round(x * 100) / 100).join(" · ")))));
  }).catch(() => {}); // the next change re-renders and asks again
  const who = Object.fromEntries(doc.entrants.map((e) => [e.id, e.name]));
  const placings = h("ol", { "data-placings": true },
    doc.placings.map((group) => h("li", {}, group.map((e) => who[e]).join(", "))));
  const finish = h("button", { type: "button", className: "primary", "data-action": "finish",
    disabled: doc.finished || role() !== "head_judge",
    onclick: () => attempt(() => desk.command({ type: "FinishCompetition" })) },
    t(doc.finished ? "admin.standings.published" : "admin.standings.publish"));
  return h("div", { className: "stack" },
    section("admin.standings.title", h("p", { className: "small" },
      t("admin.standings.tie_breaks", { order: doc.guide.tie_breaks.join(", ") })), table),
    section("admin.standings.placings", placings, finish));
}
