// The federation face's views (decision 0174), each drawn from what /api/public/… answered:
// the home page (search, events, players, lists), one event (standings, bracket, results as its
// venue publishes them; its venue's key and the receipt check), a player's page, one list.

import { i18n, number, t } from "/js/i18n.js";
import { el } from "/js/spectator-dom.js";
import { bracketView, standingsTable } from "/js/spectator-competition.js";
import { liveLink } from "/js/federation-live.js";

const link = (params, text) => el("a", { href: `/?${new URLSearchParams(params)}`, text });
const eventLink = (e) => link({ event: `${e.venue_id}/${e.stream_id}` }, e.name);
const day = (iso) => (iso ? iso.slice(0, 10).split("-").reverse().join(".") : "");
const words = (key, fallback) => (t(key) === key ? fallback : t(key));
const discipline = (name) => words(`admin.discipline.${name}`, name);
const ageClass = (name) => words(`fed.class.${name}`, name);
const round = (x) => Math.round(x * 100) / 100;
const section = (title, ...children) => el("section", { class: "stack" }, el("h2", { text: title }), ...children);

function eventLine(e) {
  const state = e.finished ? t("fed.finished_on", { date: day(e.finished_on) }) : t("fed.live");
  return el("li", {}, eventLink(e), el("span", { class: "muted",
    text: ` · ${e.venue} · ${e.season} · ${discipline(e.discipline)} · ${state}` }),
  e.finished ? null : [" ", liveLink(e.venue_id)]);
}

function listTitle(key) {
  const [season, , name, klass] = key.split("/");
  return t("fed.list_title", { season, discipline: discipline(name), class: ageClass(klass) });
}

function searchForm({ q, season, events }) {
  const seasons = events?.seasons || [];
  const options = [el("option", { value: "", text: t("fed.all_seasons") }),
    ...seasons.map((s) => el("option", { value: String(s), text: String(s), ...(String(s) === season ? { selected: true } : {}) }))];
  return el("form", { class: "search", role: "search", method: "get", action: "/" },
    el("label", {}, el("span", { text: t("fed.query") }), el("input", { type: "search", name: "q", value: q, maxlength: "100" })),
    el("label", {}, el("span", { text: t("fed.season") }), el("select", { name: "season" }, ...options)),
    el("button", { type: "submit", text: t("fed.find") }));
}

export function homeView(data) {
  const events = data.events?.events || [];
  const lists = data.lists?.lists || [];
  const players = data.players?.players || [];
  return [
    searchForm(data),
    section(t("fed.events"), events.length ? el("ul", { class: "links" }, ...events.map(eventLine))
      : el("p", { class: "muted", text: t("fed.no_events") })),
    data.q ? section(t("fed.players"), players.length
      ? el("ul", { class: "links" }, ...players.map((p) => el("li", {}, link({ player: p.federation_id }, p.name),
        el("span", { class: "muted", text: p.club ? ` · ${p.club}` : "" }))))
      : el("p", { class: "muted", text: t("fed.no_players") })) : null,
    section(t("fed.lists"), lists.length ? el("ul", { class: "links" }, ...lists.map((l) => el("li", {},
      link({ list: l.key }, listTitle(l.key)),
      el("span", { class: "muted", text: ` · ${t("fed.edition", { number: l.number, date: day(l.published_on) })}` }))))
      : el("p", { class: "muted", text: t("fed.no_lists") })),
  ];
}

function results(event, names) {
  const { doc, matches = {} } = event;
  const rows = Object.entries(doc.results || {}).sort(([a], [b]) => a.localeCompare(b, "en", { numeric: true }));
  if (!rows.length) return el("p", { class: "muted", text: t("fed.no_results") });
  const protocol = (id) => matches[id] ? [" · ", el("a", { "data-protocol": id, text: t("spec.protocol_pdf"),
    href: `/api/public/matches/${event.venue_id}/${matches[id]}/protocol.pdf?lang=${i18n.lang}` })] : [];
  return el("ul", { class: "links" }, ...rows.map(([id, r]) => el("li", { "data-result": id },
    `${names.get(r.a) || r.a} – ${names.get(r.b) || r.b}  ${r.a_games}:${r.b_games}`, ...protocol(id))));
}

/** The results file in the reader's language (the venue makes it in et, lv and en; an
 *  Icelandic reader gets the event's own language). */
function resultsFiles(event) {
  const lang = ["et", "lv", "en"].includes(i18n.lang) ? `?lang=${i18n.lang}` : "";
  const base = `/api/public/events/${event.venue_id}/${event.stream_id}/results`;
  return el("p", { class: "cluster" }, el("a", { href: `${base}.csv${lang}`, "data-results-file": "csv", text: t("fed.results_csv") }),
    " · ", el("a", { href: `${base}.xlsx${lang}`, "data-results-file": "xlsx", text: t("fed.results_xlsx") }));
}

