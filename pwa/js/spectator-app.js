// The spectators' face at `/`: no login, phone first.
//
//   /                    every table, updating in place
//   /?match=<id>         one match: the board, the score, the stroke-by-stroke log in words
//                        (a backgammon match: its own page, /watch?match=<id>, bg-spectator.js)
//   /?player=<name>      a player's matches
//   /?competition=<id>   a competition's tables, standings and bracket
//
// Every view shows the feed's state; when it is not "live", the live dots turn grey and the
// badge says so, so nobody mistakes an old score for the present one.

import { i18n, t } from "/js/i18n.js";
import { request } from "/js/api.js";
import { LiveFeed } from "/js/live.js";
import { boardFromLive, seatLines } from "/js/board.js";
import { matchCard, scoreLine, tableText, updateCard } from "/js/spectator-cards.js";
import { scoreChanged, showState, TablesBoard } from "/js/spectator-tables.js";
import { entryLines, sideNames } from "/js/spectator-words.js";
import { competitionView } from "/js/spectator-competition.js";
import { el, revealWhen } from "/js/spectator-dom.js";
import { say } from "/js/announce.js";
import { bgMatchList, watchHref } from "/js/spectator-bg.js";

const main = document.getElementById("face");

function stateBadge() {
  return el("span", { class: "live-state", role: "status", "data-state": "connecting",
                      text: t("live.connecting") });
}

const matchHref = (doc) => `/?match=${encodeURIComponent(doc.match_id)}`;
const playerHref = (name) => `/?player=${encodeURIComponent(name)}`;

function tablesView(root) {
  const badge = stateBadge();
  const list = el("div", { class: "card-list", "data-tables": "" });
  const empty = el("p", { class: "muted", i18n: "spec.no_tables" });
  root.append(el("div", { class: "cluster view-head" },
                 el("h2", { class: "grow", i18n: "spectator.tables" }), badge), empty, list);
  const competitions = el("nav", { class: "cluster", "data-competitions": "",
                                    "aria-label": t("term.competition"),
                                    "data-i18n-aria-label": "term.competition" });
  const bg = bgMatchList({ onChange: () => shown() });
  root.append(competitions, bg.section);
  const named = request("GET", "/api/competitions").then((all) => competitions.replaceChildren(
    ...all.map((c) => el("a", { class: "button", href: `/?competition=${encodeURIComponent(c.competition_id)}`,
                                 text: c.name || c.competition_id })))).catch(() => {});
  empty.hidden = true; // until the first answer says there is nothing
  const board = new TablesBoard(list, { href: matchHref });
  board.addEventListener("state", (e) => showState(badge, root, e.detail.state, t));
  // "no table in play" only while neither a korona table nor a backgammon match is
  const shown = () => { empty.hidden = board.cards.size > 0 || bg.size() > 0; };
  board.addEventListener("change", shown);
  board.addEventListener("score", (e) => say(scoreLine(e.detail.doc)));
  revealWhen(root, Promise.allSettled([board.start(), named]), placeholder());
  i18n.addEventListener("change", () => {
    for (const card of board.cards.values()) updateCard(card, card.doc);
    showState(badge, root, board.state, t);
  });
  return board;
}

