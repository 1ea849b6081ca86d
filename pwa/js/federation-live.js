// The federation's live pages (issue 51, point 4; decision 0200), for a person at home:
//
//   /?live=<venue>                  the venue's matches, each card updating in place
//   /?live=<venue>&match=<stream>   one match followed live: korona's board, or backgammon's,
//                                   with the log in words, newest first
//
// Drawn with the hall's own renderers (the table card, <korona-board>, <bg-board>, the log's
// words) from the very documents the hall's spectators get: the relay folds each kept event
// with the venue's folds (federation/relay/boards.py) and sends its match's board with it.
// One LiveFeed (live.js: a snapshot, then position-tagged deltas, resume with `after`,
// nothing twice) on the federation's own /api/federation/live: these scripts talk to the
// federation's origin only, never to a venue. When the venue's uplink is away the relay says
// so, and the page reads "the venue is offline since HH:MM" in the reader's zone.

import { citation, i18n, t } from "/js/i18n.js";
import { LiveFeed } from "/js/live.js";
import "/js/board.js";
import "/js/bg-board.js";
import { boardFromLive } from "/js/board.js";
import { bgBoardNames, bgEventText } from "/js/bg-words.js";
import { matchCard, tableText, updateCard } from "/js/spectator-cards.js";
import { card as bgCard, fromBoard } from "/js/spectator-bg.js";
import { entryLines, sideNames } from "/js/spectator-words.js";
import { showState } from "/js/spectator-tables.js";
import { el } from "/js/spectator-dom.js";
import { say } from "/js/announce.js";

