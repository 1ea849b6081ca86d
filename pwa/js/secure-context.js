// A face outside a secure context says so (issue 40): reached over plain HTTP on the hall
// network, the browser gives it no service worker (no offline shell), no WebCrypto and the
// server refuses its logins and tokens. A banner in the page's language says what does not
// work and leads to the HTTPS address (GET /api/setup names it) and to /setup, where a
// tablet installs the venue's certificate once.
//
//   import { warnIfInsecure } from "/js/secure-context.js";
//   warnIfInsecure();   // nothing in a secure context (HTTPS, or loopback on the laptop)

import { httpsOrigin } from "/js/api.js";
import { h } from "/js/dom.js";
import { i18n, t } from "/js/i18n.js";

function banner(origin) {
  const here = `${location.pathname}${location.search}${location.hash}`;
  return h("div", { class: "insecure-banner", role: "alert", "data-insecure": "true" },
    h("p", {}, t("insecure.banner")),
    h("p", {},
      origin ? h("a", { href: `${origin}${here}`, "data-https": "true" }, t("insecure.open")) : null,
      origin ? " · " : null,
      h("a", { href: "/setup" }, t("insecure.setup"))));
}

/** Show the banner at the top of the page when it is not a secure context. */
export async function warnIfInsecure() {
  if (window.isSecureContext) return;
  const origin = (await httpsOrigin()) || ""; // unknown: the banner still says what fails
  let shown = banner(origin);
  document.body.prepend(shown);
  i18n.addEventListener("change", () => {
    const next = banner(origin);
    shown.replaceWith(next);
    shown = next;
  });
}
