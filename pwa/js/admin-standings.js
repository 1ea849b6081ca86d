// Standings as the read model ranks them, final placings, and publishing (finishing) them.

import { citation, dayAndTime, i18n, number, placeLabel, t } from "/js/i18n.js";
import { download, request } from "/js/api.js";
import { confirmAct, h, section } from "/js/admin-dom.js";

export function standingsView(ctx, doc) {
  // Backgammon: the games columns hold the points won and lost, and there are no pucks.
  const bg = doc.guide.sport === "backgammon";
  const heads = ["admin.col.place", "admin.col.name", "admin.col.points", "admin.col.played",
    bg ? "admin.standings.wl" : "admin.standings.wdl", bg ? "admin.col.bg_points" : "admin.col.games",
    ...(bg ? [] : ["admin.col.pucks"]), "admin.col.tie_breaks"];
  const table = h("table", { className: "grid-table", "data-standings": true },
    h("thead", {}, h("tr", {}, heads.map((k) => h("th", {}, t(k))))), h("tbody", {}));
  // Forfeits give points but are not played: the note says what the +n / −n mean.
  const note = h("p", { className: "small", "data-forfeit-note": true, hidden: true },
    t("admin.standings.forfeit_note"));
  const fill = (rows) => {
    note.hidden = !rows.some((r) => r.plus || r.minus);
    table.tBodies[0].replaceChildren(...rows.map(row));
  };
  const row = (r) => h("tr", { "data-entrant": r.entrant, "data-withdrawn": r.withdrawn || null },
    h("td", { "data-place": true }, placeLabel(r.place, r.place_to)),
    h("td", {}, r.withdrawn ? `${r.name} (${t("admin.standings.withdrawn_mark")})` : r.name),
    h("td", { "data-points": r.points }, number(r.points)), h("td", { "data-played": true }, String(r.played)),
    h("td", { "data-wdl": true }, wdl(r)),
    h("td", { "data-games": true }, `${r.games_won}:${r.games_lost}`),
    ...(bg ? [] : [h("td", {}, String(r.pucks_diff))]),
    h("td", {}, r.tie_breaks.map((x) => number(x)).join(" · ")));
  const pushed = ctx.desk.standings; // the rows the feed pushed with this document
  if (pushed?.version === doc.version) fill(pushed.rows);
  else request("GET", `/api/competitions/${ctx.desk.id}/standings`).then((s) => fill(s.rows))
    .catch(() => {}); // the next change re-renders and asks again
  const who = Object.fromEntries(doc.entrants.map((e) => [e.id, e.name]));
  const placings = h("ol", { className: "plain", "data-placings": true }, placed(doc.placings, who));
  const why = doc.finished ? "" : blocked(ctx, doc);
  const finish = h("button", { type: "button", className: "primary", "data-action": "finish",
    disabled: doc.finished || Boolean(why), "aria-describedby": why ? "finish-why" : null,
    onclick: () => confirmAct("finish", t("admin.confirm.finish_title"), t("admin.confirm.finish_explain"),
      t("admin.confirm.finish"), () => ctx.attempt(() => ctx.desk.command({ type: "FinishCompetition" }))) },
    t(doc.finished ? "admin.standings.published" : "admin.standings.publish"));
  const reason = why ? h("p", { className: "small", id: "finish-why", "data-why": "finish" }, why) : null;
  const tieKey = (k) => (bg && k.startsWith("games_") ? `admin.tiebreak.bg.${k}` : `admin.tiebreak.${k}`);
  const order = doc.guide.tie_breaks.map((k) => t(tieKey(k))).join(", ");
  const pdf = h("a", { className: "button", "data-export": "standings-pdf", download: "",
    href: `/api/competitions/${ctx.desk.id}/standings.pdf?lang=${i18n.lang}&min_position=${doc.position || 0}` },
    t("admin.standings.pdf"));
  const report = bg ? h("button", { type: "button", "data-export": "federation-report",
    onclick: () => ctx.attempt(() => download(
      `/api/competitions/${ctx.desk.id}/federation-report.pdf?lang=${i18n.lang}`,
      `report-${ctx.desk.id}-${i18n.lang}.pdf`)) }, t("admin.standings.federation_report")) : null;
  return h("div", { className: "stack" },
    section("admin.standings.title", h("p", { className: "small" },
      t("admin.standings.tie_breaks", { order })), h("div", { className: "cluster" }, pdf, report), table, note,
      ...withdrawals(doc.withdrew)),
    // "Final placings" only once they are final; before, what publishing now would place.
    section(doc.finished ? "admin.standings.placings" : "admin.standings.placings_now", placings, finish, reason));
}

/** Who withdrew and how it was ruled, as the PDF says it. */
function withdrawals(withdrew = []) {
  return withdrew.map((w) => h("p", { className: "small", "data-withdrew": w.entrant },
    t(`admin.standings.withdrew.${w.kind}`, { name: w.name, when: w.at ? dayAndTime(new Date(w.at)) : "",
      played: w.played, total: w.total, rule: citation(w.rule || "EKML §32(3)") })));
}

/** Final placings, each group under its place or range of places (5–6, 9–12). */
function placed(groups, who) {
  let first = 1;
  return groups.map((group) => {
    const label = placeLabel(first, first + group.length - 1);
    first += group.length;
    return h("li", { "data-place": label }, `${label}. ${group.map((e) => who[e]).join(", ")}`);
  });
}

// EKML §32(3)1: an unplayed match is a plus for the one who was there, a minus for the other.
function wdl(r) {
  const marks = [r.plus ? `+${r.plus}` : "", r.minus ? `−${r.minus}` : ""].filter(Boolean);
  const counts = [r.won, r.drawn, r.lost].filter((n) => n !== undefined); // no draws in backgammon
  return `${counts.join("-")}${marks.length ? ` (${marks.join(" ")})` : ""}`;
}

/** Why the results cannot be published yet, in words; "" when they can (EKML §12(2)6). */
function blocked(ctx, doc) {
  if (ctx.role() !== "head_judge") return t("admin.standings.head_judge_only");
  const gone = new Set(doc.entrants.filter((e) => e.status === "withdrawn").map((e) => e.id));
  const paired = doc.rounds.flatMap((r) => r.pairings)
    .filter((p) => !doc.results[p.match_id] && !(gone.has(p.a) || gone.has(p.b)));
  const bracket = doc.bracket.filter((s) => !s.winner && s.a && s.b && s.a !== "—" && s.b !== "—");
  const count = paired.length + bracket.length;
  if (count) return t("admin.standings.unplayed", { count });
  const swiss = ["swiss", "swiss_playoff"].includes(doc.guide.format);
  const left = swiss ? doc.guide.rounds - doc.current_round : 0;
  if (left > 0) return t("admin.standings.rounds_left", { count: left });
  if (!doc.placings.length) return t("admin.standings.not_placed");
  return "";
}
