// What waits on this device, under the pad: the queued entries in words, or — when another
// device recorded meanwhile (a 409 holds the outbox) — what it recorded beside what waits here,
// and the recorder's choice: send his after theirs, or discard them. Never dropped unsaid.
//
//   syncPanel(rec)   null when nothing waits

import { t } from "/js/i18n.js";
import { h } from "/js/dom.js";
import { commandText } from "/js/bg-offline.js";

function list(lines, attr) {
  return h("ol", { class: "bg-queue" }, lines.map((line) => h("li", { [attr]: "" }, line)));
}

function conflict(rec) {
  const { changes, mine } = rec.held;
  return h("section", { class: "stack bg-pad bg-conflict", role: "alert", "data-conflict": "" },
    h("h2", { class: "pad-title" }, t("bg.sync.conflict_title")),
    h("p", { class: "hint" }, t("bg.sync.theirs")),
    changes.length ? list(changes, "data-theirs") : h("p", {}, t("bg.sync.theirs_unknown")),
    h("p", { class: "hint" }, t("bg.sync.mine", { count: mine.length })),
    list(mine, "data-mine"),
    h("div", { class: "cluster" },
      h("button", { type: "button", class: "primary big", "data-action": "send-mine",
                    onclick: () => rec.sendMine() }, t("bg.sync.send_mine")),
      h("button", { type: "button", class: "big danger", "data-action": "discard-mine",
                    onclick: () => rec.discardMine() }, t("bg.sync.discard_mine", { count: mine.length }))));
}

export function syncPanel(rec) {
  if (rec.held) return conflict(rec);
  if (!rec.pending.length) return null;
  return h("section", { class: "stack bg-waiting", "data-pending-list": "" },
    h("h2", { class: "pad-title" }, t("bg.sync.pending", { count: rec.pending.length })),
    list(rec.pending.map((e) => commandText(e.body.command, rec.names)), "data-pending-entry"));
}
