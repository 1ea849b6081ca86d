// The one DOM builder of every face: h("button", { class: "primary", onclick }, "Text").
//
// Attributes: null, undefined and false are left out; true is an empty attribute.
//   class / className  the class list
//   text               the text content
//   i18n               a message key: translated now, re-labelled on a language change
//   dataset            an object of data-* values
//   on<event>          a listener
//   anything else      an attribute (data-*, aria-*, for, role, type, value, …)
// Children: arrays are flattened; null, undefined and false are skipped; anything that is not
// a Node becomes text.
//
// morph(parent, nodes) redraws `parent` as `nodes` (just built with h) while keeping every node
// that is still the same kind in the same place: a button under the judge's thumb when the
// feed redraws the face is the same button after, so the tap still clicks. A node its face
// keeps itself and hands back on every draw (marked data-kept: a sheet holding what the user
// opened and typed), or a part that fills its own nodes after a request (marked data-kept as
// it is built), is that node or another, never brought up to date from or into another.
//
// afterPress(root, render) is `render` held while a pointer is pressed inside `root` (at most
// PRESS_MS), then run once: for a face whose views cannot be morphed (they fill their own
// nodes after a request), a redraw waits until the click under the finger has landed.

import { t } from "/js/i18n.js";

const MADE = new WeakMap(); // node made by h → its listeners { event: function }

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  MADE.set(node, {});
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    setOne(node, key, value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function setOne(node, key, value) {
  if (key.startsWith("on") && typeof value === "function") {
    node.addEventListener(key.slice(2), value);
    MADE.get(node)[key.slice(2)] = value;
  }
  else if (key === "class" || key === "className") node.className = value;
  else if (key === "text" || key === "textContent") node.textContent = value;
  else if (key === "i18n") {
    node.dataset.i18n = value;
    node.textContent = t(value);
  } else if (key === "dataset") Object.assign(node.dataset, value);
  else node.setAttribute(key, value === true ? "" : String(value));
}

const PRESS_MS = 2000;

export function afterPress(root, render) {
  let pressed = null, owed = false;
  const run = () => {
    if (pressed) owed = true;
    else render();
  };
  const release = () => {
    if (!pressed) return;
    clearTimeout(pressed);
    pressed = null;
    if (owed) { owed = false; setTimeout(run, 0); } // after this press's click
  };
  root.addEventListener("pointerdown", () => {
    clearTimeout(pressed);
    pressed = setTimeout(release, PRESS_MS); // a release the page never saw
  }, true);
  for (const type of ["pointerup", "pointercancel"]) window.addEventListener(type, release, true);
  return run;
}

/** Make `parent`'s children `nodes`, position by position: a node of the same kind as the
 *  one drawn there (both made by h, same tag and KEYS; no custom element, whose state is in
 *  properties; not data-kept) is kept and brought up to date — attributes (but a <details>
 *  the user opened stays open), listeners, children — anything else is replaced. */
export function morph(parent, nodes) {
  nodes.forEach((node, i) => {
    const drawn = parent.childNodes[i];
    if (drawn === node) return; // a node the caller keeps (a board element, a banner)
    if (!drawn) parent.append(node);
    else if (drawn.nodeType === Node.TEXT_NODE && node.nodeType === Node.TEXT_NODE) {
      if (drawn.data !== node.data) drawn.data = node.data;
    } else if (sameKind(drawn, node)) update(drawn, node);
    else drawn.replaceWith(node);
  });
  while (parent.childNodes.length > nodes.length) parent.lastChild.remove();
}

const KEYS = ["id", "data-act", "data-value", "data-panel", "data-action", "data-die"];

function sameKind(a, b) {
  return MADE.has(a) && MADE.has(b) && a.tagName === b.tagName && !a.tagName.includes("-")
    && !a.hasAttribute("data-kept") && !b.hasAttribute("data-kept")
    && KEYS.every((k) => a.getAttribute(k) === b.getAttribute(k));
}

// What the user set on a node and a fresh draw knows nothing of: a <details> opened by a tap.
const USERS = new Set(["open"]);

function update(drawn, node) {
  for (const { name } of [...drawn.attributes]) {
    if (!node.hasAttribute(name) && !USERS.has(name)) drawn.removeAttribute(name);
  }
  for (const { name, value } of node.attributes) {
    if (drawn.getAttribute(name) !== value) drawn.setAttribute(name, value);
  }
  if ("value" in node && drawn !== document.activeElement && drawn.value !== node.value) drawn.value = node.value;
  const old = MADE.get(drawn), fresh = MADE.get(node);
  for (const [event, listener] of Object.entries(old)) drawn.removeEventListener(event, listener);
  for (const [event, listener] of Object.entries(fresh)) drawn.addEventListener(event, listener);
  MADE.set(drawn, fresh);
  morph(drawn, [...node.childNodes]);
}
