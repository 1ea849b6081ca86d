// <sync-badge>: "Synced" / "Queued 3" / "Offline · 3 queued", always visible, never blocking.
//
//   import "/js/sync-badge.js";
//   document.querySelector("sync-badge").outbox = outbox;   // an Outbox from outbox.js
//
// The state is also on the element as data-state (synced|queued|offline|blocked) for styling.

import { i18n, t } from "/js/i18n.js";

class SyncBadge extends HTMLElement {
  constructor() {
    super();
    this.update = () => this.render();
  }

  connectedCallback() {
    this.setAttribute("role", "status"); // read out when it changes, without stealing focus
    for (const name of ["online", "offline"]) addEventListener(name, this.update);
    i18n.addEventListener("change", this.update);
    this.render();
  }

  disconnectedCallback() {
    for (const name of ["online", "offline"]) removeEventListener(name, this.update);
    i18n.removeEventListener("change", this.update);
    this._outbox?.removeEventListener("change", this.update);
  }

  set outbox(outbox) {
    this._outbox?.removeEventListener("change", this.update);
    this._outbox = outbox;
    outbox.addEventListener("change", this.update);
    this.render();
  }

  get outbox() { return this._outbox; }

  render() {
    const count = this._outbox?.queued ?? 0;
    let state = count ? "queued" : "synced";
    if (!navigator.onLine) state = "offline";
    if (this._outbox?.held) state = "blocked";
    const text = { synced: t("sync.synced"), queued: t("sync.queued", { count }),
                   offline: t("sync.offline", { count }), blocked: t("sync.blocked", { count }) };
    this.dataset.state = state;
    this.dataset.count = String(count);
    this.textContent = text[state];
  }
}

customElements.define("sync-badge", SyncBadge);
