// The guide's game: korona/novus (EKML, NOVUS08, LV) or backgammon under KSI. A backgammon
// guide has match lengths in points per round and for the final, a clock and the lateness
// penalty setting (KSI 2.2.4); a match is won or lost (1 match point, a bye a win), so the
// korona-only fields (games, points scale, time cap, play all, pucks) are hidden and not sent.

import { h, field, choice } from "/js/admin-dom.js";
import { t } from "/js/i18n.js";

export const SPORTS = ["korona", "backgammon"];
const RULESETS = { korona: ["EKML", "NOVUS08", "LV"], backgammon: ["KSI"] };
const DISCIPLINES = {
  korona: ["mens_singles", "womens_singles", "mens_pairs", "womens_pairs", "mixed_pairs"],
  backgammon: ["open_singles"], // KSI knows one event: players, not men's or women's
};
const MATCH_POINT = { win: 1, draw: 0.5, loss: 0 };

/** "5, 7, 9" as [5, 7, 9]; anything not a whole number is left for the server to refuse. */
export function lengths(text) {
  return text.split(/[\s,;]+/).filter(Boolean).map(Number);
}

/** Refill a select with the game's options; its first (the game's default) is chosen. */
function refill(select, values, prefix) {
  const keep = values[0];
  select.replaceChildren(...values.map((v) =>
    h("option", { value: v, selected: v === keep }, t(`${prefix}.${v}`))));
}

/** The game choice, the backgammon fieldset, and what they add to a guide being built. */
export function sportSettings(ruleset, discipline) {
  const sport = choice("sport", SPORTS.map((s) => [s, `admin.sport.${s}`]), "korona");
  const list = h("input", { id: "f-bg-lengths", name: "bg_lengths", value: "7", inputMode: "numeric" });
  const final = h("input", { id: "f-bg-final", name: "bg_final", type: "number", min: 0, max: 99, value: 0 });
  // KSI 3.5.1.1-3 and 3.4.1.1-3: a clock and a baffle box optional, preferred or mandatory
  const uses = (key) => ["optional", "preferred", "mandatory"].map((u) => [u, `admin.guide.${key}.${u}`]);
  const clock = choice("bg_clock_use", uses("bg_clock_use"), "optional");
  const baffle = choice("bg_baffle_box", uses("bg_baffle_box"), "optional");
  const penalty = h("input", { type: "checkbox", id: "f-bg-penalty", name: "bg_penalty", checked: true });
  const box = h("fieldset", { className: "stack", "data-sport": "backgammon", "data-bg-settings": true },
    h("legend", {}, t("admin.guide.bg")),
    h("p", { className: "small" }, t("admin.guide.bg_scoring")),
    h("div", { className: "grid" }, field("admin.guide.bg_lengths", list), field("admin.guide.bg_final", final),
      field("admin.guide.bg_clock_use", clock), field("admin.guide.bg_baffle_box", baffle),
      h("div", { className: "field check" }, penalty,
        h("label", { for: "f-bg-penalty" }, t("admin.guide.bg_penalty")))));
  let shown = "korona"; // the game the selects are filled for: refilled only on a change
  const adapt = () => {
    if (sport.value === shown) return;
    shown = sport.value;
    refill(ruleset, RULESETS[shown], "admin.ruleset");
    refill(discipline, DISCIPLINES[shown], "admin.discipline");
  };
  const apply = (guide) => {
    guide.sport = sport.value;
    if (sport.value !== "backgammon") return guide;
    delete guide.time_cap;
    return Object.assign(guide, {
      games_per_match: 1, playoff_games: 1, play_all_games: false, playoff_play_all_games: false,
      points: MATCH_POINT, tie_breaks: guide.tie_breaks.filter((k) => k !== "pucks_diff"),
      settings: { lengths: lengths(list.value), final_length: Number(final.value),
                  clock: clock.value === "mandatory", clock_use: clock.value, baffle_box: baffle.value,
                  penalty_to_score: penalty.checked },
    });
  };
  return { sport, box, adapt, apply };
}
