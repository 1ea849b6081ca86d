// The jury's finder on /audit (issue 14 point 6): find the disputed match by table, player,
// time or any text, newest activity first, each row with its players, score, status in words
// and times — then open its record. Served by GET /api/audit/matches (staff only).

import { i18n, t } from "/js/i18n.js";
import { describe } from "/js/api.js";
import { audit } from "/js/audit-data.js";
import { el } from "/js/spectator-dom.js";

const STATUSES = ["", "playing", "ended", "signed", "abandoned", "scheduled", "called"];

/** Dates as the page's language writes them (issue 34: not the browser's mm/dd/yyyy on an
 *  Estonian page); English as written in Europe, day first. */
const dateLocale = () => (i18n.lang === "en" ? "en-GB" : i18n.lang);
const SAMPLE = new Date(2026, 10, 26, 17, 30); // day 26 > 12: the example shows the order
const DIGITS = { day: "2-digit", month: "2-digit", year: "numeric", hour: "2-digit", minute: "2-digit" };

function when(iso) {
  if (!iso) return "—";
  return new Date(iso).toLocaleString(dateLocale(), DIGITS);
}

/** How a time filter is typed in the page's language: "26.11.2026 17:30" in Estonian. */
function example() {
  return SAMPLE.toLocaleString(dateLocale(), DIGITS).replace(",", "");
}

/** A typed date and time (day, month, year in the page language's order, then hours and
 *  minutes) → an ISO instant in this device's time zone; "" when empty, null when not a date. */
function instant(input) {
  const text = input.value.trim();
  if (!text) return "";
  const numbers = (text.match(/\d+/g) || []).map(Number);
  if (numbers.length < 3 || numbers.length > 5) return null;
  const order = new Intl.DateTimeFormat(dateLocale(), DIGITS).formatToParts(SAMPLE)
    .map((part) => part.type).filter((type) => ["day", "month", "year"].includes(type));
  const f = Object.fromEntries(order.map((type, i) => [type, numbers[i]]));
  const [hour = 0, minute = 0] = numbers.slice(3);
  const year = f.year < 100 ? 2000 + f.year : f.year;
  const date = new Date(year, f.month - 1, f.day, hour, minute);
  const same = date.getFullYear() === year && date.getMonth() === f.month - 1
    && date.getDate() === f.day && date.getHours() === hour && date.getMinutes() === minute;
  return same ? date.toISOString() : null;
}

/** A time filter: text in the page language's date order (a datetime-local control shows
 *  the browser's own order, whatever the page's language), checked as it is typed. */
function timeInput(name) {
  const input = el("input", { name, id: `find-${name}`, autocomplete: "off", maxlength: 24,
                              "aria-describedby": "find-when-hint" });
  input.addEventListener("input", () => {
    input.setCustomValidity(instant(input) === null ? t("audit.find.when_bad", { example: example() }) : "");
  });
  return input;
}

function labelled(key, control) {
  return el("label", { class: "stack" }, el("span", { i18n: key }), control);
}

/** A forfeit has no match record to open: its row says what happened and why (issue 34). */
function forfeitRow(item, players) {
  const [winner, loser] = item.winner === "A" ? [item.side_a, item.side_b] : [item.side_b, item.side_a];
  const why = t(`audit.find.forfeit_why.${item.reason}`, {
    winner: winner.join(" / "), loser: loser.join(" / "), competition: item.competition });
  return el("tr", { "data-found": item.match_id, "data-forfeit": item.reason },
    el("td", { text: "—" }),
    el("th", { scope: "row" }, el("span", { text: players }),
       el("p", { class: "muted", "data-forfeit-why": "", text: why })),
    el("td", { "data-score": "", text: "—" }), // not played: no games (issue 45)
    el("td", { text: t(item.reason === "annulled" ? "audit.find.annulled" : "audit.find.forfeit") }),
    el("td", { text: "—" }),
    el("td", { text: "—" }));
}

function row(item) {
  const players = `${item.side_a.join(" / ")} — ${item.side_b.join(" / ")}`;
  if (item.discipline === "forfeit") return forfeitRow(item, players);
  const game = item.game_no && item.status === "playing"
    ? ` · ${t("audit.find.game", { n: item.game_no })}` : "";
  return el("tr", { "data-found": item.match_id },
    el("td", { text: item.table ?? "—" }),
    el("th", { scope: "row" }, el("a", { href: `/audit/match/${item.match_id}`, text: players })),
    el("td", { "data-score": "", text: `${item.won[0]} : ${item.won[1]}${game}` }),
    el("td", { text: t(`spec.status.${item.status}`) }),
    el("td", { text: when(item.started_at) }),
    el("td", { text: when(item.updated_at) }));
}

function table(body) {
  const heads = ["table", "players", "score", "status", "started", "last"];
  return el("table", { class: "found", "data-results": "" },
    el("caption", { class: "visually-hidden", i18n: "audit.find.results" }),
    el("thead", {}, el("tr", {}, ...heads.map((k) => el("th", { scope: "col", i18n: `audit.find.${k}` })))),
    body);
}

/** The finder form and its results, appended to `root`; resolves when the first page is in. */
export function finder(root) {
  const inputs = {
    q: el("input", { name: "q", type: "search", maxlength: 80, id: "find-q" }),
    table: el("input", { name: "table", type: "number", min: 1, max: 9999, id: "find-table" }),
    player: el("input", { name: "player", maxlength: 80, id: "find-player" }),
    from: timeInput("from"),
    to: timeInput("to"),
    status: el("select", { name: "status", id: "find-status" }, ...STATUSES.map((s) =>
      el("option", { value: s, i18n: s ? `spec.status.${s}` : "audit.find.any" }))),
  };
  const body = el("tbody", {});
  const note = el("p", { class: "muted", role: "status", "data-found-count": "" });
  const more = el("button", { type: "button", hidden: "", "data-more": "", i18n: "audit.find.more" });
  let next = null;
  let items = [];
  const hint = el("p", { class: "muted", id: "find-when-hint", "data-when-hint": "" });
  const show = () => {
    body.replaceChildren(...items.map(row));
    note.textContent = t("audit.find.count", { count: items.length });
    hint.textContent = t("audit.find.when_hint", { example: example() });
  };
  i18n.addEventListener("change", show); // words and dates in the new language
  const params = () => {
    const p = new URLSearchParams({ limit: "30" });
    for (const [k, input] of Object.entries(inputs)) {
      const v = ["from", "to"].includes(k) ? instant(input) : input.value.trim();
      if (v) p.set(k, v);
    }
    return p;
  };
  const load = async (append) => {
    const p = params();
    if (append && next) p.set("before", String(next));
    try {
      const page = await audit.find(p);
      next = page.next;
      items = append ? [...items, ...page.items] : page.items;
      show();
      more.hidden = next == null;
    } catch (error) {
      note.textContent = describe(error);
    }
  };
  const form = el("form", { class: "stack finder", role: "search", "data-finder": "" },
    el("div", { class: "grid" }, labelled("audit.find.q", inputs.q), labelled("audit.find.table", inputs.table),
      labelled("audit.find.player", inputs.player), labelled("audit.find.from", inputs.from),
      labelled("audit.find.to", inputs.to), labelled("audit.find.status", inputs.status)),
    hint,
    el("button", { class: "primary", type: "submit", i18n: "audit.find.search" }));
  form.addEventListener("submit", (e) => { e.preventDefault(); load(false); });
  more.addEventListener("click", () => load(true));
  root.append(el("h2", { i18n: "audit.find.title" }), form, note, el("div", { class: "scroll" }, table(body)), more);
  return load(false);
}