function matchView(root, matchId) {
  const badge = stateBadge();
  const title = el("h2", { class: "grow" });
  const score = el("div", { class: "score" });
  const board = el("korona-board", { compact: "" });
  const pdf = el("a", { class: "button", "data-pdf": "", i18n: "spec.protocol_pdf" });
  const log = el("ol", { class: "log", reversed: "", "data-log": "" });
  // The log grows at the end of the page, so nothing below it moves when a line arrives.
  root.append(
    el("a", { href: "/", class: "back", i18n: "spec.all_tables" }),
    el("div", { class: "cluster view-head" }, title, badge), score, board,
    el("div", { class: "cluster" }, pdf, el("a", { class: "button", "data-audit": "",
      href: `/audit/match/${encodeURIComponent(matchId)}`, i18n: "spec.audit_link" })),
    el("h3", { i18n: "spec.log" }), log);
  const events = new Map();
  let doc = null;
  let heard = null; // the newest log line and score already announced
  let shown;
  revealWhen(root, new Promise((resolve) => { shown = resolve; }), placeholder());

  const render = () => {
    if (!doc) return;
    shown();
    title.textContent = [tableText(doc), t(`spec.status.${doc.status}`)].filter(Boolean).join(" · ");
    renderScore(score, doc);
    board.data = boardFromLive(doc);
    pdf.href = `/api/matches/${matchId}/protocol.pdf?lang=${i18n.lang}`;
    const items = [...events.values()].sort((a, b) => a.version - b.version);
    const lines = entryLines(items, sideNames(doc)).reverse();
    log.replaceChildren(...lines.map((line) => el("li", { value: String(line.n),
      "data-version": String(line.version), "data-type": line.type,
      class: line.undone ? "undone" : null, "data-undone": line.undone ? "" : null }, line.undone
      ? el("s", { text: line.text }) : line.text)));
    announce(lines[0]);
  };

  // A screen reader hears each new entry of the log, and the score when it changes.
  const announce = (newest) => {
    if (heard) {
      const parts = [];
      if (newest && newest.version !== heard.version) parts.push(newest.text);
      if (scoreChanged(heard.doc, doc)) parts.push(scoreLine(doc));
      if (parts.length) say(parts.join(". "));
    }
    heard = { version: newest?.version, doc };
  };

  const feed = new LiveFeed({ match: matchId });
  feed.addEventListener("snapshot", (e) => {
    if (e.detail.discipline === "backgammon") return location.replace(watchHref(matchId)); // its own page
    doc = e.detail.matches?.[0] || doc;
    render();
  });
  feed.addEventListener("delta", (e) => {
    const d = e.detail;
    events.set(d.version, { version: d.version, type: d.type, event: d.event });
    doc = d.live || doc;
    render();
  });
  feed.addEventListener("state", (e) => showState(badge, root, e.detail.state, t));
  feed.addEventListener("refused", (e) => { // an address the feed does not serve: said (issue 52)
    shown();
    if (e.detail.reason !== "origin") return notFound(root);
    const why = "spec.live_origin";
    return root.replaceChildren(el("p", { class: "placeholder", "data-notice": why, i18n: why }));
  });
  feed.start();
  request("GET", `/api/matches/${matchId}/events`).then((all) => {
    for (const item of all) if (!events.has(item.version)) events.set(item.version, item);
    if (!all.length) { shown(); notFound(root); }
    render();
  }).catch(() => {});
  i18n.addEventListener("change", () => { render(); showState(badge, root, feed.state, t); });
  return feed;
}

function renderScore(score, doc) {
  const names = [doc.side_a || [], doc.side_b || []];
  const game = doc.game;
  const playing = game && !game.over && doc.status === "playing";
  score.replaceChildren(...names.map((players, i) => el("div", {
    class: `score-side side-${i}${playing && players.includes(game.turn) ? " has-turn" : ""}` },
    el("span", { class: "live-dot" }),
    // ▶ before the shooter only: in pairs the partner waits (issue 43 point 5)
    ...players.map((name) => el("a", { href: playerHref(name), text: name,
                                       class: playing && name === game.turn ? "player shooter" : "player" })),
    el("span", { class: "score-pucks", "data-pucks": String(i),
                 text: game ? t("spec.pucks_left", { count: game.pucks?.[i]?.on_board ?? 0 }) : "" }),
    el("strong", { class: "score-games", "data-games": String(i), text: String(doc.won?.[i] ?? 0) }))),
    el("p", { class: "muted", text: game ? t("spec.game_of", { game: game.game_no, games: doc.games }) : "" }),
    ...seatLines(doc).map((line) => el("p", { class: "muted", "data-seats": "", text: line })));
}

function notFound(root) {
  root.replaceChildren(el("p", { class: "placeholder", i18n: "spec.not_found" }),
                       el("a", { href: "/", class: "back", i18n: "spec.all_tables" }));
}

async function playerView(root, name) {
  const list = el("div", { class: "card-list", "data-player-matches": "" });
  root.append(el("a", { href: "/", class: "back", i18n: "spec.all_tables" }),
              el("h2", { text: name }), el("h3", { i18n: "spec.matches" }), list);
  let shown;
  revealWhen(root, new Promise((resolve) => { shown = resolve; }), placeholder());
  try {
    const docs = await request("GET", `/api/players/${encodeURIComponent(name)}/matches`);
    list.replaceChildren(...docs.map((doc) => matchCard(doc, { href: matchHref(doc) })));
    if (!docs.length) list.append(el("p", { class: "muted", i18n: "spec.no_matches" }));
  } catch {
    list.append(el("p", { class: "muted", i18n: "spec.unavailable" }));
  }
  shown();
}

/** What the page says while a view waits for its first data. */
function placeholder() {
  return el("p", { class: "placeholder", "data-placeholder": "", i18n: "spec.loading" });
}

function start() {
  const params = new URLSearchParams(location.search);
  const root = el("section", { class: "stack spectator", "data-live": "false" });
  main.replaceChildren(root);
  main.dataset.faceBuilt = "spectator";
  if (params.get("match")) matchView(root, params.get("match"));
  else if (params.get("player")) playerView(root, params.get("player"));
  else if (params.get("competition")) competitionView(root, params.get("competition"));
  else tablesView(root);
}

await i18n.ready;
start();
