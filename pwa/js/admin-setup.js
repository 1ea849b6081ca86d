// Competitions: the list to pick from, and the guide (juhend) of a new one.

import { t } from "/js/i18n.js";
import { request } from "/js/api.js";
import { h, field, choice, section } from "/js/admin-dom.js";
import { accountView } from "/js/admin-account.js";
import { entrySettings } from "/js/admin-entry.js";
import { sportSettings } from "/js/admin-bg.js";
import { tabletsView } from "/js/admin-tablets.js";

const FORMATS = ["swiss", "round_robin", "double_elimination", "single_elimination", "swiss_playoff"];
const DISCIPLINES = ["mens_singles", "womens_singles", "mens_pairs", "womens_pairs", "mixed_pairs"];
const RULESETS = ["EKML", "NOVUS08", "LV"];
const SCALES = { "210": { win: 2, draw: 1, loss: 0 }, "420": { win: 4, draw: 2, loss: 0 },
                 game: { win: 1, draw: 0.5, loss: 0, per_game: true } };
const TIE_BREAKS = ["buchholz", "sonneborn_berger", "games_ratio", "head_to_head", "buchholz_cut1",
  "median_buchholz", "progressive", "wins", "games_diff", "pucks_diff"];
const DEFAULT_TIES = ["buchholz", "sonneborn_berger", "games_ratio"];
// Which parts of the guide each format uses: rounds (Swiss), a play-off, a table of standings.
const USES = {
  swiss: ["rounds", "standings"], swiss_playoff: ["rounds", "standings", "playoff"],
  round_robin: ["standings", "listing"], double_elimination: [], single_elimination: ["flights"],
};

/** Tie-break checkboxes in words; the order they are ticked in is the order they apply. A
 *  backgammon guide has no pucks, and its games columns count points (a match is one game). */
function tieBreaks() {
  const order = [...DEFAULT_TIES];
  const box = h("fieldset", { className: "stack", "data-tie-breaks": true },
    h("legend", {}, t("admin.guide.tie_breaks")));
  const list = h("ol", { className: "small", "data-tie-order": true });
  let sport = "korona";
  const label = (k) => t(sport === "backgammon" && k.startsWith("games_") ? `admin.tiebreak.bg.${k}`
                                                                          : `admin.tiebreak.${k}`);
  const show = () => list.replaceChildren(...order.map((k) => h("li", {}, label(k))));
  const labels = [];
  for (const key of TIE_BREAKS) {
    const id = `f-tb-${key}`;
    const input = h("input", { type: "checkbox", id, name: key, checked: order.includes(key),
      onchange: () => {
        const at = order.indexOf(key);
        if (input.checked && at < 0) order.push(key);
        if (!input.checked && at >= 0) order.splice(at, 1);
        show();
      } });
    const text = h("label", { for: id }, label(key));
    labels.push([key, text]);
    box.append(h("div", { className: "field check", "data-tie-break": key,
                          ...(key === "pucks_diff" ? { "data-sport": "korona" } : {}) }, input, text));
  }
  box.append(list);
  show();
  const adapt = (value) => {
    sport = value;
    labels.forEach(([key, text]) => { text.textContent = label(key); });
    show();
  };
  return { box, order: () => [...order], adapt };
}

export function setupView(ctx) {
  const list = h("ul", { className: "stack plain", "data-competitions": true });
  const screen = h("a", { href: "/screen", className: "button", target: "_blank", rel: "noopener",
                          "data-screen-link": true }, t("admin.screen_hall"));
  const parts = [section("admin.competitions", h("div", { className: "cluster" }, screen), list)];
  if (ctx.role() === "head_judge") parts.push(guideForm(ctx));
  parts.push(tabletsView(), accountView(ctx));
  const view = h("div", { className: "stack" }, ...parts);
  // Shown whole once the list is in, so the form under it never jumps down (issue 45).
  view.dataset.loading = "";
  request("GET", "/api/competitions").then((items) => list.replaceChildren(...items.map((c) =>
    h("li", {}, h("a", { className: "button", href: `#c=${c.competition_id}` },
      `${c.name} · ${t(`admin.format.${c.format}`)}${c.finished ? ` ✓ ${t("admin.standings.published")}` : ""}`)))))
    .catch(() => {}) // an empty list; the page can be reloaded
    .finally(() => delete view.dataset.loading);
  return view;
}

/** The guide form: a new competition's, or (`current`: the guide as it is) the same form
 *  filled in to mend a competition nobody has entered yet (AmendGuide, EKML §3(5)). */
