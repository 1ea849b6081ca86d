// One helper for building the faces' DOM: el("button", { i18n: "audit.next", onclick }, …).
// `text` sets the text, `i18n` a translated text (re-labelled on a language change),
// `on<event>` a listener; anything else is an attribute.

import { t } from "/js/i18n.js";

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "text") node.textContent = value;
    else if (key === "i18n") { node.dataset.i18n = value; node.textContent = t(value); }
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

/**
 * Show `root`'s children only once `loaded` has settled (until then, only `placeholder`):
 * the view appears whole instead of growing in steps, so nothing on the screen jumps.
 */
export function revealWhen(root, loaded, placeholder = null) {
  root.dataset.loading = "";
  if (placeholder) root.prepend(placeholder);
  const reveal = () => {
    placeholder?.remove();
    delete root.dataset.loading;
  };
  Promise.resolve(loaded).then(reveal, reveal);
}
