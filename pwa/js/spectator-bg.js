// The backgammon matches on the spectators' front page: those being played, then those
// finished in the last two hours, each a link to its live page `/watch?match=<id>`, updating
// in place from the feed `/live?hall=backgammon` (its snapshot lists the matches; each delta
// carries the match's board after an event: a new match appears, a score changes).
//
//   import { bgMatchList } from "/js/spectator-bg.js";
//   root.append(bgMatchList().section);   // hidden while there is none
//   bgMatchList({ card: screenBgCard, onChange: (size) => … })   // the venue screen's rows
//   bgMatchList({ competitions: ["<id>"] })   // only the matches those competitions started

import { i18n, t } from "/js/i18n.js";
import { LiveFeed } from "/js/live.js";
import { el } from "/js/spectator-dom.js";

export const watchHref = (id) => `/watch?match=${encodeURIComponent(id)}`;

/** A match's row, a link to its live page (`href`: the hall's, else the federation's). */
export function card(m, href = watchHref(m.match_id)) {
  const status = m.status === "over" ? t("spec.bg_final") : t("spec.bg_to", { length: m.length });
  return el("a", { class: "match-card", href, "data-bg-match": m.match_id,
                   "data-status": m.status },
    el("span", { class: "card-head" }, el("span", { text: `${m.players[0]} — ${m.players[1]}` }),
       el("span", { class: "card-status", text: status })),
    el("strong", { class: "card-games", "data-bg-score": "", text: `${m.score[0]} : ${m.score[1]}` }));
}

/** A list row from a delta's board (view.board_doc): with the cube and the clocks, and the
 *  competition the match is of (said on its creation, kept after). */
export function fromBoard(id, board, competition) {
  return { match_id: id, players: board.players, length: board.length, score: board.score,
           status: board.over ? "over" : "playing", winner: board.winner || null,
           cube: board.cube, clock: board.clock, competition_id: competition ?? null };
}

/** The list; `card` draws a row (the venue screen draws its own), `onChange(size)` hears of
 *  every redraw (a face hides its "no table" line while there are matches); `competitions`
 *  (ids), when given, keeps only the matches those competitions started. */
export function bgMatchList({ card: draw = card, onChange = () => {}, competitions = [] } = {}) {
  const wanted = (m) => !competitions.length || competitions.includes(m.competition_id);
  const list = el("div", { class: "card-list", "data-bg-matches": "" });
  const section = el("section", { class: "stack", hidden: true }, el("h2", { i18n: "spec.backgammon" }), list);
  let matches = new Map(); // match_id → row, newest first
  const render = () => {
    list.replaceChildren(...[...matches.values()].map((m) => draw(m)));
    section.hidden = !matches.size;
    onChange(matches.size);
  };
  const feed = new LiveFeed({ hall: "backgammon" });
  feed.addEventListener("snapshot", (e) => {
    matches = new Map((e.detail.backgammon_matches || []).filter(wanted).map((m) => [m.match_id, m]));
    render();
  });
  feed.addEventListener("delta", (e) => {
    const d = e.detail;
    if (d.discipline !== "backgammon") return;
    if (d.barred) { // spectators barred at a player's request (KSI 1.6.4): the row goes
      if (matches.delete(d.match_id)) render();
      return;
    }
    if (!d.board.players[0]) return;
    const row = fromBoard(d.match_id, d.board, d.competition_id ?? matches.get(d.match_id)?.competition_id);
    if (!wanted(row)) return;
    if (matches.has(d.match_id)) matches.set(d.match_id, row); // in place
    else matches = new Map([[d.match_id, row], ...matches]); // a new match comes first
    render();
  });
  i18n.addEventListener("change", render);
  return { section, feed: feed.start(), size: () => matches.size };
}
