// Small DOM helpers for the TD's console: h(tag, attrs, ...children), and a labelled field.

import { t } from "/js/i18n.js";

/** An element: attrs are properties, `on*` listeners, `data-*`/`aria-*` attributes. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key.startsWith("data-") || key.startsWith("aria-") || key === "for" || key === "role")
      el.setAttribute(key, value === true ? "" : value);
    else el[key] = value;
  }
  el.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

/** A label with its control, the label's text a message key. */
export function field(key, control) {
  const id = control.id || (control.id = `f-${key.replace(/\W/g, "-")}`);
  return h("div", { className: "field" }, h("label", { for: id }, t(key)), control);
}

/** A select whose options are [value, message key] pairs. */
export function choice(name, options, value) {
  return h("select", { name, id: `f-${name}` },
    options.map(([v, key]) => h("option", { value: v, selected: v === value }, t(key))));
}

/** A section with a heading (message key). */
export function section(key, ...children) {
  return h("section", { className: "panel stack", "data-section": key },
    h("h2", {}, t(key)), ...children);
}
