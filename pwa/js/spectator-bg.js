// The backgammon matches on the spectators' front page: those being played, then those
// finished in the last two hours (GET /api/backgammon/live, public), each a link to its live
// page `/watch?match=<id>`. Read once when the page opens.
//
//   import { bgMatchList } from "/js/spectator-bg.js";
//   root.append(bgMatchList());   // hidden while there is none

import { request } from "/js/api.js";
import { i18n, t } from "/js/i18n.js";
import { el } from "/js/spectator-dom.js";

export const watchHref = (id) => `/watch?match=${encodeURIComponent(id)}`;

function card(m) {
  const status = m.status === "over" ? t("spec.bg_final") : t("spec.bg_to", { length: m.length });
  return el("a", { class: "match-card", href: watchHref(m.match_id), "data-bg-match": m.match_id },
    el("span", { class: "card-head" }, el("span", { text: `${m.players[0]} — ${m.players[1]}` }),
       el("span", { class: "card-status", text: status })),
    el("strong", { class: "card-games", "data-bg-score": "", text: `${m.score[0]} : ${m.score[1]}` }));
}

export function bgMatchList() {
  const list = el("div", { class: "card-list", "data-bg-matches": "" });
  const section = el("section", { class: "stack", hidden: true },
                     el("h2", { i18n: "spec.backgammon" }), list);
  let matches = [];
  const render = () => {
    list.replaceChildren(...matches.map(card));
    section.hidden = !matches.length;
  };
  request("GET", "/api/backgammon/live").then((all) => { matches = all; render(); }).catch(() => {});
  i18n.addEventListener("change", render);
  return section;
}