export function guideForm(ctx, current = null) {
  const name = h("input", { name: "name", id: "f-name", required: true });
  const rounds = h("input", { name: "rounds", id: "f-rounds", type: "number", min: 1, max: 15, value: 7 });
  const games = h("input", { name: "games", id: "f-games", type: "number", min: 1, max: 15, value: 4 });
  const playAll = h("input", { name: "play_all", id: "f-play-all", type: "checkbox" });
  const ties = tieBreaks();
  const entry = entrySettings();
  const playoff = h("input", { name: "playoff", id: "f-playoff", type: "number", min: 2, max: 8, value: 4 });
  const playoffGames = h("input", { name: "playoff_games", id: "f-playoff-games", type: "number",
                                    min: 1, max: 9, value: 5 });
  const playoffAll = h("input", { name: "playoff_play_all", id: "f-playoff-play-all", type: "checkbox" });
  const consolation = h("input", { name: "consolation", id: "f-consolation", type: "checkbox", checked: true });
  const lastChance = h("input", { name: "last_chance", id: "f-last-chance", type: "checkbox" });
  // EKML §31(1): a round robin's first-listed opens; a guide may draw lots instead (KUUSALU).
  const byLot = h("input", { name: "opening_by_lot", id: "f-opening-by-lot", type: "checkbox" });
  const unplayed = choice("unplayed", ["draw", "virtual_opponent", "face_value"]
    .map((v) => [v, `admin.unplayed.${v}`]), "draw");
  const oppUnplayed = choice("opp_unplayed", ["face_value", "as_draws"]
    .map((v) => [v, `admin.opp_unplayed.${v}`]), "face_value");
  const h2h = choice("h2h", ["all_met", "partial"].map((v) => [v, `admin.h2h.${v}`]), "all_met");
  // Where LV or NOVUS08 is silent: fill from EKML, or leave the silence (issue 35).
  const fill = choice("fill_silences", ["ekml", "none"].map((v) => [v, `admin.fill.${v}`]), "ekml");
  const cap = h("input", { name: "time_cap", id: "f-time-cap", type: "number", min: 0, max: 180, value: 0 });
  const format = choice("format", FORMATS.map((f) => [f, `admin.format.${f}`]), "swiss");
  const discipline = choice("discipline", DISCIPLINES.map((d) => [d, `admin.discipline.${d}`]), "mens_singles");
  const ruleset = choice("ruleset", RULESETS.map((r) => [r, `admin.ruleset.${r}`]), "EKML");
  const game = sportSettings(ruleset, discipline);
  const scale = choice("scale", [["210", "admin.scale.210"], ["420", "admin.scale.420"],
                                 ["game", "admin.scale.game"]], "210");
  const form = h("form", { className: "stack", "data-keep": true, "data-guide": true,
    onsubmit: async (e) => {
      e.preventDefault();
      const guide = {
        name: name.value.trim(), format: format.value, discipline: discipline.value,
        ruleset: ruleset.value, rounds: Number(rounds.value), games_per_match: Number(games.value),
        play_all_games: playAll.checked, points: SCALES[scale.value],
        tie_breaks: ties.order(), playoff_size: Number(playoff.value),
        playoff_games: Number(playoffGames.value), playoff_play_all_games: playoffAll.checked,
        unplayed_games_in_buchholz: unplayed.value, opponent_unplayed_in_buchholz: oppUnplayed.value,
        head_to_head: h2h.value, consolation: consolation.checked, fill_silences: fill.value,
        last_chance: consolation.checked && lastChance.checked,
        opening_by_lot: format.value === "round_robin" && byLot.checked,
      };
      if (Number(cap.value) > 0) guide.time_cap = { minutes: Number(cap.value) };
      entry.apply(guide);
      game.apply(guide);
      if (current) return ctx.attempt(() => ctx.desk.command({ type: "AmendGuide", guide }));
      await ctx.attempt(async () => {
        const reply = await request("POST", "/api/competitions",
                                    { command_id: crypto.randomUUID(), guide });
        location.hash = `c=${reply.competition_id}`;
      });
    } },
    h("div", { className: "grid" },
      field("admin.guide.name", name), field("admin.guide.sport", game.sport),
      field("admin.guide.format", format),
      field("admin.guide.discipline", discipline), field("admin.guide.ruleset", ruleset),
      part("rounds", field("admin.guide.rounds", rounds)), korona(field("admin.guide.games", games)),
      korona(field("admin.guide.scale", scale)),
      part("playoff", field("admin.guide.playoff", playoff)),
      korona(part("playoff", field("admin.guide.playoff_games", playoffGames))),
      korona(field("admin.guide.time_cap", cap)),
      korona(field("admin.guide.fill_silences", fill)),
      korona(h("div", { className: "field check" }, playAll,
        h("label", { for: "f-play-all" }, t("admin.guide.play_all")))),
      korona(part("playoff", h("div", { className: "field check" }, playoffAll,
        h("label", { for: "f-playoff-play-all" }, t("admin.guide.playoff_play_all"))))),
      korona(part("listing", check(byLot, "admin.guide.opening_by_lot"))),
      part("flights", check(consolation, "admin.guide.consolation")),
      part("flights", check(lastChance, "admin.guide.last_chance")),
      part("standings", field("admin.guide.unplayed", unplayed)),
      part("standings", field("admin.guide.opp_unplayed", oppUnplayed)),
      part("standings", field("admin.guide.h2h", h2h))),
    game.box,
    part("standings", ties.box),
    entry.box,
    current ? h("button", { type: "submit", className: "primary", "data-amend": true }, t("admin.guide.amend"))
      : h("button", { type: "submit", className: "primary", "data-create": true }, t("admin.guide.create")));
  const adapt = () => {
    game.adapt();
    ties.adapt(game.sport.value);
    form.querySelectorAll("[data-part], [data-sport]").forEach((el) => {
      const { part: needs, sport } = el.dataset;
      el.hidden = (needs && !USES[format.value].includes(needs)) || (sport && sport !== game.sport.value);
      el.style.display = el.hidden ? "none" : ""; // a .field's own display would override [hidden]
    });
    entry.adapt(format.value, game.sport.value);
  };
  // Pairs score 4 / 2 / 0, singles 2 / 1 / 0 (EKML §32(2)) until the TD picks a scale.
  let scaleChosen = false;
  scale.addEventListener("change", () => { scaleChosen = true; });
  discipline.addEventListener("change", () => {
    if (!scaleChosen) scale.value = discipline.value.endsWith("_pairs") ? "420" : "210";
  });
  format.addEventListener("change", adapt);
  game.sport.addEventListener("change", adapt);
  if (current) fillGuide(form, current);
  adapt();
  return current ? form : section("admin.guide.title", form);
}

