// What every page shell loads: messages and the language picker, and the service worker.
// Faces import the other modules (api, outbox, live, board, sync-badge) themselves.

import { i18n } from "/js/i18n.js";
import { warnIfInsecure } from "/js/secure-context.js";

if ("serviceWorker" in navigator) {
  // At the root scope, so one worker serves every face (the server sends /sw.js from "/").
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((error) => {
    console.warn("service worker not registered:", error);
  });
}

await i18n.ready;
await warnIfInsecure(); // outside a secure context: a banner, before the page counts as ready
document.documentElement.dataset.ready = "true";
