// fetch() for the Tableside API: JSON in and out, the bearer token, RFC 9457 problems.
//
//   import { request, ApiError, setToken, describe } from "/js/api.js";
//   setToken(reply.token);                     // the staff login, remembered for this browser
//   tokenFromLink();                           // a judge link's token, kept apart from it
//   const view = await request("GET", "/api/matches/…");
//   try { await request("POST", url, body) }
//   catch (e) { if (e instanceof ApiError) banner(describe(e)) }  // "Loss of turn — Rule: EKML §25(1)1"
//
// The server answers every refusal as application/problem+json: `title`, `detail`, `status`,
// and our own `rule` member (the paragraph a rule violation cites). ApiError carries them.

import { citation, i18n, refusalText, t } from "/js/i18n.js";

const TOKEN_KEY = "tableside.token"; // the staff login (console, audit)
const LINK_KEY = "tableside.link.token"; // a table judge's, from the QR link
const DEVICE_KEY = "tableside.device";
const SERVERS_KEY = "tableside.servers"; // this venue's other servers (issue 33)

let linked = null; // this page's token from a judge link, when it has one (tokenFromLink)

/** The bearer token of this page: its judge link's when it opened one, else the login's. A
 *  judge link opened on the TD's laptop keeps its own token: the console stays signed in. */
export function getToken() {
  if (linked) return linked;
  try { return localStorage.getItem(TOKEN_KEY); } catch { return null; }
}

/** Remember the staff login's token; null forgets it. */
export function setToken(token) {
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  } catch { /* storage disabled: the token lives only as long as the page */ }
}

/**
 * Take a token from the page's link (`/judge?table=4#token=tj_…`, what the QR code holds),
 * remember it, and drop it from the address bar so it is not bookmarked or shown around.
 */
export function tokenFromLink() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const token = fragment.get("token");
  // A QR link names the venue's other servers too; the page's CSP allows only those the
  // server itself names, so a forged list can reach nothing.
  if (token && fragment.get("servers")) rememberPeers(fragment.get("servers").split(","));
  if (token) {
    try { localStorage.setItem(LINK_KEY, token); } catch { /* lives as long as the page */ }
    history.replaceState(null, "", location.pathname + location.search);
  }
  try { linked = token || localStorage.getItem(LINK_KEY); } catch { linked = token; }
  return getToken();
}

// --- the venue's servers: this page's own, then its peers (issue 33) ---------------------
// Learned before anything fails (GET /api/servers, a judge link's `servers=`) and kept; a
// request no server answers moves on to the next, and the page stays there. Commands carry
// their command_id, so one sent again to another server is stored once.

let active = 0; // index into servers() of the server answering now

/** Every server of this venue, this page's own first. */
export function servers() {
  let peers = [];
  try { peers = JSON.parse(localStorage.getItem(SERVERS_KEY) || "[]"); } catch { peers = []; }
  return [location.origin, ...peers.filter((p) => p !== location.origin)];
}

function rememberPeers(peers) {
  const valid = peers.map((p) => String(p).replace(/\/+$/, "")).filter((p) => /^https?:\/\/[^/]+$/.test(p));
  try { localStorage.setItem(SERVERS_KEY, JSON.stringify(valid)); } catch { /* page-long only */ }
}

/** Ask this page's server for its peers (once per page load; quietly, it may be gone). */
export async function learnServers() {
  try {
    const reply = await fetch("/api/servers", { headers: { Accept: "application/json" } });
    if (reply.ok) rememberPeers((await reply.json()).peers || []);
  } catch { /* offline: keep what was learned before */ }
}

/** The absolute URL of an API path on the server answering now. */
export function apiUrl(path) {
  if (/^https?:/.test(path)) return path;
  const list = servers();
  return list[active % list.length] + path;
}

/** The /live websocket URL on the server answering now. */
export function liveUrl() {
  return apiUrl("/live").replace(/^http/, "ws");
}

/** The server answering now did not: the next one is tried from now on. */
export function moveOn() {
  active = (active + 1) % servers().length;
}

// --- no secret in clear (issue 52) -----------------------------------------------------
// A page outside a secure context (plain HTTP on the hall network) sends no password and no
// token: the check is here, before the request, so the bytes never cross the wifi; the
// server's 403 `insecure_transport` stays as the second line. A server that speaks no HTTPS
// at all (`TABLESIDE_TLS=off` with no proxy) names no HTTPS origin: there the hall is plain
// by the operator's choice and the page sends as before.

const SETUP_TIMEOUT_MS = 5000;
let origin = null; // the promise of this server's HTTPS origin (GET /api/setup)

/** This server's HTTPS origin ("" when it speaks none; null when it could not be asked). */
export function httpsOrigin() {
  origin ||= fetch("/api/setup", { signal: AbortSignal.timeout(SETUP_TIMEOUT_MS) })
    .then(async (answer) => (answer.ok ? (await answer.json()).https_origin || "" : null))
    .catch(() => null)
    .then((found) => { if (found === null) origin = null; return found; }); // asked again next time
  return origin;
}

