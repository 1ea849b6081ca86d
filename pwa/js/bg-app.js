// The backgammon recorder's face: `/backgammon?match=<id>` records a match (KSI), `/backgammon`
// starts a new one. Staff (head judge, secretary) sign in here or on the console: one login.
// A table's device (`/backgammon?table=N[&match=<id>]`, where the table's judge link leads when
// a backgammon match is called to it) records its table's match with the link's token: the
// players or the monitor at the board; what only the TD records is not offered there.
//
// The board is the server's fold (<bg-board>); every tap becomes one engine command posted at
// the version the face saw (bg-recorder.js); a refusal shows the problem's detail and its KSI
// paragraph. `window.bg` is the recorder, for tests and the curious.

import { i18n, t } from "/js/i18n.js";
import { describe, getToken, request, setToken, tokenFromLink } from "/js/api.js";
import { h } from "/js/dom.js";
import { Recorder } from "/js/bg-recorder.js";
import { Outbox, chainVersions } from "/js/outbox.js";
import "/js/sync-badge.js";

const face = document.getElementById("face");
const STAFF = ["head_judge", "secretary"];
const params = new URLSearchParams(location.search);
const tableParam = Number(params.get("table")) || null;
if (tableParam) tokenFromLink(); // the table's device records with its judge link's token

function field(key, input) {
  return h("label", { class: "stack" }, h("span", { i18n: key }), input);
}

function problemLine() {
  return h("p", { class: "problem", role: "alert", hidden: true, "data-problem": "" });
}

async function attempt(line, work) {
  try {
    await work();
  } catch (error) {
    line.hidden = false;
    line.textContent = describe(error);
  }
}

function login() {
  const user = h("input", { name: "username", id: "bg-user", autocomplete: "username", required: true });
  const pass = h("input", { name: "password", id: "bg-pass", type: "password",
                            autocomplete: "current-password", required: true });
  const error = problemLine();
  const form = h("form", { class: "stack login", "data-login": "", onsubmit: (e) => {
    e.preventDefault();
    attempt(error, async () => {
      const reply = await request("POST", "/api/login", { username: user.value, password: pass.value });
      setToken(reply.token);
      start();
    });
  } },
  h("h2", { i18n: "bg.login.title" }), h("p", { i18n: "bg.login.why" }),
  h("p", { class: "hint", i18n: "bg.login.table" }),
  field("bg.login.user", user), field("bg.login.password", pass),
  h("button", { type: "submit", class: "primary", i18n: "bg.login.submit" }), error);
  face.replaceChildren(form);
}

function newMatch() {
  const input = (name, attrs = {}) => h("input", { name, id: `bg-${name}`, required: true, ...attrs });
  const a = input("player_a", { maxlength: 80 });
  const b = input("player_b", { maxlength: 80 });
  const length = input("length", { type: "number", min: 1, max: 99, value: 7, inputmode: "numeric" });
  const clock = h("input", { name: "clock", id: "bg-clock", type: "checkbox" });
  const error = problemLine();
  const form = h("form", { class: "stack", "data-new-match": "", onsubmit: (e) => {
    e.preventDefault();
    attempt(error, async () => {
      const reply = await request("POST", "/api/backgammon/matches", {
        command_id: crypto.randomUUID(), player_a: a.value.trim(), player_b: b.value.trim(),
        length: Number(length.value), clock: clock.checked });
      location.assign(`/backgammon?match=${reply.match_id}`);
    });
  } },
  h("h2", { i18n: "bg.new.title" }), field("bg.new.player_a", a), field("bg.new.player_b", b),
  field("bg.new.length", length),
  h("label", { class: "cluster" }, clock, h("span", { i18n: "bg.new.clock" })),
  h("button", { type: "submit", class: "primary", i18n: "bg.new.create" }), error);
  face.replaceChildren(form);
}

const ROLE_KEY = "tableside.bg.role";

/** Who is signed in; without wifi, the role this device last saw (the token is still kept). */
async function whoAmI() {
  if (!getToken()) return {};
  try {
    const who = await request("GET", "/api/whoami");
    localStorage.setItem(ROLE_KEY, who.role || "");
    return who;
  } catch (error) {
    return error.status === 0 ? { role: localStorage.getItem(ROLE_KEY) } : {};
  }
}

async function start() {
  const who = await whoAmI();
  const id = params.get("match");
  if (who.role === "table_judge") return tableDevice(who.table || tableParam, id);
  if (!STAFF.includes(who.role)) return login();
  if (!id) return newMatch();
  await record(id, {});
}

async function record(id, device) {
  // The one outbox (the judge face's): entries survive a reload and are sent once each.
  const outbox = new Outbox({ beforeSend: chainVersions });
  document.querySelector("sync-badge").outbox = outbox;
  window.bg = new Recorder(face, id, outbox, device);
  await window.bg.load();
  outbox.start();
}

/** The table's device: its table's match, or the table's own face when none is played there. */
async function tableDevice(table, id) {
  if (id) return record(id, { table, device: true });
  try {
    const found = await request("GET", `/api/backgammon/tables/${table}`);
    location.replace(`/backgammon?table=${table}&match=${found.match_id}`);
  } catch (error) {
    const back = h("a", { class: "button", href: `/judge?table=${table}`, "data-back-to-table": "" },
                   t("bg.table.back", { table }));
    face.replaceChildren(h("section", { class: "stack", "data-no-table-match": "" },
      h("h2", {}, t("bg.table.title", { table })),
      h("p", {}, error.status === 404 ? t("bg.table.none", { table }) : describe(error)), back));
  }
}

await i18n.ready;
face.dataset.faceBuilt = "backgammon";
await start();
i18n.addEventListener("change", () => window.bg?.render());
document.title = `Tableside · ${t("bg.face")}`;
