// The guide's entry settings (EKML §3(4), §7, §8(3), §29): age class, registration window,
// draw time, late entry, women in a men's event, and a team competition's boards.

import { h, field, choice } from "/js/admin-dom.js";
import { t } from "/js/i18n.js";

const AGE_CLASSES = ["", "youth", "main", "veterans"];
const SWISS = ["swiss", "swiss_playoff"];

/** EKML §7(2) by birth year only: youth 11–15 applied up to 18, veterans men over 40 and
 *  women over 35 (a mixed event takes the men's bound); null when no class is chosen. */
export function ageClass(name, year, discipline) {
  if (!name) return null;
  const sex = discipline.startsWith("mens") ? "M" : discipline.startsWith("womens") ? "F" : null;
  const bounds = { youth: { born_from: year - 18, born_to: year - 11 }, main: {},
                   veterans: { born_to: year - (sex === "F" ? 35 : 40) - 1 } }[name];
  return { name, ...bounds, ...(sex ? { sex } : {}) };
}

/** An <input type=datetime-local> value as an ISO-8601 UTC instant ("" stays null). */
function instant(input) {
  return input.value ? new Date(input.value).toISOString().replace(/\.\d{3}Z$/, "Z") : null;
}

function check(id, key, checked = false) {
  const input = h("input", { type: "checkbox", id, name: id, checked });
  return { input, el: h("div", { className: "field check" }, input, h("label", { for: id }, t(key))) };
}

function number(id, value, min, max) {
  return h("input", { id, name: id, type: "number", min, max, value });
}

/** The entry fieldset and a function that adds its settings to a guide being built. */
export function entrySettings() {
  const age = choice("age_class", AGE_CLASSES.map((a) => [a, `admin.age.${a || "none"}`]), "");
  const year = number("f-event-year", new Date().getFullYear(), 1990, 2100);
  const opens = h("input", { id: "f-reg-opens", type: "datetime-local" });
  const closes = h("input", { id: "f-reg-closes", type: "datetime-local" });
  const drawAt = h("input", { id: "f-draw-at", type: "datetime-local" });
  const late = check("f-late-entry", "admin.guide.late_entry", true);
  const women = check("f-women-in-mens", "admin.guide.women_in_mens");
  const team = check("f-team", "admin.guide.team");
  const boards = number("f-boards", 3, 1, 8);
  const subs = number("f-substitutes", 2, 0, 6);
  const allBoards = check("f-all-boards", "admin.guide.team_play_all", true);
  const teamPart = h("div", { className: "grid", "data-team-settings": true },
    field("admin.guide.boards", boards), field("admin.guide.substitutes", subs), allBoards.el);
  const showTeam = () => { teamPart.hidden = !team.input.checked;
    teamPart.style.display = teamPart.hidden ? "none" : ""; };
  team.input.addEventListener("change", showTeam);
  showTeam();
  const lateField = late.el;
  const ageField = field("admin.guide.age_class", age);
  const box = h("fieldset", { className: "stack", "data-entry": true },
    h("legend", {}, t("admin.guide.entry")),
    h("div", { className: "grid" }, ageField,
      field("admin.guide.event_year", year), field("admin.guide.registration_opens", opens),
      field("admin.guide.registration_closes", closes), field("admin.guide.draw_at", drawAt),
      lateField, women.el, team.el),
    teamPart);
  const apply = (guide) => {
    guide.event_year = Number(year.value);
    const cls = ageField.hidden ? null : ageClass(age.value, guide.event_year, guide.discipline);
    if (cls) guide.age_class = cls;
    if (opens.value && closes.value) guide.registration = { opens: instant(opens), closes: instant(closes) };
    if (drawAt.value) guide.draw_at = instant(drawAt);
    guide.late_entry = SWISS.includes(guide.format) && late.input.checked;
    guide.women_in_mens = !women.el.hidden && women.input.checked;
    if (team.input.checked && !team.el.hidden) {
      guide.teams = { boards: Number(boards.value), substitutes: Number(subs.value),
                      play_all: allBoards.input.checked };
    }
    return guide;
  };
  // No team matches in backgammon (one against one), nor EKML's age classes or women in a
  // men's event (EKML §7, §8(3)): KSI has none of them, so their fields are hidden there.
  const adapt = (format, sport = "korona") => {
    const hide = (el, hidden) => { el.hidden = hidden; el.style.display = hidden ? "none" : ""; };
    hide(lateField, !SWISS.includes(format));
    hide(team.el, sport === "backgammon");
    hide(ageField, sport === "backgammon");
    hide(women.el, sport === "backgammon");
    if (team.el.hidden && team.input.checked) { team.input.checked = false; showTeam(); }
  };
  return { box, apply, adapt };
}
