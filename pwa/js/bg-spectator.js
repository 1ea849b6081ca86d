// The spectators' backgammon match page at `/watch?match=<id>` (no login, phone first):
// the board (<bg-board>: cube, score, match length, Crawford, clocks, whose turn), a title
// with the match length and "Final" once the match is over, and the log of events in words
// with their KSI paragraphs, newest first — all pushed by the live feed (bg-live.js), no timers.
// A screen reader hears each event that comes while the page is open.
// `/?match=<id>` of a backgammon match comes here (spectator-app.js).

import { citation, i18n, t } from "/js/i18n.js";
import { h as el } from "/js/dom.js";
import "/js/bg-board.js";
import { BgMatchFeed } from "/js/bg-live.js";
import { bgBoardNames, bgEventText } from "/js/bg-words.js";
import { revealWhen } from "/js/spectator-dom.js";
import { showState } from "/js/spectator-tables.js";
import { say } from "/js/announce.js";

const main = document.getElementById("face");

/** "Ása — Bjarni · match to 7 points · Final" */
function titleText(board) {
  const names = board.players.join(" — ");
  const parts = [names, t("bg.watch.match_to", { length: board.length })];
  if (board.over) parts.push(t("bg.watch.final"));
  return parts.join(" · ");
}

function logLine(entry, names) {
  const words = bgEventText(entry.event, names);
  return el("li", { value: String(entry.version), "data-version": String(entry.version),
                    "data-type": entry.type },
    words, entry.rule ? el("span", { class: "muted", text: ` — ${citation(entry.rule)}` }) : null);
}

function watch(root, id) {
  const badge = el("span", { class: "live-state", role: "status", "data-state": "connecting",
                             text: t("live.connecting") });
  const title = el("h2", { class: "grow", "data-title": "" });
  const final = el("p", { class: "final", "data-final": "", hidden: true });
  const board = el("bg-board", { "data-bg-board": "", "whole-names": "" }); // names wrap, never cut
  const log = el("ol", { class: "log", reversed: "", "data-log": "" });
  root.append(el("a", { href: "/", class: "back", i18n: "bg.watch.all" }),
              el("div", { class: "cluster view-head" }, title, badge), final, board,
              el("h3", { i18n: "bg.watch.log" }), log);
  const feed = new BgMatchFeed(id);
  let shown;
  revealWhen(root, new Promise((resolve) => { shown = resolve; }),
             el("p", { class: "placeholder", "data-placeholder": "", i18n: "bg.loading" }));

  const notice = el("p", { class: "placeholder", "data-barred": "", role: "status", hidden: true });
  root.append(notice);
  const render = () => {
    const doc = feed.barred ? null : feed.board;
    notice.hidden = !feed.barred; // KSI 1.6.4: the players asked; nothing of the match is shown
    notice.textContent = feed.barred ? t(`code.${feed.barred.code}`) : "";
    for (const part of [title, final, board, log]) part.hidden = Boolean(feed.barred);
    root.dataset.version = String(feed.version);
    if (feed.barred) {
      shown();
      title.textContent = "";
      log.replaceChildren();
    }
    if (!doc) return;
    shown();
    const names = bgBoardNames(doc);
    title.textContent = titleText(doc);
    final.hidden = !doc.over;
    final.textContent = doc.over ? t("bg.match_over", { name: names[doc.winner] || doc.winner }) : "";
    board.data = doc;
    root.dataset.version = String(feed.version);
    log.replaceChildren(...feed.log().reverse().map((entry) => logLine(entry, names)));
  };

  let heard = null; // the newest version announced (none before the first snapshot is drawn)
  feed.addEventListener("change", () => {
    render();
    const newest = feed.log().at(-1);
    if (heard !== null && newest && newest.version > heard) say(logLine(newest, bgBoardNames(feed.board)).textContent);
    heard = newest?.version ?? heard;
  });
  feed.addEventListener("state", (e) => showState(badge, root, e.detail.state, t));
  feed.addEventListener("missing", (e) => {
    shown();
    feed.stop();
    const words = e.detail.reason === "origin" ? t("bg.live_origin") : t("bg.no_match", { id }); // issue 52
    root.replaceChildren(el("p", { class: "placeholder", "data-missing": e.detail.reason || "", text: words }),
                         el("a", { href: "/", class: "back", i18n: "bg.watch.all" }));
  });
  i18n.addEventListener("change", () => { render(); showState(badge, root, feed.state, t); });
  window.bgWatch = feed.start(); // for tests and the curious
}

await i18n.ready;
const root = el("section", { class: "stack spectator", "data-live": "false" });
main.replaceChildren(root);
main.dataset.faceBuilt = "watch";
const id = new URLSearchParams(location.search).get("match");
if (id) watch(root, id);
else location.replace("/");
document.title = `Tableside · ${t("bg.watch.face")}`;
