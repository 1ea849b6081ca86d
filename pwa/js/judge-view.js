// The judge face drawn from the app's state: status line, the two sides, the board, and the
// one panel that fits the moment (opening shot, recording pad, game over, sign-off, conflict).
// Every button calls app.act(name, value); judge-actions.js does the rest.

import { citation, codeWords, t } from "/js/i18n.js";
import { boardFromLive, seatLines } from "/js/board.js";
import { h } from "/js/judge-dom.js";
import { OTHER_PUCKS, rulesetWord, sidesOf, sideIndex, slowPlayKnown } from "/js/judge-model.js";
import { receiptCard } from "/js/receipt-card.js";

/** What main#face holds for `state` (see judge-app.js for its fields). */
export function view(state, act) {
  const doc = state.shown;
  if (state.problem) {
    return [h("p", { class: "notice", "data-notice": state.problem }, t(state.problem, state.problemParams))];
  }
  if (!doc) {
    const text = state.loading ? t("judge.loading") : t("judge.no_match", { table: state.table });
    return [h("p", { class: "notice", "data-notice": "no-match" }, text)];
  }
  const parts = [statusLine(doc), sides(doc, state), ...seats(doc)];
  const board = h("korona-board", { compact: true });
  board.data = boardFromLive(doc);
  // Offline, what the board shows is partly expected, not recorded: say so while it lasts —
  // over the board, never in the flow, so nothing moves under the judge's thumb.
  const note = doc.predicted && !navigator.onLine
    ? h("p", { class: "predicted", role: "note" }, t("judge.predicted")) : null;
  parts.push(h("div", { class: "board-wrap" }, board, note));
  const lines = state.banner?.lines || [];
  const banner = h("div", { class: `banner tone-${state.banner?.tone || "none"}`, role: "status",
                            "aria-live": "polite", "data-banner": "" },
                   lines.length ? h("p", { class: "banner-score", "data-banner-score": "" },
                     h("span", { class: "visually-hidden" }, `${t("judge.score")} `),
                     `${doc.won[0]} : ${doc.won[1]}`) : null,
                   ...lines.map((line) => h("p", {}, line)));
  const panel = state.held ? conflict(state, act) : phasePanel(doc, state, act);
  const pairs = doc.format === "pairs" ? " pairs" : ""; // a phone fits four names (judge.css)
  return [h("div", { class: `glance${pairs}` }, ...parts), h("div", { class: `work${pairs}` }, banner, panel)];
}

/** Pairs in play: the seat order (EKML §28(1)). Each name's first word stands alone when the
 *  four differ by it, so a phone can show "Anna-Liisa → Jānis → …" (judge.css hides the rest
 *  there); a match over needs no seat order, and its sign-off keeps the first screen. */
function seats(doc) {
  if (doc.status !== "playing") return [];
  const [order, ...rest] = seatLines(doc);
  if (!order) return [];
  const names = doc.game.seats;
  const first = names.map((name) => name.split(" ")[0]);
  const short = new Set(first).size === names.length;
  const [before, after = ""] = t("board.seats", { order: "\u0000" }).split("\u0000");
  const seat = (name, i) => (short && first[i] !== name
    ? h("span", { class: "seat" }, first[i], h("span", { class: "seat-rest" }, name.slice(first[i].length)))
    : h("span", { class: "seat" }, name));
  const line = h("p", { class: "seats", "data-seats": "" }, h("span", { class: "seats-label" }, before),
    ...names.flatMap((name, i) => (i ? [" → ", seat(name, i)] : [seat(name, i)])), after);
  return [line, ...rest.map((text) => h("p", { class: "seats seats-move", "data-seats": "" }, text))];
}

function statusLine(doc) {
  const game = doc.game;
  const bits = [doc.ruleset];
  if (game) bits.push(t("judge.game_of", { n: game.game_no, games: doc.games }));
  return h("p", { class: "status-line", "data-status": doc.status },
           h("span", {}, bits.join(" · ")), " ",
           h("span", { class: "visually-hidden" }, `${t("judge.score")} `),
           h("strong", { "data-score": "" }, `${doc.won[0]} : ${doc.won[1]}`));
}

function pips(count, doc) {
  const marks = [0, 1, 2].map((k) => h("i", { class: k < count ? "pip on" : "pip" }));
  const word = rulesetWord("judge.remarks", doc);
  return h("span", { class: "pips", role: "img", "aria-label": `${word} ${count}/3`,
                     "data-remarks": count }, h("span", { class: "pips-label" }, word), ...marks);
}

