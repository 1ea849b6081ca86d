// A competition for spectators (`/?competition=<id>`): its tables live, the standings, the
// bracket, and the results as CSV. Read once from the competition API (`/api/competitions/…`),
// then kept current by the live feed, which pushes the documents whenever they change.

import { citation, dayAndTime, i18n, number, placeLabel, t } from "/js/i18n.js";
import { request } from "/js/api.js";
import { showState, TablesBoard } from "/js/spectator-tables.js";
import { scoreLine } from "/js/spectator-cards.js";
import { el, revealWhen } from "/js/spectator-dom.js";
import { say } from "/js/announce.js";

const BYE = "—";
const COLUMNS = [["place", "spec.col.place"], ["name", "spec.col.name"], ["points", "spec.col.points"],
  ["played", "spec.col.played"], ["wdl", "spec.col.wdl"], ["games", "spec.col.games"],
  ["pucks_diff", "spec.col.pucks"]];

function cell(row, key) {
  if (key === "wdl") return `${[row.won, row.drawn, row.lost].filter((n) => n !== undefined).join("-")}${unplayed(row)}`;
  if (key === "games") return `${row.games_won}:${row.games_lost}`;
  if (key === "place") return placeLabel(row.place, row.place_to);
  if (key === "points") return number(row.points);
  if (key === "name" && row.withdrawn) return `${row.name} (${t("spec.withdrawn_mark")})`;
  return String(row[key] ?? "");
}

// EKML §32(3)1: unplayed matches are a plus for the one who was there, a minus for the absent.
function unplayed(row) {
  const marks = [row.plus ? `+${row.plus}` : "", row.minus ? `−${row.minus}` : ""].filter(Boolean);
  return marks.length ? ` (${marks.join(" ")})` : "";
}

// A backgammon competition: the games columns hold points won and lost; no pucks.
const BG_COLUMNS = COLUMNS.filter(([key]) => key !== "pucks_diff")
  .map(([key, word]) => [key, { games: "spec.col.bg_points", wdl: "spec.col.wl" }[key] || word]);

/** The standings as a table (scrolls inside itself on a narrow phone, never the page). */
export function standingsTable(rows, sport = "korona", keys = null) {
  const all = sport === "backgammon" ? BG_COLUMNS : COLUMNS;
  const columns = keys ? all.filter(([key]) => keys.includes(key)) : all;
  const head = el("tr", {}, ...columns.map(([, key]) => el("th", { scope: "col", i18n: key })));
  const body = rows.map((row) => el("tr", { "data-entrant": row.entrant,
    ...(row.withdrawn ? { "data-withdrawn": "" } : {}) },
    ...columns.map(([key]) => el("td", { text: cell(row, key) }))));
  // Forfeits are points but not played matches: say what the +n / −n beside the score mean.
  const note = rows.some((r) => r.plus || r.minus) && columns.some(([key]) => key === "wdl")
    ? [el("p", { class: "muted", "data-forfeit-note": "", i18n: "spec.forfeit_note" })] : [];
  // tabindex: a table wider than a phone scrolls inside its box, by keyboard too (WCAG 2.1.1).
  return el("div", { class: "table-scroll", tabindex: "0" },
            el("table", { class: "standings" }, el("thead", {}, head), el("tbody", {}, ...body)), ...note);
}

/** Who withdrew, when, after how much and how it was ruled (EKML §32(3); §9(4) in a bracket),
 *  from the document's `withdrew` (an annulled entrant has no row): one line each, as the
 *  standings PDF says it (`standings_pdf.withdrawal_line`). */
export function withdrawalNotes(withdrew = []) {
  return withdrew.map((w) => {
    return el("p", { class: "muted", "data-withdrew": w.entrant, text: t(`spec.withdrew.${w.kind}`,
      { name: w.name, when: w.at ? dayAndTime(new Date(w.at)) : "", played: w.played, total: w.total,
        rule: citation(w.rule || "EKML §32(3)") }) });
  });
}

/** Bracket slots grouped by stage and round, one column per round. */
export function bracketView(slots, names) {
  const stages = new Map();
  // A bye is no match: its entrant simply walks on to the next round (bracket_view.BYE).
  for (const slot of slots.filter((s) => s.a !== BYE && s.b !== BYE)) {
    const rounds = stages.get(slot.stage) || new Map();
    rounds.set(slot.round, [...(rounds.get(slot.round) || []), slot]);
    stages.set(slot.stage, rounds);
  }
  const name = (id) => (id == null ? "…" : names.get(id) || id);
  return el("div", { class: "bracket" }, ...[...stages].map(([stage, rounds]) => el("section", {},
    el("h4", { text: t(`spec.stage.${stage}`) === `spec.stage.${stage}` ? stage : t(`spec.stage.${stage}`) }),
    el("div", { class: "bracket-rounds", tabindex: "0" }, ...[...rounds].sort((a, b) => a[0] - b[0]).map(([round, list]) =>
      el("ol", { class: "bracket-round", "aria-label": t("spec.round", { round }) },
         ...list.map((slot) => el("li", { "data-slot": slot.id },
           ...[slot.a, slot.b].map((id) => el("span", {
             class: id != null && id === slot.winner ? "winner" : "",
             text: id != null && id === slot.winner && slot.walkover
               ? `${name(id)} (${t("spec.walkover")})` : name(id) }))))))))));
}

