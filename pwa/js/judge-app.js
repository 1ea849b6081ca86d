// The table judge's face (/judge?table=N#token=tj_…, what the table's QR code opens).
// A backgammon match called to the table takes the device to its recorder (/backgammon?table=N).
//
// The board comes from the live feed of the table (snapshot, then deltas); every tap becomes
// a command in the IndexedDB outbox, sent in order with its command_id and chained
// expected_version. While commands wait (wifi down), the board shows what they will probably
// do (judge-model.js predict) and marks itself so; the server's documents replace that as
// they arrive. A 409 holds the queue and shows what the other device recorded.
//
// Everything the face keeps is in one object, `ctx`, handed to its parts (judge-actions.js,
// judge-pickers.js), which never import this entry module: the state the view draws, the
// outbox and the feed, the taps in flight, the pending timers, and the face's services.

import { i18n, t } from "/js/i18n.js";
import { entryLines, sideNames } from "/js/spectator-words.js";
import { request, tokenFromLink, ApiError, describe } from "/js/api.js";
import { Outbox, chainVersions } from "/js/outbox.js";
import { LiveFeed } from "/js/live.js";
import "/js/sync-badge.js";
import { h, morph } from "/js/judge-dom.js";
import { predictAll, bannerFor, sidesOf, describeEntry } from "/js/judge-model.js";
import { view } from "/js/judge-view.js";
import { ACTIONS } from "/js/judge-actions.js";
import { confirm } from "/js/judge-sheets.js";

const BANNER_MS = 3500;
const CATCH_UP_MS = 1000; // the feed's lag past a reply before the document is read instead
const main = document.getElementById("face");

/** The face's one object (see the top of this file); `window.judge` once the face starts. */
const ctx = {
  state: {
    table: null, doc: null, shown: null, loading: true, problem: null,
    pending: [], answered: [], held: null, judge: null, catalogue: null, banner: null, clock: null,
    gameOver: null, lastGameEnd: null, judgeName: localStorage.getItem("tableside.judge.name") || "",
    knownVersion: 0, working: 0, armed: {},
  },
  outbox: null,
  feed: null,
  sent: new Set(), // the outbox entries the server has answered (by seq)
  // A second identical tap this soon is far more likely a bounce of the thumb than a second
  // stroke (a stroke takes seconds): it asks before recording again (issue 14 point 2).
  lastTap: { key: "", at: 0 },
  sending: Promise.resolve(), // taps queue one after another: each sees the one before
  timers: { banner: 0, catchUp: 0, judgeState: 0 },
  send, render, flash, loadJudgeState, wasSent, confirmKey,
};
const { state } = ctx;

const docKey = () => `tableside.judge.doc.${state.table}`;
const commandsUrl = (doc) => `/api/matches/${doc.match_id}/commands`;

/** "Table 4", or "Table 4 · board 2" when the table plays a team match's board (EKML §29(2)). */
function tableTitle() {
  const board = state.doc?.board;
  if (board) return t("judge.title_table_board", { table: state.table, board });
  return t("judge.title_table", { table: state.table });
}

/** Draw the face again from `state` (cheap: a few dozen elements). */
function render() {
  state.shown = state.doc ? shown(state.doc) : null;
  state.gameOver = gameOverShown();
  const active = document.activeElement?.id;
  morph(main, view(state, act)); // keeps what did not change: nothing moves under a thumb
  main.dataset.version = String(state.doc?.version ?? ""); // the version drawn (tests wait on it)
  if (active) document.getElementById(active)?.focus();
  const title = document.querySelector("[data-table-title]");
  if (title && state.table) title.textContent = tableTitle();
  document.body.dataset.phase = main.querySelector("[data-panel]")?.dataset.panel || "none";
  placeBanner();
  if (ctx.feed) liveState(ctx.feed.state); // a match just signed stops reading "Live"
}