function sides(doc, state) {
  const game = doc.game || {};
  const playing = doc.status === "playing";
  const rows = sidesOf(doc).map((players, i) => {
    const turn = playing && players.includes(game.turn);
    const pucks = game.pucks?.[i] || { on_board: 0, debt: 0 };
    const names = players.map((name) => h("span", {
      class: playing && name === game.turn ? "who turn-name" : "who",
    }, name, name === game.opener ? h("span", { class: "opener" }, t("judge.opens")) : null));
    return h("li", { class: `side side-${i}${turn ? " has-turn" : ""}`, "data-side": i },
      h("span", { class: "arrow", "aria-hidden": "true" }, turn ? "▶" : ""),
      h("span", { class: "names" }, ...names.flatMap((n, k) => (k ? [" / ", n] : [n])),
        turn ? h("span", { class: "visually-hidden" }, ` (${t("judge.turn")})`) : null),
      h("span", { class: "facts" },
        doc.game ? h("span", {},
                     h("span", { class: "visually-hidden" }, `${t("judge.pucks")} ${pucks.on_board}`),
                     h("span", { "data-pucks": i, "aria-hidden": "true" }, `● ${pucks.on_board}`)) : null,
        pucks.debt ? h("span", { class: "debt" }, `${t("judge.debt")} ${pucks.debt}`) : null,
        pips(doc.remarks?.[i] || 0, doc),
        state.judge?.time_limit?.[i] ? h("span", { class: "limit" }, t("judge.time_limit_on")) : null));
  });
  return h("ul", { class: `sides${doc.predicted ? " is-predicted" : ""}` }, ...rows);
}

function phasePanel(doc, state, act) {
  if (doc.status === "signed") {
    return h("section", { class: "panel", "data-panel": "signed" },
      h("p", { class: "notice", "data-notice": "signed" }, t("judge.signed")), receiptCard(doc.match_id));
  }
  if (doc.status === "ended") return matchOver(doc, state, act);
  if (!doc.game) return opening(doc, act);
  if (doc.game.over && doc.predicted) {
    return h("section", { class: "panel" }, h("p", {}, t("judge.game_pending")),
             h("button", { class: "wide", onclick: () => act("undo") }, t("judge.undo")));
  }
  if (state.gameOver) return gameOver(doc, state, act);
  return pad(doc, state, act);
}

// The guide says how game 1 opens (EKML §31(1)): a round robin's first-listed opens — no
// coin toss is asked; the lot decides elsewhere — no "first-listed" is offered; a match
// without a guide (a walk-up) offers both.
function opening(doc, act) {
  const [a, b] = sidesOf(doc);
  const listing = h("button", { class: "wide", "data-opening": "listing", onclick: () => act("opening", "listing") },
    t("judge.opening_listing"));
  // Before any opening: a player not at the table within 2 minutes (EKML §22(3)).
  const noShow = h("button", { class: "wide no-show", "data-act": "no_show", onclick: () => act("no_show") },
    t("judge.no_show"));
  if (doc.opening === "listing") {
    return h("section", { class: "panel", "data-panel": "opening" }, h("h2", {}, t("judge.opening_title")),
      h("p", {}, t("judge.opening_listing_help", { side: a.join(" / ") })), listing, noShow);
  }
  return h("section", { class: "panel", "data-panel": "opening" },
    h("h2", {}, t("judge.opening_title")), h("p", {}, t("judge.opening_help")),
    h("div", { class: "choices cols-2" },
      h("button", { class: "side-btn side-0", "data-opening": "A", onclick: () => act("opening", "A") }, a.join(" / ")),
      h("button", { class: "side-btn side-1", "data-opening": "B", onclick: () => act("opening", "B") }, b.join(" / "))),
    doc.opening === "lot" ? null : listing, noShow);
}