export function competitionView(root, id) {
  const badge = el("span", { class: "live-state", role: "status", text: t("live.connecting") });
  const title = el("h2", { class: "grow", i18n: "term.competition" });
  const list = el("div", { class: "card-list", "data-tables": "" });
  const standings = el("div", { "data-standings": "" });
  const bracket = el("div", { "data-bracket": "" });
  const status = el("p", { class: "muted", "data-status": "" });
  const corrections = el("div", { "data-corrections": "" });
  const placings = el("div", { "data-placings": "" });
  const csv = el("a", { class: "button", href: `/api/competitions/${id}/results.csv`, i18n: "spec.results_csv" });
  root.append(el("a", { href: "/", class: "back", i18n: "spec.all_tables" }),
              el("div", { class: "cluster view-head" }, title, badge), status, corrections, list, placings,
              el("h3", { i18n: "term.standings" }), standings, bracket, el("div", { class: "cluster" }, csv));
  const parts = { id, title, status, corrections, placings, standings, bracket };
  const tables = new TablesBoard(list, { competition: id, href: (d) => `/?match=${d.match_id}` });
  let shown = null; // the newest documents shown: { version, doc, rows }
  const show = (next) => {
    if (shown && next.version < shown.version) return; // an older copy (a reconnect's)
    shown = next;
    render(parts, shown);
  };
  // The feed pushes the competition's documents whenever they change, and again after each
  // (re)connect: no timer, no reload.
  tables.addEventListener("competition", (e) => show({ version: e.detail.version,
    doc: e.detail.doc, rows: e.detail.standings }));
  tables.addEventListener("state", (e) => showState(badge, root, e.detail.state, t));
  tables.addEventListener("score", (e) => say(scoreLine(e.detail.doc)));
  revealWhen(root, Promise.allSettled([tables.start(), loadCompetition(id).then(show, () => {
    standings.replaceChildren(el("p", { class: "muted", i18n: "spec.unavailable" }));
  })]), el("p", { class: "placeholder", "data-placeholder": "", i18n: "spec.loading" }));
  i18n.addEventListener("change", () => shown && render(parts, shown));
}

/** The competition's documents on first paint (the feed keeps them current after). */
async function loadCompetition(id) {
  const [doc, table] = await Promise.all([
    request("GET", `/api/competitions/${id}`), request("GET", `/api/competitions/${id}/standings`)]);
  return { version: doc.version, doc, rows: table.rows || [] };
}

function render({ id, title, status, corrections, placings, standings, bracket }, { doc, rows }) {
  title.textContent = doc.guide?.name || t("term.competition");
  status.textContent = t(doc.finished ? "spec.published" : "spec.provisional")
    + (doc.edition > 1 ? ` · ${t("spec.edition", { n: doc.edition })}` : "");
  // a corrected event's editions (decision 0191): their module only where there are some
  if (doc.corrections?.length) {
    import("/js/spectator-corrections.js").then((m) => corrections.replaceChildren(...m.correctionNotes(id, doc.corrections)));
  } else corrections.replaceChildren();
  status.dataset.status = doc.finished ? "final" : "provisional";
  const names = new Map((doc.entrants || []).map((e) => [e.id, e.name]));
  placings.replaceChildren(...(doc.finished && doc.placings?.length ? finalPlacings(doc.placings, names) : []));
  standings.replaceChildren(...(rows?.length ? [standingsTable(rows, doc.guide?.sport), ...withdrawalNotes(doc.withdrew)]
    : [el("p", { class: "muted", i18n: "spec.no_standings" })]));
  // A competition without a bracket (a round robin, a Swiss) shows none, and says nothing of it.
  bracket.replaceChildren(...(doc.bracket?.length
    ? [el("h3", { i18n: "term.bracket" }), bracketView(doc.bracket, names)] : []));
}

/** The published final placings: each group under its place or range of places (5–6). */
function finalPlacings(groups, names) {
  let first = 1;
  const items = groups.map((group) => {
    const label = placeLabel(first, first + group.length - 1);
    first += group.length;
    return el("li", { "data-place": label, text: `${label}. ${group.map((e) => names.get(e) || e).join(", ")}` });
  });
  return [el("h3", { i18n: "spec.placings" }), el("ol", { class: "placings" }, ...items)];
}
