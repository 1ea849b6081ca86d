// The backgammon matches on the venue screen (issue 44), beside the korona tables: one row a
// match in the screen's large type — the players, the score of the length, the cube and both
// clocks (the cube and clocks as the match's feed last told them). The list and its feed are
// the spectators' (spectator-bg.js); this module only draws the row.
//
//   import { screenBgCard } from "/js/screen-bg.js";
//   bgMatchList({ card: screenBgCard })

import { clockText, timeLeft } from "/js/bg-board.js";
import { t } from "/js/i18n.js";
import { el } from "/js/spectator-dom.js";

function clocks(m) {
  if (!m.clock) return null;
  const text = ["A", "B"].map((side, i) => `${m.players[i]} ${clockText(timeLeft(m.clock, side))}`);
  return el("small", { class: "bg-clocks", "data-bg-clocks": "", text: text.join(" · ") });
}

function cube(m) {
  if (!m.cube || m.cube.value < 2) return null;
  return el("small", { class: "bg-cube", "data-bg-cube": "", text: t("screen.bg_cube", { value: m.cube.value }) });
}

/** The two players, each name kept whole on its line; the pair wraps between them only. */
function names(m) {
  return el("strong", { class: "bg-names" },
    el("span", { class: "bg-name", text: m.players[0] }), el("span", { class: "bg-dash", text: "—" }),
    el("span", { class: "bg-name", text: m.players[1] }));
}

export function screenBgCard(m) {
  const status = m.status === "over" ? t("spec.bg_final") : t("spec.bg_to", { length: m.length });
  return el("div", { class: "match-card bg-card", "data-bg-match": m.match_id, "data-status": m.status },
    el("span", { class: "card-head" }, el("span", { class: "card-table", text: t("spec.backgammon") }),
       el("span", { class: "card-status", text: status })),
    el("span", { class: "card-side stack" }, names(m), clocks(m)),
    el("span", { class: "card-games stack" },
       el("strong", { "data-bg-score": "", text: `${m.score[0]} : ${m.score[1]}` }), cube(m)));
}