function pad(doc, state, act) {
  const game = doc.game;
  const side = sideIndex(doc, game.turn);
  const left = game.pucks[side]?.on_board ?? 0;
  // Buttons never move or vanish under the thumb: what does not fit the board is disabled.
  const b = (name, label, cls = "", value, off = false) => h("button", {
    class: cls, "data-act": name, onclick: () => act(name, value), disabled: off,
  }, label);
  const armed = state.armed || {};
  const m = (name, label, on) => h("button", {
    class: `span-2 modifier${on ? " armed" : ""}`, "data-act": name, "aria-pressed": String(on),
    onclick: () => act(name),
  }, on ? `＋ ${label}` : label);
  const extra = Object.keys(armed).map((k) => t(`judge.modifier.${k}`));
  return h("section", { class: "panel pad", "data-panel": "pad" },
    h("p", { class: `shooter side-${side}`, "data-armed": extra.length ? extra.join(" + ") : null },
      "▶ ", t("judge.stroke_by", { name: game.turn }),
      extra.length ? ` · ＋ ${extra.join(" + ")} · ${t("judge.modifier.then")}` : ""),
    h("div", { class: "grid" },
      b("pocketed", t("judge.pocketed_1"), "big main-outcome span-2", 1),
      b("pocketed", t("judge.pocketed_2"), "", 2, left < 2),
      b("pocketed_more", t("judge.pocketed_3"), "", undefined, left < 3),
      b("no_pocket", t("judge.no_pocket"), "big span-2"),
      m("striker_pocket", t("judge.striker_pocket"), Boolean(armed.striker_pocket)),
      m("striker_over", t("judge.striker_over"), Boolean(armed.striker_over)),
      m("puck_over", otherPucksLabel(armed), OTHER_PUCKS.some((k) => armed[k])),
      b("foul", t("judge.foul"), "span-2"),
      b("remark", rulesetWord("judge.remark", doc), "span-2"),
      b("time", timeLabel(state, side), `span-2 time-${state.clock?.phase || "idle"}`, undefined,
        !slowPlayKnown(state.catalogue)), // no slow-play remark in the ruleset: no time report
      b("undo", t("judge.undo"), "span-3"),
      b("more", t("judge.more"), "span-3")));
}

/** The "Other pucks…" button says which one is armed. */
function otherPucksLabel(armed) {
  const key = OTHER_PUCKS.find((k) => armed[k]);
  return key ? t(`judge.modifier.${key}`) : t("judge.puck_over");
}

export function timeLabel(state, side) {
  const clock = state.clock;
  if (clock?.phase === "running") return t("judge.time_running", { s: clock.left });
  if (clock?.phase === "up") return t("judge.time_up");
  return state.judge?.time_limit?.[side] ? t("judge.time_start") : t("judge.time");
}

function gameOver(doc, state, act) {
  const ended = state.gameOver;
  const n = doc.game.game_no;
  return h("section", { class: "panel", "data-panel": "game-over" },
    h("h2", {}, t("judge.game_over", { n: ended.game_no })),
    ended.name ? h("p", { class: "result", "data-game-end": "" },
                   t("judge.game_won", { name: ended.name, n: ended.game_no }),
                   ended.reason ? ` — ${codeWords(ended.reason)}` : "",
                   ended.rule ? ` (${citation(ended.rule)})` : "") : null,
    h("p", { class: "result" }, `${t("judge.score")} ${doc.won[0]} : ${doc.won[1]}`),
    // pairs: everyone moves one seat (EKML §28(1)); on a phone said here, not above the pad
    doc.format === "pairs" ? h("p", { class: "seats-move", "data-seats-move": "" }, t("board.seats_move")) : null,
    h("div", { class: "choices cols-2" },
      h("button", { "data-act": "undo", onclick: () => act("undo") }, t("judge.undo")),
      h("button", { class: "primary", "data-act": "next_game", onclick: () => act("next_game") },
        t("judge.game_next", { n }))));
}

function matchOver(doc, state, act) {
  const [a, b] = sidesOf(doc);
  const winner = doc.winner === "A" ? a : doc.winner === "B" ? b : null;
  const score = { a: doc.won[0], b: doc.won[1] };
  const input = h("input", { id: "judge-name", autocomplete: "name", value: state.judgeName || "",
                             oninput: (e) => act("judge_name", e.target.value) });
  return h("section", { class: "panel", "data-panel": "match-over" },
    h("h2", {}, t("judge.match_over")),
    h("p", { class: "result" }, winner ? t("judge.match_won", { name: winner.join(" / "), ...score })
                                       : t("judge.match_drawn", score)),
    h("p", {}, t("judge.points", { a: doc.result_points[0], b: doc.result_points[1] })),
    h("label", { for: "judge-name" }, t("judge.judge_name")), input,
    h("div", { class: "choices cols-2" },
      h("button", { "data-act": "undo", onclick: () => act("undo") }, t("judge.undo")),
      h("button", { class: "primary", "data-act": "sign", onclick: () => act("sign") }, t("judge.sign"))),
    receiptCard(doc.match_id)); // both players scan the signed result (#29)
}

function conflict(state, act) {
  const { current, count, changes } = state.held;
  return h("section", { class: "panel conflict", "data-panel": "conflict" },
    h("h2", {}, t("judge.conflict_title")),
    h("p", {}, t("judge.conflict_text", { version: current ?? "?", count })),
    h("ul", { class: "changes" }, ...(changes || []).map((line) => h("li", {}, line))),
    h("div", { class: "choices cols-2" },
      h("button", { "data-act": "conflict_drop", onclick: () => act("conflict_drop") },
        t("judge.conflict_drop", { count })),
      h("button", { class: "primary", "data-act": "conflict_keep", onclick: () => act("conflict_keep") },
        t("judge.conflict_keep"))));
}
