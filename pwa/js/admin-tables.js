// The venue: tables as cards (free / waiting for players with the 2-minute countdown /
// playing; a team match on one card per board, EKML §29(2)), the next matches in calling
// order, one click for a table's QR code.

import { t } from "/js/i18n.js";
import { request } from "/js/api.js";
import { h, field, section } from "/js/admin-dom.js";

const NO_SHOW_SECONDS = 120; // EKML §9(3)

// The table count is the server's (SetTableCount); one just typed shows until the doc has it.
const typed = new Map();

function tableCount(desk) {
  const sent = typed.get(desk.id);
  if (sent !== undefined && desk.doc?.tables === sent) typed.delete(desk.id);
  return typed.get(desk.id) ?? desk.doc?.tables ?? 8;
}

function setTableCount(desk, n) {
  typed.set(desk.id, n);
  // not `attempt`: it would take the focus
  desk.command({ type: "SetTableCount", count: n }).catch((error) => {
    typed.delete(desk.id);
    say(error);
    desk.dispatchEvent(new Event("change"));
  });
}

/** Seconds since an ISO instant. */
function since(iso) { return Math.floor((Date.now() - Date.parse(iso)) / 1000); }

function countdownText(iso) {
  const left = Math.min(NO_SHOW_SECONDS, NO_SHOW_SECONDS - since(iso)); // clocks differ a little
  if (left <= 0) return t("admin.tables.time_up");
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

setInterval(() => {
  for (const el of document.querySelectorAll("[data-countdown]")) {
    el.textContent = countdownText(el.dataset.countdown);
  }
  for (const el of document.querySelectorAll("[data-demo-until]")) {
    el.textContent = left(el.dataset.demoUntil);
  }
}, 1000);

/** m:ss until an instant (0:00 once it has passed). */
function left(iso) {
  const s = Math.max(0, Math.round((Date.parse(iso) - Date.now()) / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// The demo (serve --demo) keeps one match of each Swiss round for a person at table 5 until
// its countdown ends, called or not (GET /api/demo; 404 where no demo runs: not asked again).
const DEMO = { asked: 0, info: null, none: false };

function demoNotice(desk) {
  if (!DEMO.none && Date.now() - DEMO.asked > 5000) {
    DEMO.asked = Date.now();
    request("GET", "/api/demo").then((info) => {
      const was = JSON.stringify(DEMO.info);
      DEMO.info = info;
      if (JSON.stringify(info) !== was) desk.dispatchEvent(new Event("change"));
    }, (error) => { if (error?.status === 404) DEMO.none = true; });
  }
  const info = DEMO.info;
  if (!info?.held || info.competition_id !== desk.id) return null;
  // called already: the countdown runs on (decision 0190)
  const words = info.held.called ? "admin.tables.demo_called" : "admin.tables.demo_held";
  return h("p", { className: "notice", "data-demo-held": info.held.match_id,
                  "data-demo-called": String(Boolean(info.held.called)) },
    t(words, { match: info.held.match_id, table: info.table }), " ",
    h("strong", { "data-demo-until": info.held.until }, left(info.held.until)));
}

let attempt = null; // the console's own (admin-app.js hands it over with each render)
let say = null; // the console's banner, likewise
let head = false; // the signed-in TD is the head judge (only they close a match)

export function tablesView(ctx, doc) {
  const { desk } = ctx;
  ({ attempt, say } = ctx);
  head = ctx.role() === "head_judge";
  const count = tableCount(desk);
  const input = h("input", { type: "number", id: "f-table-count", min: 1, max: 200, value: count,
    onchange: (e) => { setTableCount(desk, Number(e.target.value)); desk.dispatchEvent(new Event("change")); } });
  const free = freeTables(desk, doc, count);
  const callable = Math.min(callableCount(doc), seats(doc, free));
  const why = callWhy(doc, free, callable);
  const call = h("button", { type: "button", className: "primary", "data-action": "call_next",
    disabled: Boolean(why), "aria-describedby": why ? "call-why" : null,
    onclick: () => attempt(() => desk.command({ type: "CallNextMatches", free_tables: free })) },
    t("admin.tables.call_next", { count: callable }));
  const reason = why ? h("p", { className: "small", id: "call-why", "data-why": "call_next" }, why) : null;
  const cards = h("div", { className: "cards", "data-tables": true },
    Array.from({ length: count }, (_, i) => card(desk, doc, i + 1)));
  return h("div", { className: "stack" },
    section("admin.tables.title", demoNotice(desk), h("div", { className: "cluster" },
      field("admin.tables.count", input), call), reason, cards),
    section("admin.tables.next", waitingList(desk, doc, free)),
    section("admin.tables.hall_queue", hallQueue(desk)));
}

/** What holds table n for something other than this competition (another one's match or
 *  call, or a match outside any competition), from the hall. */
function heldElsewhere(desk, n) {
  return desk.hall.find((held) => held.table === n && held.competition_id !== desk.id) || null;
}

function freeTables(desk, doc, count) {
  const busy = new Set(doc.calls.map((c) => c.table));
  return Array.from({ length: count }, (_, i) => i + 1)
    .filter((n) => !busy.has(n) && !heldElsewhere(desk, n));
}

/** Waiting matches call-next can call now: in calling order, none with a player already at
 *  a table (the server decides the same way, EKML §17(3)). */
function callableCount(doc) {
  const busy = new Set(doc.calls.flatMap((c) => [c.a, c.b]));
  let n = 0;
  for (const m of doc.waiting) {
    if (busy.has(m.a) || busy.has(m.b)) continue;
    busy.add(m.a).add(m.b);
    n += 1;
  }
  return n;
}

/** Boards per team match (0: not a team competition). */
function boards(doc) { return doc.guide?.teams?.boards || 0; }

/** How many matches the free tables seat: one a table, or a team match on each run of
 *  consecutive free tables as long as its boards (the server cuts them the same way). */
function seats(doc, free) {
  const size = boards(doc);
  if (!size) return free.length;
  let count = 0;
  let run = 0;
  free.forEach((n, i) => {
    run = i > 0 && free[i - 1] === n - 1 ? run + 1 : 1;
    if (run === size) { count += 1; run = 0; }
  });
  return count;
}

/** Why call-next cannot do anything now, in words (null: it can). */
function callWhy(doc, free, callable) {
  if (!doc.waiting.length) return t("admin.tables.why_none_waiting");
  if (!free.length) return t("admin.tables.why_no_table");
  if (!seats(doc, free)) return t("admin.tables.why_no_block", { boards: boards(doc) });
  if (!callable) return t("admin.tables.why_players_busy");
  return null;
}

function names(doc) { return Object.fromEntries(doc.entrants.map((e) => [e.id, e.name])); }

function card(desk, doc, n) {
  const who = names(doc);
  const called = doc.calls.find((c) => c.table === n);
  const held = called ? null : heldElsewhere(desk, n);
  const overview = desk.tables.find((row) => row.table === n && row.competition_id === desk.id);
  // a backgammon match plays once its first game has started (created, it waits for the players)
  const bg = called ? (desk.bgTables || []).find((row) => row.table === n && row.games > 0) : null;
  let state = held ? "busy" : "free";
  if (called) state = bg || (overview && ["playing", "ended", "signed"].includes(overview.status)) ? "playing" : "waiting";
  const body = [h("h3", {}, t("admin.tables.table", { table: n })),
                h("p", { className: "state" }, t(`admin.tables.${state}`))];
  if (held) {
    if (held.board) body.push(h("p", { "data-board": held.board }, t("admin.tables.board", { board: held.board })));
    body.push(h("p", {}, held.players), h("p", { className: "small", "data-held-by": held.competition_id || "" },
      held.competition ? t("admin.tables.held_by", { competition: held.competition }) : t("admin.tables.walk_up")));
    const walkUp = !held.competition_id && desk.tables.find((row) => row.table === n && !row.competition_id);
    if (walkUp && head) body.push(closeButton(n, walkUp));
  }
  if (called) {
    if (called.board) {
      body.push(h("p", { "data-board": called.board }, t("admin.tables.board", { board: called.board })),
        h("p", { "data-players": "" }, called.players.join(" – ")));
    }
    body.push(h("p", {}, `${who[called.a]} – ${who[called.b]}`), h("p", { className: "small" }, called.match_id));
    if (state === "playing" && (overview || bg)) {
      body.push(h("p", { className: "score" }, (bg ? bg.score : overview.won || []).join(" : ")));
    }
    const absent = doc.no_shows.find((x) => x.match_id === called.match_id);
    if (state === "waiting" && absent) body.push(...forfeitWaits(desk, who, absent));
    else if (state === "waiting" && (called.board || 1) === 1) { // a team's no-show: on board I's card
      body.push(h("p", { className: "countdown", "data-countdown": called.called_at }, countdownText(called.called_at)));
      body.push(h("div", { className: "cluster" }, [called.a, called.b].map((absent) =>
        h("button", { type: "button", "data-no-show": absent,
          onclick: () => attempt(() => desk.command({ type: "ReportNoShow", match_id: called.match_id, absent })) },
          t("admin.tables.no_show", { name: who[absent] })))));
    }
    if (state === "waiting" && !called.board) body.push(moveButton(desk, doc, called));
  }
  body.push(h("button", { type: "button", "data-qr": n, onclick: () => showQr(n) }, t("admin.tables.qr")));
  return h("article", { className: "card", "data-table": n, "data-state": state }, body);
}

/** A reported no-show holds the table until the head judge confirms the forfeit (EKML
 *  §9(3)): the card says so and confirms it where the TD is looking, as the Decisions tab does. */
function forfeitWaits(desk, who, absent) {
  const hint = h("p", { className: "small", "data-no-show-waits": absent.absent },
    t(head ? "admin.tables.forfeit_waits" : "admin.tables.forfeit_waits_head", { name: who[absent.absent] }));
  if (!head) return [hint];
  return [hint, h("button", { type: "button", className: "primary", "data-forfeit": absent.match_id,
    onclick: () => attempt(() => desk.command({ type: "ConfirmForfeit", match_id: absent.match_id })) },
    t("admin.rulings.confirm_forfeit"))];
}

/** The head judge frees a table a match outside the competitions holds (players gone,
 *  entered on the wrong table): CloseMatch with their words, after a confirming dialog. */
function closeButton(n, row) {
  return h("button", { type: "button", "data-close-match": n, onclick: () => askToClose(n, row) },
    t("admin.tables.close_match"));
}

function askToClose(n, row) {
  const note = h("input", { type: "text", id: "f-close-note", required: true, maxLength: 200 });
  const dialog = h("dialog", { "data-close-dialog": n },
    h("h2", {}, t("admin.tables.close_title", { table: n })),
    h("p", {}, t("admin.tables.close_explain")),
    field("admin.tables.close_note", note),
    h("div", { className: "cluster" },
      h("button", { type: "button", onclick: () => dialog.remove() }, t("admin.tables.close_cancel")),
      h("button", { type: "button", className: "primary", "data-confirm-close": n, onclick: async () => {
        if (!note.value.trim()) return note.reportValidity();
        dialog.remove();
        await attempt(() => request("POST", `/api/matches/${row.match_id}/commands`, {
          command_id: crypto.randomUUID(), expected_version: row.version,
          command: { type: "CloseMatch", note: note.value.trim() } }));
      } }, t("admin.tables.close_confirm"))));
  document.body.append(dialog);
  dialog.showModal();
  note.focus();
}

/** A called match not yet begun to another free table (its table broke): MoveMatch with the
 *  TD's reason, after a dialog picking the table (decision 0207). */
function moveButton(desk, doc, called) {
  return h("button", { type: "button", "data-move-match": called.match_id,
    onclick: () => askToMove(desk, called, freeTables(desk, doc, tableCount(desk))) },
  t("admin.tables.move"));
}

function askToMove(desk, called, free) {
  const pick = h("select", { id: "f-move-table", "data-move-table": called.match_id },
    free.map((n) => h("option", { value: String(n) }, t("admin.tables.table", { table: n }))));
  const reason = h("input", { type: "text", id: "f-move-reason", required: true, maxLength: 300 });
  const dialog = h("dialog", { "data-move-dialog": called.match_id },
    h("h2", {}, t("admin.tables.move_title", { match: called.match_id, table: called.table })),
    free.length ? field("admin.tables.move_to", pick) : h("p", {}, t("admin.tables.why_no_table")),
    field("admin.tables.move_reason", reason),
    h("div", { className: "cluster" },
      h("button", { type: "button", onclick: () => dialog.remove() }, t("admin.tables.close_cancel")),
      free.length ? h("button", { type: "button", className: "primary", "data-confirm-move": called.match_id,
        onclick: async () => {
          if (!reason.value.trim()) return reason.reportValidity();
          dialog.remove();
          await attempt(() => desk.command({ type: "MoveMatch", match_id: called.match_id,
            table: Number(pick.value), reason: reason.value.trim() }));
        } }, t("admin.tables.move_confirm")) : null));
  document.body.append(dialog);
  dialog.showModal();
  (free.length ? pick : reason).focus();
}

/** The other competitions' matches waiting for a table in the hall (the hall's call queue),
 *  those they can call now first. */
function hallQueue(desk) {
  const others = desk.queue.filter((w) => w.competition_id !== desk.id).slice(0, 12);
  if (!others.length) return h("p", {}, t("admin.tables.hall_queue_empty"));
  return h("ol", { className: "stack", "data-hall-queue": true }, others.map((w) =>
    h("li", { "data-queued": `${w.competition_id}/${w.match_id}`, "data-ready": String(w.ready) },
      `${w.competition} · ${w.match_id}: ${w.players}`,
      w.ready ? null : h("span", { className: "small" }, ` — ${t("admin.tables.queue_player_busy")}`))));
}

function waitingList(desk, doc, free) {
  const who = names(doc);
  if (!doc.waiting.length) return h("p", {}, t("admin.tables.none_waiting"));
  return h("ol", { className: "stack", "data-waiting": true },
    doc.waiting.map((m) => h("li", { className: "cluster", "data-waiting-match": m.match_id },
      h("span", {}, `${m.match_id}: ${who[m.a]} – ${who[m.b]}`),
      free.length ? callTo(desk, m.match_id, free) : null)));
}

/** A chosen match to a chosen free table (issue 45: call-next takes the lowest free tables;
 *  the TD may want another, as the demo's visitor wants table 5). */
const CHOSEN = new Map(); // match id -> the table the TD picked (the console redraws often)

function callTo(desk, matchId, free) {
  const id = `call-to-${matchId}`;
  const chosen = free.includes(CHOSEN.get(matchId)) ? CHOSEN.get(matchId) : free[0];
  const pick = h("select", { id, "data-call-table": matchId,
    onchange: (e) => CHOSEN.set(matchId, Number(e.target.value)) }, // kept across redraws
    free.map((n) => h("option", { value: String(n), selected: n === chosen }, t("admin.tables.table", { table: n }))));
  return h("span", { className: "cluster" },
    h("label", { className: "visually-hidden", for: id }, t("admin.tables.call_to_label", { match: matchId })),
    pick,
    h("button", { type: "button", "data-action": "call_to", "data-match": matchId,
      onclick: () => attempt(() => desk.command({ type: "CallMatch", match_id: matchId,
                                                  table: CHOSEN.get(matchId) ?? Number(pick.value) })) },
      t("admin.tables.call_to")));
}

/** Issue the table's judge token and show its QR code, ready to print. */
async function showQr(table) {
  await attempt(async () => {
    const token = await request("POST", `/api/tables/${table}/judge-token`);
    const dialog = h("dialog", { className: "qr", "data-qr-dialog": table },
      h("h2", {}, t("admin.tables.qr_title", { table })),
      h("img", { src: token.qr_svg, alt: t("admin.tables.qr_alt", { table }), width: 320, height: 320 }),
      h("p", { className: "small" }, token.link),
      token.reachable ? null : h("p", { className: "qr-warning", role: "alert", "data-unreachable": "" },
        t(token.lan_link ? "admin.tables.loopback_lan" : "admin.tables.loopback",
          { lan: token.lan_link && `${new URL(token.lan_link).origin}/admin` })),
      h("div", { className: "cluster" },
        h("button", { type: "button", onclick: () => window.print() }, t("admin.print")),
        h("button", { type: "button", className: "primary", onclick: () => dialog.remove() }, t("admin.close"))));
    document.body.append(dialog);
    dialog.showModal();
  });
}
