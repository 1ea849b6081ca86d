// The console's tablets (issue 40): on a server that speaks HTTPS, the setup page's QR code
// (a tablet trusts the venue CA once, /setup), the CA's fingerprint to compare, and the
// addresses connected now (their pages came over HTTPS: a page in clear gets no live feed).
// Nothing on a plain loopback server (the demo's console says a tablet cannot reach it).

import { request } from "/js/api.js";
import { h, section } from "/js/admin-dom.js";
import { t } from "/js/i18n.js";

function connected(now) {
  if (!now.tablets.length) return h("p", { className: "small", "data-tablets": 0 }, t("admin.tablets.none"));
  return h("div", { className: "stack" },
    h("p", {}, t("admin.tablets.connected")),
    h("ul", { "data-tablets": now.tablets.length },
      now.tablets.map((d) => h("li", { "data-address": d.address },
        t("admin.tablets.address", { address: d.address, count: d.sockets })))));
}

async function fill(box) {
  const setup = await request("GET", "/api/setup");
  if (!setup.https_origin) return box.replaceChildren();
  const now = await request("GET", "/api/setup/tablets");
  box.replaceChildren(section("admin.tablets",
    // a lost CA key made a new CA: no tablet trusts it yet (issue 52)
    setup.ca_replaced ? h("p", { className: "qr-warning", role: "alert", "data-new-ca": true },
      t("admin.tablets.new_ca", { fingerprint: setup.ca_fingerprint })) : null,
    setup.setup_qr_svg ? h("p", {}, t("admin.tablets.scan")) : null,
    setup.setup_qr_svg ? h("img", { src: setup.setup_qr_svg, alt: setup.setup_url, "data-setup-qr": true }) : null,
    setup.setup_url ? h("p", {}, h("code", {}, setup.setup_url)) : null,
    setup.ca_fingerprint ? h("p", { className: "small" }, `${t("admin.tablets.fingerprint")}: `,
      h("code", { "data-fingerprint": true }, setup.ca_fingerprint)) : null,
    connected(now),
    h("button", { type: "button", onclick: () => fill(box).catch(() => {}) }, t("admin.tablets.refresh"))));
}

/** The tablets' section, filled after its requests (empty until then, or on a plain server). */
export function tabletsView() {
  const box = h("div", { "data-tablets-view": true });
  fill(box).catch(() => {}); // an older server, or none: no section; the page can be reloaded
  return box;
}
