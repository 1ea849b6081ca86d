// Competitions: the list to pick from, and the guide (juhend) of a new one.

import { t } from "/js/i18n.js";
import { request } from "/js/api.js";
import { h, field, choice, section } from "/js/admin-dom.js";
import { attempt, role } from "/js/admin-app.js";
import { accountView } from "/js/admin-account.js";

const FORMATS = ["swiss", "round_robin", "double_elimination", "single_elimination", "swiss_playoff"];
const DISCIPLINES = ["mens_singles", "womens_singles", "mens_pairs", "womens_pairs", "mixed_pairs"];
const RULESETS = ["EKML", "NOVUS08", "LV"];
const SCALES = { "210": { win: 2, draw: 1, loss: 0 }, "420": { win: 4, draw: 2, loss: 0 },
                 game: { win: 1, draw: 0.5, loss: 0, per_game: true } };
const TIE_BREAKS = "buchholz, sonneborn_berger, games_ratio";

export function setupView() {
  const list = h("ul", { className: "stack plain", "data-competitions": true });
  request("GET", "/api/competitions").then((items) => list.replaceChildren(...items.map((c) =>
    h("li", {}, h("a", { className: "button", href: `#c=${c.competition_id}` },
      `${c.name} · ${t(`admin.format.${c.format}`)}${c.finished ? " ✓" : ""}`)))))
    .catch(() => {}); // an empty list; the page can be reloaded
  const parts = [section("admin.competitions", list)];
  if (role() === "head_judge") parts.push(guideForm());
  parts.push(accountView());
  return h("div", { className: "stack" }, ...parts);
}

function guideForm() {
  const name = h("input", { name: "name", id: "f-name", required: true });
  const rounds = h("input", { name: "rounds", id: "f-rounds", type: "number", min: 1, max: 15, value: 7 });
  const games = h("input", { name: "games", id: "f-games", type: "number", min: 1, max: 15, value: 4 });
  const playAll = h("input", { name: "play_all", id: "f-play-all", type: "checkbox" });
  const ties = h("input", { name: "tie_breaks", id: "f-tie-breaks", value: TIE_BREAKS });
  const playoff = h("input", { name: "playoff", id: "f-playoff", type: "number", min: 2, max: 8, value: 4 });
  const cap = h("input", { name: "time_cap", id: "f-time-cap", type: "number", min: 0, max: 180, value: 0 });
  const format = choice("format", FORMATS.map((f) => [f, `admin.format.${f}`]), "swiss");
  const discipline = choice("discipline", DISCIPLINES.map((d) => [d, `admin.discipline.${d}`]), "mens_singles");
  const ruleset = choice("ruleset", RULESETS.map((r) => [r, `admin.ruleset.${r}`]), "EKML");
  const scale = choice("scale", [["210", "admin.scale.210"], ["420", "admin.scale.420"],
                                 ["game", "admin.scale.game"]], "210");
  const form = h("form", { className: "stack", "data-keep": true, "data-guide": true,
    onsubmit: async (e) => {
      e.preventDefault();
      const guide = {
        name: name.value.trim(), format: format.value, discipline: discipline.value,
        ruleset: ruleset.value, rounds: Number(rounds.value), games_per_match: Number(games.value),
        play_all_games: playAll.checked, points: SCALES[scale.value],
        tie_breaks: ties.value.split(",").map((s) => s.trim()).filter(Boolean),
        playoff_size: Number(playoff.value),
      };
      if (Number(cap.value) > 0) guide.time_cap = { minutes: Number(cap.value) };
      await attempt(async () => {
        const reply = await request("POST", "/api/competitions",
                                    { command_id: crypto.randomUUID(), guide });
        location.hash = `c=${reply.competition_id}`;
      });
    } },
    h("div", { className: "grid" },
      field("admin.guide.name", name), field("admin.guide.format", format),
      field("admin.guide.discipline", discipline), field("admin.guide.ruleset", ruleset),
      field("admin.guide.rounds", rounds), field("admin.guide.games", games),
      field("admin.guide.scale", scale), field("admin.guide.playoff", playoff),
      field("admin.guide.time_cap", cap), field("admin.guide.tie_breaks", ties),
      h("div", { className: "field check" }, playAll,
        h("label", { for: "f-play-all" }, t("admin.guide.play_all")))),
    h("button", { type: "submit", className: "primary", "data-create": true }, t("admin.guide.create")));
  return section("admin.guide.title", form);
}