const carriesSecret = (path, init) =>
  Boolean(init?.headers?.Authorization) || new URL(path, location.href).pathname === "/api/login";

/** Refuse, before anything is sent, a login or a token from a page in clear. */
async function refuseInClear(path, init) {
  if (window.isSecureContext || !carriesSecret(path, init)) return;
  const https = await httpsOrigin();
  if (https === "") return;
  // the server's own refusal, said here: the same code and words, the way to the HTTPS origin
  throw new ApiError(403, { code: "insecure_transport", https_origin: https || "/setup" });
}

/** fetch() on the server answering now; when it does not answer at all, on the next. A
 *  login or a token is never sent from a page outside a secure context (an ApiError). */
export async function serverFetch(path, init) {
  await refuseInClear(path, init);
  const count = servers().length;
  for (let tried = 1; ; tried++) {
    try {
      return await fetch(apiUrl(path), init);
    } catch (error) {
      if (error.name === "AbortError" || tried >= count) throw error;
      moveOn();
    }
  }
}

/** This browser's stable id, stored with every command so auditors can tell devices apart. */
export function deviceId() {
  try {
    const stored = localStorage.getItem(DEVICE_KEY);
    if (stored) return stored;
    const id = crypto.randomUUID();
    localStorage.setItem(DEVICE_KEY, id);
    return id;
  } catch {
    return "";
  }
}

/** A refusal from the server (status ≥ 400) or no answer at all (status 0). */
export class ApiError extends Error {
  constructor(status, problem = {}) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.name = "ApiError";
    this.status = status;
    this.problem = problem; // the whole problem document, extension members included
    this.title = problem.title || "";
    this.detail = problem.detail || "";
    this.rule = problem.rule || "";
  }

  /** Network failures, overload and server errors are worth retrying; other 4xx are final. */
  get retryable() {
    return this.status === 0 || this.status === 408 || this.status === 429 || this.status >= 500;
  }
}

/** Headers for a JSON request, with the bearer token when we have one. */
export function headers(extra = {}) {
  // The page's language: the server says a refusal in it where it can (problem details).
  const all = { Accept: "application/json, application/problem+json", "Accept-Language": i18n.lang, ...extra };
  const token = getToken();
  if (token) all.Authorization = `Bearer ${token}`;
  return all;
}

/** Parse a reply: its JSON (or null) when ok, else throw an ApiError with the problem. */
export async function parse(reply) {
  const type = reply.headers.get("content-type") || "";
  const data = type.includes("json") ? await reply.json().catch(() => null) : null;
  if (reply.ok) return data;
  throw new ApiError(reply.status, data && typeof data === "object" ? data : { title: reply.statusText });
}

/** Send one request; resolves with the JSON body, rejects with ApiError. */
export async function request(method, url, body, { headers: extra = {}, signal } = {}) {
  const init = { method, headers: headers(extra), signal };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["Content-Type"] = "application/json";
  }
  let reply;
  try {
    reply = await serverFetch(url, init);
  } catch (error) {
    if (error.name === "AbortError" || error instanceof ApiError) throw error;
    throw new ApiError(0, { title: t("error.network"), detail: String(error.message || error) });
  }
  return parse(reply);
}

/** Fetch a file the API serves only to a signed-in reader (the bearer token cannot ride on a
 *  plain link) and hand it to the browser as a download named `filename`. */
export async function download(url, filename, { headers: extra = {} } = {}) {
  const reply = await serverFetch(url, { headers: headers(extra) });
  if (!reply.ok) await parse(reply); // throws the problem as an ApiError
  const href = URL.createObjectURL(await reply.blob());
  const link = Object.assign(document.createElement("a"), { href, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10000);
}

/** A refusal's words in the page's language: every refusal the server raises names a code
 *  (`code.<code>` in codes.<lang>.json, its figures in `params`; decision 0130); a problem
 *  without one says what the server said. */
export function refusalWords(error) {
  // a refusal's blanks: its `params`, or members of the problem itself ({https_origin}, issue 40)
  const problem = error?.problem || {};
  return refusalText(problem.code, { ...problem, ...problem.params }, error?.detail);
}

/** One line for a banner: the problem's title and detail, and the rule when one is cited. */
export function describe(error) {
  if (!(error instanceof ApiError)) return String(error?.message || error);
  if (error.status === 0) return t("error.network");
  const detail = refusalWords(error);
  const coded = detail && detail !== error.detail;
  // A rule violation is titled in the page's words; another coded refusal is its words alone
  // (its title is the same words, as the server put them).
  const title = error.status === 422 && error.rule ? t("error.rule_violation") : coded ? "" : error.title;
  const parts = [title, detail].filter(Boolean);
  if (!parts.length) parts.push(t("error.status", { status: error.status }));
  if (error.rule) parts.push(t("error.rule", { rule: citation(error.rule) }));
  return parts.join(" — ");
}

learnServers(); // every face, every load: the other servers are known before one fails
