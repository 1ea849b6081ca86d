// One polite live region per page, for what a screen reader should hear as it happens:
//
//   import { say } from "/js/announce.js";
//   say("Table 3: Mari Tamm 2, Jaan Kask 1, playing");
//
// The region (a visually hidden role=status) is put in the page when this module loads, so it
// is there, empty, before the first message: screen readers only announce a change to a
// region they already know. A repeat of the same words is announced again.

import { i18n } from "/js/i18n.js";

const region = document.createElement("p");
region.className = "visually-hidden";
region.setAttribute("role", "status");
region.setAttribute("aria-atomic", "true");
region.dataset.announce = "";
document.body.append(region);

let timer = null;

// What was said stays in the region; in another language it would be read out in the old one.
i18n.addEventListener("change", () => { clearTimeout(timer); region.textContent = ""; });

/** Announce `text` politely (after what the reader is saying now). */
export function say(text) {
  clearTimeout(timer);
  region.textContent = "";
  timer = setTimeout(() => { region.textContent = text; }, 50);
}