/** Where the side rows stand above the board (a tablet, a laptop), the banner floats just
 *  under them, over the board drawing: who has the turn, the pucks, debts and remarks stay in
 *  view while it says what was decided (issue 35 point 4). A phone has no room beside them:
 *  there the banner takes the larger free band of the screen that holds no control of the
 *  panel (above the pad, under the judge bar; or below the panel), so it never covers a
 *  button the next tap needs (issue 43 point 5, decision 0147). */
function placeBanner() {
  const banner = main.querySelector("[data-banner]");
  const sides = main.querySelector(".glance .sides");
  if (!banner || !sides) return;
  const wide = window.matchMedia("(min-width: 700px)").matches;
  const px = (n) => `${Math.round(n)}px`;
  if (!wide) {
    const [top, bottom] = freeBand();
    Object.assign(banner.style, { top: px(top), bottom: "auto", left: "", right: "",
                                  maxHeight: px(Math.max(bottom - top, 0)) });
    return;
  }
  const glance = sides.closest(".glance").getBoundingClientRect();
  Object.assign(banner.style, { top: px(sides.getBoundingClientRect().bottom + 4), bottom: "",
    left: px(glance.left), // the glance's column only, never over the pad
    right: px(document.documentElement.clientWidth - glance.right), maxHeight: "" });
}

/** The larger band of the viewport (top, bottom) clear of the judge bar and of the panel's
 *  controls: above the panel's first control (a heading or a result the banner repeats may
 *  lie under it: the compact match-over panel of issue 54), or below the panel. */
function freeBand() {
  const gap = 4;
  const bar = document.querySelector(".judge-bar")?.getBoundingClientRect();
  const box = main.querySelector("[data-panel]");
  const panel = box?.getBoundingClientRect();
  const first = Math.max(bar ? bar.bottom : 0, 0) + gap;
  if (!panel) return [first, window.innerHeight - gap];
  const control = box.querySelector("button, input, label, select, a[href]")?.getBoundingClientRect();
  const above = [first, (control ? Math.max(control.top, panel.top) : panel.top) - gap];
  const below = [Math.max(panel.bottom, first) + gap, window.innerHeight - gap];
  return above[1] - above[0] >= below[1] - below[0] ? above : below;
}

/** The board as the judge expects it: the server's document, then what the server has
 *  answered but the feed has not brought yet (slow wifi, a busy hall: without it the face went
 *  back a stroke and the next tap was the same player's again), then what waits in the outbox. */
function shown(doc) {
  state.answered = state.answered.filter((a) => a.match_id === doc.match_id && a.version > doc.version);
  const waiting = state.pending.filter((e) => !state.answered.some((a) => a.seq === e.seq));
  return predictAll(doc, [...state.answered, ...waiting.map((e) => e.body)].map((b) => b.command));
}

/** The game-end panel waits for the judge until the next game's first stroke. */
function gameOverShown() {
  const doc = state.shown;
  const g = doc?.game;
  if (!g || doc.status !== "playing" || g.started || g.strokes || !doc.games_played) return null;
  if (localStorage.getItem(confirmKey(doc)) === "1") return null;
  const ended = state.lastGameEnd?.match_id === doc.match_id ? state.lastGameEnd : null;
  return { game_no: ended?.game_no ?? doc.games_played, name: ended?.name, rule: ended?.rule,
           reason: ended?.reason };
}

function confirmKey(doc) { return `tableside.judge.next.${doc.match_id}.${doc.game.game_no}`; }

function act(name, value) {
  const action = ACTIONS[name];
  if (!action) return;
  state.working += 1; // until the tap is in the outbox (tests wait on it, too)
  Promise.resolve(guarded(name, value)).then((go) => go && action(ctx, value))
    .catch((error) => flash([describe(error)], "bad"))
    .finally(() => { state.working -= 1; });
}

const GUARD_MS = 600; // a second identical tap within this asks first (ctx.lastTap)
const GUARDED = new Set(["pocketed", "no_pocket"]); // the outcomes that record at once

