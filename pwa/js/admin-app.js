// The TD's console (/admin): log in, pick or set up a competition, then run it from the
// desk: entrants, draw and rounds, tables (cards, QR codes, calls), rulings, standings.

import { citation, codeWords, i18n, t } from "/js/i18n.js";
import { request, setToken, getToken, describe, refusalWords, serverFetch } from "/js/api.js";
import { afterPress, h, morph } from "/js/admin-dom.js";
import { Desk } from "/js/admin-state.js";
import { watchWitnesses } from "/js/admin-witness.js";
import { setupView } from "/js/admin-setup.js";
import { entrantsView } from "/js/admin-entrants.js";
import { roundsView } from "/js/admin-rounds.js";
import { tablesView } from "/js/admin-tables.js";
import { rulingsView } from "/js/admin-rulings.js";
import { standingsView } from "/js/admin-standings.js";

const face = document.getElementById("face");
const TABS = [["entrants", entrantsView], ["rounds", roundsView], ["tables", tablesView],
              ["rulings", rulingsView], ["standings", standingsView]];
const app = { role: null, desk: null, tab: "entrants", banner: null, said: 0, witnesses: null };
// The notices (standby, record, witness): the face's first child, so none pushes it (issue 54).
const notices = h("div", { className: "notices", "data-notices": true });

function show(...nodes) {
  face.replaceChildren(notices, ...nodes);
}
// The console redraws in place (morph): the button under the TD's pointer or keyboard focus
// is the same button after the hall's feed redraws it. The views that fill their own nodes
// after a request are rebuilt whole instead (data-kept), and for them a redraw waits while the
// TD's finger is down, so the click lands first.
const redraw = afterPress(face, () => render());
const MORPHED = new Set(["tables"]); // the views whose nodes hold nothing a request fills later

/** A message for the TD: a refusal read as guidance (what stops it, and the rule), another
 *  error as it came, or a plain note. The banner carries the refusal's reason code and a count
 *  of what was said (a new answer is told from the one before it). */
function say(error, kind = "error") {
  const text = typeof error === "string" ? error : guidance(error);
  app.banner.textContent = text;
  app.banner.dataset.kind = kind;
  app.banner.dataset.reason = error?.problem?.reason || "";
  app.banner.dataset.said = String(++app.said);
  app.banner.hidden = !text;
  // A call the hall refused: the hall moved on since the console read it; read it again.
  if (CALL_REFUSALS[error?.problem?.reason]) app.desk?.readHall().then(redraw, () => {});
}

/** A refused call in the console's words (the server's reason code, its English aside). */
const CALL_REFUSALS = {
  table_busy: (p) => t("admin.tables.refused_busy", { table: p.table, players: p.held_by.players,
    where: p.held_by.competition || t("admin.tables.walk_up") }),
  no_free_table: () => t("admin.tables.why_no_table"),
  match_kept: (p) => t("admin.tables.refused_kept", { match: p.match_id, table: p.table }),
  no_free_block: (p) => t("admin.tables.why_no_block", { boards: p.boards }),
  nothing_to_call: () => t("admin.tables.why_players_busy"),
};

function guidance(error) {
  const refusal = CALL_REFUSALS[error?.problem?.reason];
  if (refusal) return refusal(error.problem);
  if (error?.rule && error?.detail) {
    return t("admin.refused", { detail: refusalWords(error), rule: citation(error.rule) });
  }
  return describe(error);
}

/** Run an action, showing its refusal in the banner; true when it went through. */
async function attempt(action) {
  const pressed = document.activeElement; // what the TD pressed (or typed in) to start it
  try {
    await action();
    say("", "ok");
    return true;
  } catch (error) {
    say(error);
    return false;
  } finally {
    // The form is done with: let the page follow the event. Only if the focus is still where
    // the press left it: a TD who turned to another box meanwhile types on in it (a blur then
    // sent the letters nowhere).
    if (document.activeElement === pressed) pressed?.blur?.();
    if (app.desk) redraw(); // the answer may come while the TD presses something else
  }
}

/** The one object every panel is handed (panels never import this entry module): the
 *  competition's desk, the signed-in role, and the banner's actions. */
const ctx = { get desk() { return app.desk; }, role: () => app.role, attempt, say };

async function boot() {
  await i18n.ready;
  app.banner = h("p", { className: "banner", role: "status", hidden: true, "data-banner": true });
  const who = getToken() ? await request("GET", "/api/whoami").catch(() => ({})) : {};
  if (who.role === "head_judge" || who.role === "secretary") app.role = who.role;
  app.witnesses = watchWitnesses(notices, () => app.role);
  // the notices decided (bounded) before the first view is drawn
  await Promise.all([watchStandby(), app.witnesses()]);
  if (app.role) route();
  else login();
  window.addEventListener("hashchange", route);
  i18n.addEventListener("change", () => (app.role ? render() : login()));
}

/** The notices while no standby holds every command (GET /health `replication`, issue 33),
 *  while the record is disputed (`record`, #41) and while the federation refused it as a fork
 *  (`federation`, issue 49), each in the console's language; returns the first look. */
