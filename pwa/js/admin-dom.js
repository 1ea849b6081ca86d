// The TD's console's small DOM helpers (a labelled field, a choice, a section), built with
// the one DOM builder, h, re-exported here for the panels (and afterPress and morph for the
// console).

import { i18n, t } from "/js/i18n.js";
import { afterPress, h, morph } from "/js/dom.js";

export { afterPress, h, morph };

/** A label with its control, the label's text a message key. */
export function field(key, control) {
  control.id ||= `f-${key.replace(/\W/g, "-")}`;
  const id = control.id;
  return h("div", { className: "field" }, h("label", { for: id }, t(key)), control);
}

/** A select whose options are [value, message key] pairs. */
export function choice(name, options, value) {
  return h("select", { name, id: `f-${name}` },
    options.map(([v, key]) => h("option", { value: v, selected: v === value }, t(key))));
}

const HELD = new Map(); // a form's name (with its competition's id) → { key, node }

/** A form that keeps what the TD typed through the hall's redraws: the same node while what
 *  it offers (`key`: its choices, the language) stays the same; when that changes, a fresh one
 *  with the values typed into the old (a choice that is still offered stays chosen). Marked
 *  data-kept: a redraw moves it, never rebuilds it. */
export function held(name, key, build) {
  const was = HELD.get(name);
  const wanted = JSON.stringify([key, i18n.lang]);
  if (was?.key === wanted) return was.node;
  const node = build();
  node.dataset.kept = "";
  if (was) carry(was.node, node);
  HELD.set(name, { key: wanted, node });
  return node;
}

/** Send what a held form says: the banner tells how it went (ctx.attempt), and the form
 *  empties once it went through (a held form would otherwise keep it for the next one). */
export async function submit(ctx, event, action) {
  event.preventDefault();
  const form = event.currentTarget;
  if (await ctx.attempt(action)) form.reset();
}

function carry(from, to) {
  for (const old of from.querySelectorAll("input[id], textarea[id], select[id]")) {
    const twin = to.querySelector(`#${CSS.escape(old.id)}`);
    if (!twin || old.type === "file") continue;
    if (old.type === "checkbox" || old.type === "radio") twin.checked = old.checked;
    else if (twin.tagName !== "SELECT" || [...twin.options].some((o) => o.value === old.value)) {
      twin.value = old.value;
    }
  }
}

/** A section with a heading (message key). */
export function section(key, ...children) {
  return h("section", { className: "panel stack", "data-section": key },
    h("h2", {}, t(key)), ...children);
}

/** Ask before an act that cannot be taken back (a withdrawal, publishing): a modal dialog
 *  saying what will follow, Cancel first and the act named on its own button
 *  (`data-confirm=<name>`); `act` runs only on that press. */
export function confirmAct(name, title, explain, label, act) {
  const dialog = h("dialog", { "data-confirm-dialog": name, "aria-labelledby": `confirm-${name}` },
    h("h2", { id: `confirm-${name}` }, title), h("p", {}, explain),
    h("div", { className: "cluster" },
      h("button", { type: "button", "data-cancel": name, onclick: () => dialog.remove() }, t("admin.cancel")),
      h("button", { type: "button", className: "primary", "data-confirm": name,
        onclick: () => { dialog.remove(); act(); } }, label)));
  document.body.append(dialog);
  dialog.showModal();
}
