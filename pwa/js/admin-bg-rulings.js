// The Rulings tab of a backgammon (KSI) competition: each match's disputes (KSI 5) as the
// federation report words them — the call, the ruling, testimony, the appeal and the jury's
// decision with the jury named, each with its KSI paragraph — and where each dispute stands.
// Korona's no-shows, protests (EKML) and result fields (pucks) are not a KSI competition's.

import { request } from "/js/api.js";
import { h, section } from "/js/admin-dom.js";
import { i18n, t } from "/js/i18n.js";

function dispute(d) {
  return h("li", { className: "stack", "data-dispute": d.match_id, "data-state": d.state },
    h("div", { className: "cluster" }, h("strong", { className: "grow" }, d.players.join(" – ")),
      d.state ? h("span", { className: "badge", "data-dispute-state": d.state }, t(`admin.rulings.ksi.${d.state}`)) : null),
    h("ul", { className: "stack" }, d.entries.map((e) => h("li", { "data-rule": e.rule },
      e.game_no ? `${t("admin.rulings.ksi.game", { n: e.game_no })} · ` : "", e.text, " ",
      h("span", { className: "small", "data-cite": "" }, `(${e.rule})`)))));
}

/** The tab's body; filled in when the competition's disputes are read. */
export function ksiRulingsView(ctx) {
  const list = h("ul", { className: "stack", "data-disputes": true });
  const box = h("div", { className: "stack", "data-ksi-rulings": true },
    section("admin.rulings.ksi.title", h("p", { className: "small" }, t("admin.rulings.ksi.hint")), list));
  const lang = ["is", "en", "et", "lv"].includes(i18n.lang) ? i18n.lang : "is";
  request("GET", `/api/competitions/${ctx.desk.id}/disputes?lang=${lang}`).then((all) => {
    list.replaceChildren(...(all.length ? all.map(dispute) : [h("li", {}, t("admin.rulings.none"))]));
    box.dataset.loaded = "1";
  }).catch((error) => ctx.attempt?.(() => Promise.reject(error)));
  return box;
}
