// Modal sheets for the judge: pick one of a list, or confirm. Big buttons, no hover, and
// always a Cancel at the bottom where the thumb is. Each returns a promise of the choice
// (null when cancelled), so the app reads like the judge's steps.
//
//   const code = await pick(t("judge.foul"), [{ value: "double_hit", label, note: "EKML §24(1)9" }]);
//   if (await confirm(t("judge.undo_title"), text)) …

import { t } from "/js/i18n.js";

let open = null; // one sheet at a time: a new one cancels the old

function sheet(title, build) {
  open?.close();
  const dialog = document.createElement("dialog");
  dialog.className = "sheet";
  const heading = document.createElement("h2");
  heading.textContent = title;
  dialog.append(heading);
  return new Promise((resolve) => {
    const done = (value) => {
      dialog.onclose = null;
      if (dialog.open) dialog.close();
      dialog.remove();
      if (open === dialog) open = null;
      resolve(value);
    };
    build(dialog, done);
    dialog.onclose = () => done(null);
    document.body.append(dialog);
    open = dialog;
    dialog.showModal();
  });
}

function button(label, { note = "", className = "", value } = {}) {
  const b = document.createElement("button");
  b.type = "button";
  if (className) b.className = className;
  if (value !== undefined) b.dataset.value = String(value);
  const main = document.createElement("span");
  main.textContent = label;
  b.append(main);
  if (note) {
    const small = document.createElement("small");
    small.className = "rule";
    small.textContent = note;
    b.append(small);
  }
  return b;
}

/** Choose one of `items` ({value, label, note}); resolves with the value or null. */
export function pick(title, items, { columns = 1, text = "" } = {}) {
  return sheet(title, (dialog, done) => {
    if (text) {
      const p = document.createElement("p");
      p.textContent = text;
      dialog.append(p);
    }
    const list = document.createElement("div");
    list.className = `choices cols-${columns}`;
    for (const item of items) {
      const b = button(item.label, { note: item.note, value: item.value, className: item.className });
      b.addEventListener("click", () => done(item.value));
      list.append(b);
    }
    const cancel = button(t("judge.cancel"), { className: "cancel" });
    cancel.addEventListener("click", () => done(null));
    dialog.append(list, cancel);
  });
}

/** Ask before what cannot be taken back; resolves true or false. */
export function confirm(title, text, { yes = t("judge.confirm"), extra = null, tag = "" } = {}) {
  return sheet(title, (dialog, done) => {
    if (tag) dialog.dataset.guard = tag;
    const p = document.createElement("p");
    p.textContent = text;
    dialog.append(p);
    if (extra) dialog.append(extra);
    const row = document.createElement("div");
    row.className = "choices cols-2";
    const no = button(t("judge.cancel"), { className: "cancel" });
    const ok = button(yes, { className: "primary", value: "yes" });
    no.addEventListener("click", () => done(false));
    ok.addEventListener("click", () => done(true));
    row.append(no, ok);
    dialog.append(row);
  }).then((answer) => answer === true);
}