function receiptCheck(event) {
  const verdict = el("p", { class: "verdict", role: "status", "aria-live": "polite" });
  const area = el("textarea", { id: "receipt-text", rows: "3" });
  const check = async (submitted) => {
    submitted.preventDefault();
    const reply = await fetch(`/api/public/receipts?${new URLSearchParams({ r: area.value })}`);
    const said = reply.ok ? await reply.json() : { receipt: "unreadable" };
    verdict.dataset.verdict = said.receipt;
    verdict.textContent = t(`fed.verdict.${said.receipt}`, { venue: said.venue || "" });
  };
  return el("form", { class: "stack", onsubmit: check, "data-receipt-check": "" },
    el("p", {}, el("span", { text: `${t("fed.venue_key", { venue: event.venue })}: ` }), el("code", { class: "key", text: event.venue_key })),
    el("label", { for: "receipt-text", text: t("fed.receipt_text") }), area,
    el("button", { type: "submit", text: t("fed.check") }), verdict);
}

export function eventView(event) {
  const doc = event.doc;
  const names = new Map((doc.entrants || []).map((e) => [e.id, e.name]));
  const sport = doc.guide?.sport || "korona";
  const linked = event.players.map((p) => el("li", {}, link({ player: p.federation_id }, p.name)));
  return [
    el("h2", { text: event.name }),
    el("p", { class: "muted", text: `${event.venue} · ${event.season} · ${discipline(event.discipline)} · ${
      event.finished ? t("fed.finished_on", { date: day(event.finished_on) }) : t("fed.live")}` }),
    event.finished ? null : el("p", {}, liveLink(event.venue_id)),
    event.alarms ? el("p", { class: "alarm", role: "alert", text: t("fed.alarm") }) : null,
    section(t("fed.standings"), standingsTable(event.standings, sport)),
    (doc.bracket || []).length ? section(t("fed.bracket"), bracketView(doc.bracket, names)) : null,
    section(t("fed.results"), results(event, names), resultsFiles(event)),
    linked.length ? section(t("fed.linked"), el("ul", { class: "links" }, ...linked)) : null,
    section(t("fed.receipts"), receiptCheck(event)),
  ];
}

export function playerView(player) {
  const earlier = player.names.slice(0, -1);
  const facts = [player.club, player.licence && t("fed.licence", { licence: player.licence }), ageClass(player.class)];
  return [
    el("h2", { text: player.name }),
    el("p", { class: "muted", text: facts.filter(Boolean).join(" · ") }),
    earlier.length ? el("p", { "data-earlier-names": "", text: t("fed.names_before", { names: earlier.join(", ") }) }) : null,
    section(t("fed.events"), player.events.length ? el("ul", { class: "links" }, ...player.events.map((e) => el("li", {},
      eventLink(e), el("span", { class: "muted", text: ` · ${e.venue} · ${e.season}${
        e.place ? ` · ${t("fed.place", { place: e.place })}` : ""}` }))))
      : el("p", { class: "muted", text: t("fed.no_events") })),
  ];
}

function table(caption, columns, rows) {
  const head = el("tr", {}, ...columns.map((c) => el("th", { scope: "col", text: t(c) })));
  return el("div", { class: "table-scroll", tabindex: "0" }, el("table", { class: "standings" },
    el("caption", { class: "visually-hidden", text: caption }), el("thead", {}, head),
    el("tbody", {}, ...rows.map((cells) => el("tr", {}, ...cells.map((c) => el("td", {}, c)))))));
}

function changeLine(change, name) {
  const rating = change.ordinal_after === null ? "" : ` · ${t("fed.change.rating", {
    before: change.ordinal_before === null ? "—" : number(round(change.ordinal_before)),
    after: number(round(change.ordinal_after)) })}`;
  const points = t("fed.change.points", { before: change.points_before, after: change.points_after });
  const place = change.place ? ` · ${t("fed.place", { place: change.place })}` : "";
  const moved = change.matches.length ? ` (${t("fed.change.matches", { matches: change.matches.join(", ") })})` : "";
  return el("li", { "data-change": change.player }, `${name(change.player)}: ${points}${place}${rating}${moved}`);
}

export function listView(list) {
  const { edition, players } = list;
  const name = (id) => players[id]?.name || id;
  const who = (id) => link({ player: id }, name(id));
  return [
    el("h2", { text: listTitle(list.key) }),
    el("p", { class: "muted", text: t("fed.edition_of", { number: edition.number, date: day(edition.published_on), event: edition.event_name }) }),
    section(t("fed.points_view"), table(t("fed.points_view"), ["spec.col.place", "spec.col.name", "spec.col.points", "fed.col.events"],
      edition.points.map((r) => [String(r.place), who(r.player), String(r.points), String(r.events)]))),
    section(t("fed.rating_view"), edition.rating.length
      ? table(t("fed.rating_view"), ["spec.col.place", "spec.col.name", "fed.col.rating", "fed.col.matches"],
        edition.rating.map((r) => [String(r.place), who(r.player), number(round(r.ordinal)), String(r.matches)]))
      : el("p", { class: "muted", text: t("fed.no_rating") })),
    section(t("fed.changes"), el("ul", { class: "links" }, ...edition.changes.map((c) => changeLine(c, name)))),
    section(t("fed.editions"), el("ul", { class: "links" }, ...list.editions.map((e) => el("li", {},
      link({ list: list.key, edition: e.number }, t("fed.edition", { number: e.number, date: day(e.published_on) })),
      el("span", { class: "muted", text: e.event ? ` · ${e.event}` : "" }))))),
  ];
}

export function notFound() {
  return [el("p", { role: "alert", text: t("fed.not_found") }), link({}, t("fed.home"))];
}

