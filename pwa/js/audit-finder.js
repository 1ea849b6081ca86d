// The jury's finder on /audit (issue 14 point 6): find the disputed match by table, player,
// time or any text, newest activity first, each row with its players, score, status in words
// and times — then open its record. Served by GET /api/audit/matches (staff only).

import { i18n, t } from "/js/i18n.js";
import { describe } from "/js/api.js";
import { audit } from "/js/audit-data.js";
import { el } from "/js/spectator-dom.js";

const STATUSES = ["", "playing", "ended", "signed", "abandoned", "scheduled", "called"];

function when(iso) {
  if (!iso) return "—";
  const date = new Date(iso);
  return date.toLocaleString(i18n.lang, { dateStyle: "short", timeStyle: "short" });
}

/** datetime-local → an ISO instant with its offset (the browser's own time zone). */
function instant(input) {
  return input.value ? new Date(input.value).toISOString() : "";
}

function labelled(key, control) {
  return el("label", { class: "stack" }, el("span", { i18n: key }), control);
}

function row(item) {
  const players = `${item.side_a.join(" / ")} — ${item.side_b.join(" / ")}`;
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

/** The finder form and its results; appended to `root`. */
export function finder(root) {
  const inputs = {
    q: el("input", { name: "q", type: "search", maxlength: 80, id: "find-q" }),
    table: el("input", { name: "table", type: "number", min: 1, max: 9999, id: "find-table" }),
    player: el("input", { name: "player", maxlength: 80, id: "find-player" }),
    from: el("input", { name: "from", type: "datetime-local", id: "find-from" }),
    to: el("input", { name: "to", type: "datetime-local", id: "find-to" }),
    status: el("select", { name: "status", id: "find-status" }, ...STATUSES.map((s) =>
      el("option", { value: s, i18n: s ? `spec.status.${s}` : "audit.find.any" }))),
  };
  const body = el("tbody", {});
  const note = el("p", { class: "muted", role: "status", "data-found-count": "" });
  const more = el("button", { type: "button", hidden: "", "data-more": "", i18n: "audit.find.more" });
  let next = null;
  let items = [];
  const show = () => {
    body.replaceChildren(...items.map(row));
    note.textContent = t("audit.find.count", { count: items.length });
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
    el("button", { class: "primary", type: "submit", i18n: "audit.find.search" }));
  form.addEventListener("submit", (e) => { e.preventDefault(); load(false); });
  more.addEventListener("click", () => load(true));
  root.append(el("h2", { i18n: "audit.find.title" }), form, note, el("div", { class: "scroll" }, table(body)), more);
  load(false);
}