async function guarded(name, value) {
  const key = `${name}:${value ?? ""}`; // any other tap in between breaks the pair
  const now = performance.now();
  const again = GUARDED.has(name) && key === ctx.lastTap.key && now - ctx.lastTap.at < GUARD_MS;
  ctx.lastTap = { key, at: now };
  if (!again) return true;
  const what = main.querySelector(`[data-act="${name}"]`)?.textContent.trim() || name;
  const yes = await confirm(t("judge.again_title"), t("judge.again_text", { what }),
                            { yes: t("judge.again_yes"), tag: "again" });
  ctx.lastTap = { key: "", at: 0 };
  return yes;
}

/** Queue one command for the current match, at the version it follows. */
function send(command) {
  ctx.sending = ctx.sending.then(() => enqueue(command), () => enqueue(command));
  return ctx.sending;
}

async function enqueue(command) {
  const doc = state.doc;
  const url = commandsUrl(doc);
  const waiting = (await ctx.outbox.entries()).some((e) => e.url === url);
  const body = { expected_version: waiting ? null : knownVersion(doc),
                 command: { ...command, at: new Date().toISOString() } };
  state.clock = stopClock(state.clock);
  await ctx.outbox.enqueue(url, body);
  if (!navigator.onLine) flash([t("judge.queued_banner")], "queued");
}

/** The newest version this device knows the match at: the documents' or, sooner, the reply
 *  the outbox has just read (before the app hears of it), so a quick second tap never meets
 *  its own first one as "another device". */
function knownVersion(doc) {
  const reply = ctx.outbox.lastReply;
  const replied = reply?.match_id === doc.match_id ? reply.last_version ?? 0 : 0;
  return Math.max(state.knownVersion, replied);
}

/** The banner, for ~3 s: what the engine decided, with its paragraph. */
function flash(lines, tone = "ok") {
  clearTimeout(ctx.timers.banner);
  state.banner = lines.length ? { lines, tone } : null;
  render();
  ctx.timers.banner = setTimeout(() => { state.banner = null; render(); }, BANNER_MS);
}

async function refreshPending() {
  const url = state.doc ? commandsUrl(state.doc) : null;
  const { outbox } = ctx;
  const entries = await outbox.entries();
  state.pending = entries.filter((e) => e.url === url);
  const held = outbox.held && outbox.held.url === url ? outbox.held : null;
  if (!held) state.held = null;
  else if (state.held?.seq !== held.seq) await showConflict(held);
  render();
}

