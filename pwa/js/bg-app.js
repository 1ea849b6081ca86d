// The backgammon recorder's face: `/backgammon?match=<id>` records a match (KSI), `/backgammon`
// starts a new one. Staff (head judge, secretary) sign in here or on the console: one login.
//
// The board is the server's fold (<bg-board>); every tap becomes one engine command posted at
// the version the face saw (bg-recorder.js); a refusal shows the problem's detail and its KSI
// paragraph. `window.bg` is the recorder, for tests and the curious.

import { i18n, t } from "/js/i18n.js";
import { describe, getToken, request, setToken } from "/js/api.js";
import { h } from "/js/dom.js";
import { Recorder } from "/js/bg-recorder.js";

const face = document.getElementById("face");
const STAFF = ["head_judge", "secretary"];

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

async function start() {
  const who = getToken() ? await request("GET", "/api/whoami").catch(() => ({})) : {};
  if (!STAFF.includes(who.role)) return login();
  const id = new URLSearchParams(location.search).get("match");
  if (!id) return newMatch();
  window.bg = new Recorder(face, id);
  await window.bg.load();
}

await i18n.ready;
face.dataset.faceBuilt = "backgammon";
await start();
i18n.addEventListener("change", () => window.bg?.render());
document.title = `Tableside · ${t("bg.face")}`;