function watchStandby(every = 10_000) {
  const warning = h("p", { className: "banner", role: "alert", hidden: true, "data-kind": "error",
                           "data-replication": true });
  const disputed = h("p", { className: "banner", role: "alert", hidden: true, "data-kind": "error",
                            "data-record": "ok" });
  const forked = h("p", { className: "banner", role: "alert", hidden: true, "data-kind": "error",
                          "data-federation": "ok" });
  notices.append(disputed, forked, warning);
  let said = null;
  let record = null;
  let fork = null;
  const words = () => {
    warning.textContent = said ? t(`admin.replication.${said}`) : "";
    disputed.textContent = record ? t("admin.record.disputed", { why: codeWords(`record.${record.code}`) }) : "";
    forked.textContent = fork ? t("admin.federation.forked", { n: fork.alarm_position }) : "";
  };
  const look = async () => {
    const reply = await serverFetch("/health", { signal: AbortSignal.timeout(4_000) })
      .then((r) => r.json()).catch(() => null);
    const seen = reply?.replication;
    said = !seen || seen.protected ? null : seen.standby_required ? "stopped" : "unprotected";
    record = reply?.record?.state === "disputed" ? reply.record : null;
    words();
    warning.hidden = !said;
    warning.dataset.state = said || "protected";
    disputed.hidden = !record;
    disputed.dataset.record = record ? "disputed" : "ok";
    fork = reply?.federation?.state === "forked" ? reply.federation : null;  // issue 49
    forked.hidden = !fork;
    forked.dataset.federation = fork ? "forked" : "ok";
  };
  i18n.addEventListener("change", words);
  setInterval(look, every);
  return look();
}

function login() {
  const user = h("input", { name: "username", id: "login-user", autocomplete: "username" });
  const pass = h("input", { name: "password", id: "login-pass", type: "password",
                             autocomplete: "current-password" });
  const form = h("form", { className: "stack login", "data-login": true, onsubmit: async (e) => {
    e.preventDefault();
    await attempt(async () => {
      const reply = await request("POST", "/api/login", { username: user.value, password: pass.value });
      setToken(reply.token);
      app.role = reply.role;
      await app.witnesses();
      route();
    });
  } },
  h("h2", {}, t("admin.login.title")),
  h("label", { for: "login-user" }, t("admin.login.user")), user,
  h("label", { for: "login-pass" }, t("admin.login.password")), pass,
  h("button", { type: "submit", className: "primary" }, t("admin.login.submit")));
  show(form, app.banner);
}

function route() {
  const id = new URLSearchParams(location.hash.slice(1)).get("c");
  if (app.desk && app.desk.id !== id) { app.desk.stop(); app.desk = null; }
  if (id && !app.desk) {
    app.desk = new Desk(id).start();
    app.desk.addEventListener("change", redraw);
    app.desk.addEventListener("error", (e) => say(e.detail));
  }
  render();
}

function render() {
  if (!app.desk) {
    show(setupView(ctx), app.banner);
    return;
  }
  const doc = app.desk.doc;
  if (!doc) { show(h("p", {}, t("admin.loading")), app.banner); return; }
  // Under the TD's typing: a held form (data-kept) is the same node after the redraw, and the
  // focus and caret go back into it; any other form would be rebuilt empty, so no redraw then.
  const typing = document.activeElement?.closest?.("[data-keep]") ? document.activeElement : null;
  if (typing && !typing.closest("[data-keep][data-kept]")) return;
  const caret = caretOf(typing);
  const tabs = h("nav", { className: "cluster tabs", "aria-label": t("admin.tabs") },
    TABS.map(([name]) => h("button", { type: "button", "data-tab": name,
      "aria-pressed": String(name === app.tab),
      onclick: () => { app.tab = name; render(); } }, t(`admin.tab.${name}`))));
  const view = TABS.find(([name]) => name === app.tab)[1](ctx, doc);
  if (!MORPHED.has(app.tab)) view.dataset.kept = "";
  const head = h("div", { className: "cluster" },
    h("h2", { className: "grow", "data-competition-name": true }, doc.guide.name),
    h("span", { className: "small" }, t(`admin.format.${doc.guide.format}`)),
    h("a", { href: `/screen?competition=${encodeURIComponent(app.desk.id)}`, className: "button",
             target: "_blank", rel: "noopener", "data-screen-link": true }, t("admin.screen_link")),
    h("a", { href: "#", className: "button", "data-all-competitions": true }, t("admin.back")));
  const desk = [notices, head, tabs, app.banner, view];
  if (face.childNodes[3] === app.banner) morph(face, desk); // the desk drawn before: in place
  else show(...desk.slice(1));
  refocus(typing, caret);
}

/** Where the caret stands in a box (null for a control that has none). */
function caretOf(node) {
  try {
    return node && node.selectionStart != null ? [node.selectionStart, node.selectionEnd, node.selectionDirection] : null;
  } catch {
    return null;
  }
}

/** Give the focus back to a node the redraw moved (moving it took the focus away). */
function refocus(node, caret) {
  if (!node?.isConnected || document.activeElement === node) return;
  node.focus({ preventScroll: true });
  if (caret) node.setSelectionRange(...caret);
}

boot();