/** The form showing a guide as it is (the settings a refusal usually comes from; the rest
 *  as the form shows them): the guide form of a competition to mend. */
function fillGuide(form, g) {
  const set = (id, v) => {
    const el = form.querySelector(`#${id}`);
    if (!el || v === undefined || v === null) return;
    if (el.type === "checkbox") el.checked = Boolean(v);
    else el.value = String(v);
  };
  const p = g.points || {};
  const values = { "f-name": g.name, "f-format": g.format, "f-discipline": g.discipline,
    "f-ruleset": g.ruleset, "f-rounds": g.rounds, "f-games": g.games_per_match,
    "f-play-all": g.play_all_games, "f-scale": p.per_game ? "game" : p.win === 4 ? "420" : "210",
    "f-playoff": g.playoff_size, "f-playoff-games": g.playoff_games,
    "f-playoff-play-all": g.playoff_play_all_games, "f-consolation": g.consolation,
    "f-last-chance": g.last_chance, "f-unplayed": g.unplayed_games_in_buchholz,
    "f-opp_unplayed": g.opponent_unplayed_in_buchholz, "f-h2h": g.head_to_head,
    "f-fill_silences": g.fill_silences, "f-time-cap": g.time_cap?.minutes || 0,
    "f-opening-by-lot": g.opening_by_lot, "f-women-in-mens": g.women_in_mens,
    "f-late-entry": g.late_entry };
  for (const [id, v] of Object.entries(values)) set(id, v);
  const boxes = [...form.querySelectorAll("[data-tie-break] input")];
  const tick = (box, on) => { box.checked = on; box.dispatchEvent(new Event("change")); };
  for (const box of boxes) tick(box, false); // then in the guide's order: the order they apply
  for (const k of g.tie_breaks || []) for (const b of boxes.filter((x) => x.name === k)) tick(b, true);
}

/** A checkbox with its label after it. */
function check(input, key) {
  return h("div", { className: "field check" }, input, h("label", { for: input.id }, t(key)));
}

/** A part of the guide form only korona has (hidden for backgammon by `adapt`). */
function korona(el) {
  el.dataset.sport = "korona";
  return el;
}

/** A part of the guide form that only some formats use (shown or hidden by `adapt`). */
function part(name, el) {
  el.dataset.part = name;
  return el;
}