async function showConflict(held) {
  const current = held.held?.problem?.current_version;
  const from = held.body.expected_version ?? ctx.outbox.lastReply?.last_version ?? 0;
  state.held = { seq: held.seq, current, count: state.pending.length, changes: [] };
  const url = `/api/matches/${state.doc.match_id}/events?after=${from}`;
  for (let tries = 0; tries < 10; tries += 1) { // a reader may be a moment behind the append
    try {
      const events = await request("GET", url);
      // In the judge's language, as the spectator log words them (issue 14 point 5).
      state.held.changes = entryLines(events, sideNames(state.doc))
        .map((l) => (l.rules.length ? `${l.text} — ${l.rules.join(", ")}` : l.text));
      if (current == null || events.at(-1)?.version >= current) break;
    } catch { /* the counts alone still say what happened */ }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  render();
}

function setDoc(doc) {
  if (!doc) return;
  const cur = state.doc;
  if (cur && cur.match_id === doc.match_id && doc.version < cur.version) return;
  if (cur && cur.match_id !== doc.match_id && doc.scheduled_position < cur.scheduled_position) return;
  if (!cur || cur.match_id !== doc.match_id) state.knownVersion = 0;
  state.doc = doc;
  state.knownVersion = Math.max(state.knownVersion, doc.version);
  // Kept for a cold start without wifi (the worker has the app, this has the table).
  try { localStorage.setItem(docKey(), JSON.stringify(doc)); } catch { /* memory only */ }
  loadCatalogue(doc.ruleset, doc.fill_silences || "ekml");
  loadJudgeState();
}

function onSent({ entry, reply }) {
  ctx.sent.add(entry.seq);
  if (!state.doc || reply?.match_id !== state.doc.match_id) return;
  state.knownVersion = Math.max(state.knownVersion, reply.last_version);
  const { seq, body: { command } } = entry;
  state.answered.push({ seq, match_id: reply.match_id, version: reply.last_version, command });
  const position = reply.positions?.at(-1) || 0;
  catchUp(position);
  ctx.feed?.expect(position); // a feed that never brings our own stroke is dead: replaced
  noteGameEnd(reply.events.map((e) => ({ type: e.type, event: e.event })));
  const { lines, tone } = bannerFor(reply.events, state.doc);
  if (reply.events[0]?.type === "CorrectionRecorded" && state.undoWhat) {
    lines[0] = `${t("judge.corrected")}: ${state.undoWhat}`; // say what the undo took back
    state.undoWhat = "";
  }
  if (lines.length) flash(lines, tone);
  loadJudgeState();
}

/** The feed should bring the answered version within moments; if it has not after a second
 *  (its socket stalled while requests still get through), read the document instead. */
function catchUp(position) {
  clearTimeout(ctx.timers.catchUp);
  ctx.timers.catchUp = setTimeout(async () => {
    const doc = state.doc;
    if (!doc || doc.version >= state.knownVersion || !navigator.onLine) return;
    try {
      setDoc(await request("GET", `/api/matches/${doc.match_id}?min_position=${position}`));
      render();
    } catch { /* the feed will bring it */ }
  }, CATCH_UP_MS);
}

function noteGameEnd(events) {
  const ended = events.find((e) => e.type === "GameEnded");
  if (!ended) return;
  const names = sidesOf(state.doc)[ended.event.winner === "B" ? 1 : 0];
  state.lastGameEnd = { match_id: state.doc.match_id, game_no: ended.event.game_no,
                        name: names.join(" / "), rule: ended.event.rule, reason: ended.event.reason };
}

function onRejected({ entry, problem, status }) {
  const error = new ApiError(status, problem);
  flash([`${t("judge.rejected")}: ${describeEntry(entry.body.command.type, entry.body.command)}`,
         describe(error)], "bad");
  loadJudgeState();
}

function wasSent(seq) { return ctx.sent.has(seq); }

/** The pickers' catalogue: the match's ruleset as its guide fills the silences (issue 35). */
async function loadCatalogue(ruleset, fill) {
  const had = state.catalogue;
  if (had?.name === ruleset && (had.fill_silences || "ekml") === fill) return;
  const key = `tableside.ruleset.${ruleset}.${fill}`;
  try {
    state.catalogue = await request("GET", `/api/rulesets/${ruleset}?fill_silences=${fill}`);
    localStorage.setItem(key, JSON.stringify(state.catalogue));
  } catch {
    state.catalogue = JSON.parse(localStorage.getItem(key) || "null");
  }
}

/** Time limits and the undo target, folded by the server (not in the live document). */
async function loadJudgeState() {
  const doc = state.doc;
  if (!doc || !navigator.onLine) return state.judge;
  clearTimeout(ctx.timers.judgeState);
  await new Promise((resolve) => { ctx.timers.judgeState = setTimeout(resolve, 150); });
  try {
    const judge = await request("GET", `/api/matches/${doc.match_id}/judge`);
    if (judge.match_id === state.doc?.match_id) state.judge = judge;
    render();
  } catch { /* offline or gone: keep what we had */ }
  return state.judge;
}

function stopClock(clock) {
  if (clock) clearInterval(clock.timer);
  return null;
}

async function whoAmI(tableParam) {
  try {
    const who = await request("GET", "/api/whoami");
    if (who.role === "table_judge") return who.table;
    return who.role === "spectator" ? null : tableParam;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    if (error instanceof ApiError && error.problem.code === "insecure_transport") throw error;
    return tableParam || Number(localStorage.getItem("tableside.judge.table")) || null;
  }
}

async function start() {
  await i18n.ready;
  i18n.addEventListener("change", render);
  // a phone's banner keeps to the band free of controls as the page scrolls under it
  window.addEventListener("scroll", placeBanner, { passive: true });
  window.addEventListener("resize", placeBanner, { passive: true });
  const token = tokenFromLink();
  const param = Number(new URLSearchParams(location.search).get("table")) || null;
  state.table = param;
  if (!token) {
    state.problem = "judge.join_help";
    return render();
  }
  try {
    state.table = await whoAmI(param);
  } catch (error) { // a page in clear: its token was not sent (issue 52), the way to HTTPS is
    state.problem = "code.insecure_transport";
    state.problemParams = { https_origin: error.problem.https_origin };
    return render();
  }
  if (!state.table) {
    state.problem = "judge.bad_token";
    return render();
  }
  localStorage.setItem("tableside.judge.table", String(state.table));
  const outbox = new Outbox({ beforeSend: chainVersions }).start();
  ctx.outbox = outbox;
  document.querySelector("sync-badge").outbox = outbox;
  outbox.addEventListener("change", refreshPending);
  outbox.addEventListener("sent", (e) => onSent(e.detail));
  outbox.addEventListener("rejected", (e) => onRejected(e.detail));
  outbox.addEventListener("conflict", refreshPending);
  const kept = JSON.parse(localStorage.getItem(docKey()) || "null");
  if (kept && !navigator.onLine) {
    state.loading = false;
    setDoc(kept);
    await refreshPending();
  }
  const feed = new LiveFeed({ table: state.table }, { token });
  ctx.feed = feed;
  feed.addEventListener("snapshot", (e) => {
    state.loading = false;
    setDoc(e.detail.matches?.[0]);
    refreshPending();
    if (!playing(state.doc)) followBackgammon(e.detail.position);
  });
  feed.addEventListener("delta", (e) => {
    if (e.detail.discipline === "backgammon") return followBackgammon(e.detail.position);
    if (e.detail.type === "GameEnded" && e.detail.live?.match_id === state.doc?.match_id) {
      noteGameEnd([{ type: "GameEnded", event: e.detail.event }]);
    }
    setDoc(e.detail.live);
    refreshPending();
  });
  feed.addEventListener("state", (e) => liveState(e.detail.state));
  feed.addEventListener("refused", (e) => {
    // a page at an address the server gives no live feed to says so (issue 52)
    state.problem = e.detail.reason === "origin" ? "judge.live_origin" : "judge.bad_token";
    render();
  });
  window.judge = ctx; // for tests and for a curious head judge
  feed.start();
  render();
}

const playing = (doc) => doc && !["signed", "abandoned"].includes(doc.status);

/** A backgammon match called to this table: this device records it on the backgammon face
 *  (KSI), with the same token; none being played there: this face stays. */
async function followBackgammon(position) {
  try {
    const found = await request("GET", `/api/backgammon/tables/${state.table}?min_position=${position || 0}`);
    location.assign(`/backgammon?table=${state.table}&match=${found.match_id}`);
  } catch { /* no backgammon match on this table now */ }
}

/** The connection's state; a signed or abandoned match reads final, never a green "Live". */
function liveState(value) {
  const badge = document.querySelector("[data-live-state]");
  if (!badge) return;
  const over = ["signed", "abandoned"].includes(state.doc?.status);
  const shown = value === "live" && over ? "final" : value;
  badge.dataset.liveState = shown;
  badge.dataset.live = String(shown === "live");
  badge.replaceChildren(h("span", { class: "live-dot", "aria-hidden": "true" }), " ",
                        h("span", { class: "live-word" }, t(`judge.live.${shown}`)));
}

i18n.addEventListener("change", () => ctx.feed && liveState(ctx.feed.state));
start();
