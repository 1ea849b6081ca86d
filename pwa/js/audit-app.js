// The auditor's / jury's face: `/audit` (pick a match) and `/audit/match/<id>` (replay it).
//
// Step through every stored event (first / previous / next / last, a slider, ← → Home End);
// at each step: the derived state, the event in words, the rule cited, who recorded it, from
// which device, when (server and device time); corrections link to what they correct; a
// filter finds penalties, remarks and corrections; "Verify record" answers in one sentence;
// "Compare" puts two points of the record side by side. `#v=<version>` keeps the step.

import { i18n, t } from "/js/i18n.js";
import { describe } from "/js/api.js";
import { audit } from "/js/audit-data.js";
import { el, revealWhen } from "/js/spectator-dom.js";
import { Replay } from "/js/audit-replay.js";
import { finder } from "/js/audit-finder.js";

const main = document.getElementById("face");
function matchIdFromPath() {
  const m = location.pathname.match(/^\/audit\/match\/([^/]+)/);
  return m ? decodeURIComponent(m[1]) : null;
}

function loginForm(then) {
  const error = el("p", { class: "problem", role: "alert", hidden: "" });
  const user = el("input", { name: "username", autocomplete: "username", required: "" });
  const pass = el("input", { name: "password", type: "password", autocomplete: "current-password", required: "" });
  const form = el("form", { class: "stack login", "data-login": "" },
    el("p", { i18n: "audit.login_why" }),
    el("label", { class: "stack" }, el("span", { i18n: "audit.username" }), user),
    el("label", { class: "stack" }, el("span", { i18n: "audit.password" }), pass),
    el("button", { class: "primary", type: "submit", i18n: "audit.login" }), error);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await audit.login(user.value, pass.value);
      then();
    } catch (err) {
      error.hidden = false;
      error.textContent = describe(err);
    }
  });
  return form;
}

function pickMatch(root) {
  const input = el("input", { name: "match", required: "", "aria-describedby": "match-hint",
                              placeholder: "0b7f3c1e-…" });
  const form = el("form", { class: "stack", "data-pick": "" },
    el("label", { class: "stack" }, el("span", { i18n: "audit.match_id" }), input),
    el("p", { id: "match-hint", class: "muted", i18n: "audit.match_hint" }),
    el("button", { class: "primary", type: "submit", i18n: "audit.open" }));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    location.assign(`/audit/match/${encodeURIComponent(input.value.trim())}`);
  });
  const found = finder(root); // find it by table, player, time or text (the usual way)
  root.append(form); // or paste the id from the protocol
  // The rows would push the id form down as they come: the page appears whole with them.
  revealWhen(root, found, el("p", { class: "placeholder", i18n: "audit.loading" }));
}

/** Load the record and build its replay (backgammon's loaded only for a backgammon record);
 *  a lost session goes back to the login. */
async function replay(root, id, restart) {
  const status = el("p", { class: "muted", role: "status", i18n: "audit.loading" });
  root.append(status);
  let record;
  try {
    record = await audit.record(id);
  } catch (error) {
    if (error.status === 401) return restart();
    status.textContent = error.status === 404 || error.status === 400 ? t("audit.no_match", { id }) : describe(error);
    status.dataset.problem = String(error.status);
    return;
  }
  status.remove();
  const bg = record[0]?.type === "BgMatchCreated";
  const Kind = bg ? (await import("/js/audit-bg.js")).BgReplay : Replay;
  new Kind(root, id, record).build();
}

function start() {
  const root = el("section", { class: "stack audit" });
  main.replaceChildren(root);
  main.dataset.faceBuilt = "audit";
  const id = matchIdFromPath();
  if (!audit.loggedIn) {
    root.append(el("h2", { i18n: "audit.login_title" }), loginForm(start));
    return;
  }
  root.append(el("div", { class: "cluster" }, el("span", { class: "grow" }),
    el("button", { type: "button", "data-logout": "", i18n: "audit.logout",
                   onclick: () => { audit.logout(); start(); } })));
  if (!id) pickMatch(root);
  else replay(root, id, start);
}

await i18n.ready;
start();
