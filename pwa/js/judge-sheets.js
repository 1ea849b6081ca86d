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
    // A tap outside the sheet (on the dimmed page) closes it, as Cancel does.
    dialog.addEventListener("click", (e) => {
      const r = dialog.getBoundingClientRect();
      const inside = e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom;
      if (e.target === dialog && !inside) done(null);
    });
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

const SEARCH_FROM = 9; // a longer list gets a search box
const TOP = 3; // the most used items, first

/** Choose one of `items` ({value, label, note, group}); resolves with the value or null.
 *  `used`: a key under which the choices are counted, so the three most used come first;
 *  items with a `group` are listed under its heading (a message key). Cancel stays in view. */
export function pick(title, items, { columns = 1, text = "", used = "" } = {}) {
  return sheet(title, (dialog, done) => {
    if (text) {
      const p = document.createElement("p");
      p.textContent = text;
      dialog.append(p);
    }
    const choose = (value) => { count(used, value); done(value); };
    const body = document.createElement("div");
    body.className = "sheet-body";
    const lists = sections(items, used).map(([group, rows]) => list(group, rows, columns, choose));
    if (items.length >= SEARCH_FROM) body.append(search(lists));
    body.append(...lists);
    const cancel = button(t("judge.cancel"), { className: "cancel" });
    cancel.addEventListener("click", () => done(null));
    dialog.append(body, cancel);
  });
}

/** [group key, items] in order: the most used (when counted) first, then each group. */
function sections(items, used) {
  const counts = used ? counted(used) : {};
  const top = Object.entries(counts).sort((a, b) => b[1] - a[1]).map(([v]) => v)
    .filter((v) => items.some((i) => i.value === v)).slice(0, TOP);
  const out = top.length ? [["judge.group.most_used", top.map((v) => items.find((i) => i.value === v))]] : [];
  const rest = items.filter((i) => !top.includes(i.value));
  for (const item of rest) {
    const group = item.group || "";
    const last = out.at(-1);
    if (last && last[0] === group) last[1].push(item);
    else out.push([group, [item]]);
  }
  return out;
}

function list(group, rows, columns, choose) {
  const box = document.createElement("section");
  box.className = "sheet-group";
  if (group) {
    const h = document.createElement("h3");
    h.textContent = t(group);
    box.append(h);
  }
  const grid = document.createElement("div");
  grid.className = `choices cols-${columns}`;
  for (const item of rows) {
    const b = button(item.label, { note: item.note, value: item.value, className: item.className });
    b.dataset.words = `${item.label} ${item.note || ""}`.toLowerCase();
    b.addEventListener("click", () => choose(item.value));
    grid.append(b);
  }
  box.append(grid);
  return box;
}

/** A search box that hides the items (and emptied groups) not matching what is typed. */
function search(lists) {
  const input = document.createElement("input");
  input.type = "search";
  input.className = "sheet-search";
  input.setAttribute("aria-label", t("judge.search"));
  input.placeholder = t("judge.search");
  input.addEventListener("input", () => {
    const q = input.value.trim().toLowerCase();
    for (const box of lists) {
      let shown = 0;
      for (const b of box.querySelectorAll("button")) {
        b.hidden = Boolean(q) && !b.dataset.words.includes(q);
        shown += b.hidden ? 0 : 1;
      }
      box.hidden = shown === 0;
    }
  });
  return input;
}

function counted(key) {
  try { return JSON.parse(localStorage.getItem(`tableside.judge.used.${key}`) || "{}"); } catch { return {}; }
}

function count(key, value) {
  if (!key || value == null) return;
  const counts = counted(key);
  counts[value] = (counts[value] || 0) + 1;
  try { localStorage.setItem(`tableside.judge.used.${key}`, JSON.stringify(counts)); } catch { /* memory */ }
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

/** A staff sign-in on the sheet (the head judge confirming at the table): resolves with
 *  { username, password } or null when cancelled. Nothing typed is kept. */
export function signIn(title, text) {
  return sheet(title, (dialog, done) => {
    dialog.dataset.signIn = "";
    const form = document.createElement("form");
    const p = document.createElement("p");
    p.textContent = text;
    const field = (name, type, label, autocomplete) => {
      const input = Object.assign(document.createElement("input"), { name, type, required: true, autocomplete });
      const l = document.createElement("label");
      l.append(label, input);
      return l;
    };
    const row = document.createElement("div");
    row.className = "choices cols-2";
    const no = button(t("judge.cancel"), { className: "cancel" });
    const ok = button(t("judge.head_judge_confirm"), { className: "primary", value: "yes" });
    ok.type = "submit";
    no.addEventListener("click", () => done(null));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      done({ username: form.elements.username.value, password: form.elements.password.value });
    });
    row.append(no, ok);
    form.append(p, field("username", "text", t("judge.head_judge_name"), "username"),
                field("password", "password", t("judge.head_judge_password"), "current-password"), row);
    dialog.append(form);
  });
}
