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

import { t } from "/js/i18n.js";

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
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
  if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
  else if (key === "class" || key === "className") node.className = value;
  else if (key === "text" || key === "textContent") node.textContent = value;
  else if (key === "i18n") {
    node.dataset.i18n = value;
    node.textContent = t(value);
  } else if (key === "dataset") Object.assign(node.dataset, value);
  else node.setAttribute(key, value === true ? "" : String(value));
}