const RELAY = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/federation/live`;
const matchHref = (venue, stream) => `/?${new URLSearchParams({ live: venue, match: stream })}`;
const clock = (iso) => new Intl.DateTimeFormat(i18n.lang, { hour: "2-digit", minute: "2-digit" }).format(new Date(iso));

/** The venue's notice: hidden while it is online, else "offline since HH:MM". */
function noticeLine() {
  const line = el("p", { class: "alarm", role: "status", "data-venue-notice": "", hidden: true });
  let said = null;
  const draw = () => {
    const offline = said?.state === "offline";
    line.hidden = !offline;
    line.dataset.state = said?.state || "";
    line.textContent = offline ? t(`code.${said.code}`, { since: said.since ? clock(said.since) : "—" }) : "";
  };
  return { line, draw, hear: (notice) => { said = notice; draw(); } };
}

function frame(root, feed, ...body) {
  const badge = el("span", { class: "live-state", role: "status", "data-state": "connecting", text: t("live.connecting") });
  const notice = noticeLine();
  root.append(el("div", { class: "cluster view-head" }, el("h2", { class: "grow", "data-live-title": "" }), badge),
    notice.line, ...body);
  feed.addEventListener("state", (e) => showState(badge, root, e.detail.state, t));
  feed.addEventListener("venue", (e) => notice.hear(e.detail));
  feed.addEventListener("refused", () => root.replaceChildren(el("p", { role: "alert", text: t("fed.not_found") })));
  i18n.addEventListener("change", () => { notice.draw(); showState(badge, root, feed.state, t); });
  return root.querySelector("[data-live-title]");
}

/** One match's card in the venue's list: the hall's korona card, or its backgammon row. */
function cardOf(venue, stream, board) {
  const href = matchHref(venue, stream);
  if (board.discipline === "backgammon") return bgCard(fromBoard(stream, board.board), href);
  return matchCard(board.live, { href });
}

/** `/?live=<venue>`: every match the relay holds a board of, updated in place. */
export function venueLive(root, venue) {
  const feed = new LiveFeed({ venue }, { url: RELAY });
  const list = el("div", { class: "card-list", "data-live-matches": "" });
  const none = el("p", { class: "muted", "data-no-live": "" });
  const title = frame(root, feed, list, none);
  const cards = new Map();
  const put = (stream, board) => {
    const held = cards.get(stream);
    if (held && board.discipline === "korona") {
      held.board = board;
      return updateCard(held, board.live); // in place: a list being read does not jump
    }
    const made = cardOf(venue, stream, board);
    made.board = board;
    if (held) held.replaceWith(made);
    else list.append(made);
    cards.set(stream, made);
  };
  const draw = () => {
    title.textContent = t("fed.live_matches");
    none.textContent = cards.size ? "" : t("fed.no_live");
  };
  feed.addEventListener("snapshot", (e) => {
    for (const [stream, board] of Object.entries(e.detail.boards || {})) put(stream, board);
    draw();
  });
  feed.addEventListener("delta", (e) => {
    if (e.detail.board) put(e.detail.stream, e.detail.board);
    draw();
  });
  i18n.addEventListener("change", () => {
    for (const [stream, held] of cards) put(stream, held.board); // in the reader's language
    draw();
  });
  draw();
  return feed.start();
}

/** The log of a match in words, newest first: korona's entries, or backgammon's events. */
function logItems(events, board) {
  if (board.discipline === "backgammon") {
    const names = bgBoardNames(board.board);
    return events.map((e) => el("li", { value: String(e.version), "data-version": String(e.version), "data-type": e.type },
      bgEventText(e.payload, names), e.payload.rule ? el("span", { class: "muted", text: ` — ${citation(e.payload.rule)}` }) : null)).reverse();
  }
  const items = events.map((e) => ({ version: e.version, type: e.type, event: e.payload }));
  return entryLines(items, sideNames(board.live)).reverse().map((line) => el("li", { value: String(line.n),
    "data-version": String(line.version), "data-type": line.type, class: line.undone ? "undone" : null },
  line.undone ? el("s", { text: line.text }) : line.text));
}

/** `/?live=<venue>&match=<stream>`: one match, its board and log, live. */
export function matchLive(root, venue, stream) {
  const feed = new LiveFeed({ venue, stream }, { url: RELAY });
  const score = el("div", { "data-live-score": "" });
  const drawing = el("div", { "data-live-board": "" });
  const log = el("ol", { class: "log", reversed: "", "data-log": "" });
  const title = frame(root, feed, el("a", { href: `/?${new URLSearchParams({ live: venue })}`, class: "back", text: t("fed.live_matches") }),
    score, drawing, el("h3", { text: t("fed.live_log") }), log);
  const events = new Map();
  let board = null;
  let heard = 0;
  const draw = () => {
    if (!board) return;
    const bg = board.discipline === "backgammon";
    title.textContent = bg ? board.board.players.join(" — ") : tableText(board.live) || t("fed.live_match");
    score.replaceChildren(bg ? bgCard(fromBoard(stream, board.board), matchHref(venue, stream)) : matchCard(board.live));
    const shown = drawing.firstElementChild;
    const tag = bg ? "bg-board" : "korona-board";
    const face = shown?.localName === tag ? shown : el(tag, bg ? { "whole-names": "" } : { compact: "" });
    face.data = bg ? board.board : boardFromLive(board.live);
    if (face !== shown) drawing.replaceChildren(face);
    const lines = logItems([...events.values()].sort((a, b) => a.version - b.version), board);
    log.replaceChildren(...lines);
    root.dataset.version = String(Math.max(0, ...events.keys()));
  };
  feed.addEventListener("snapshot", (e) => {
    for (const event of e.detail.events || []) events.set(event.version, event);
    board = e.detail.board || board;
    draw();
  });
  feed.addEventListener("delta", (e) => {
    events.set(e.detail.version, e.detail);
    board = e.detail.board || board;
    draw();
    if (heard && e.detail.version > heard) say(log.firstElementChild?.textContent || "");
    heard = e.detail.version;
  });
  i18n.addEventListener("change", draw);
  return feed.start();
}

/** A live link for an event in progress at its venue. */
export function liveLink(venue) {
  return el("a", { class: "button", href: `/?${new URLSearchParams({ live: venue })}`, "data-live-link": venue, text: t("fed.follow_live") });
}
