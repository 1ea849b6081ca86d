// Clients witness too (#29 point 3, #41 point 4): the judge pads, the spectator pages and the
// venue screen each keep the newest signed checkpoint of the store they have seen, in
// IndexedDB, outside the server's reach. A checkpoint is kept only when
//   - it is signed by the venue's key pinned in the page (`<meta name="federation-key">`, the
//     key /verify pins; where a page carries none, the key of the checkpoint kept first),
//   - it is not far past the store's plausible head (what the live feed has shown, or the
//     checkpoint kept: a stranger's answer at 2^53−1 would otherwise blind the device), and
//   - its Ed25519 signature holds (WebCrypto) and it is further along than the one kept.
// A well-signed answer at a position the device holds with another head, or below it, is a
// fork: the server went back on what it signed. The device keeps that answer beside its own
// and raises an alarm in the face's language, with a button that exports both. Any face can
// export what it kept (`exportWitness()`): JSON Lines that `tableside audit verify --witness
// FILE` reads.
//
//   import { remember, newest, forks, exportWitness } from "/js/checkpoint-witness.js";
//   await remember(checkpoint)   // { kept: true|false, reason, newest }
//   await newest()               // the kept checkpoint, or null
//
// Loaded by each of those pages as a module of its own: it reads /api/checkpoints/latest
// when the page opens and every EVERY_MS after (bounded: one request at a time, a timeout).

import { verifyEd25519 } from "/js/ed25519.js";
import { i18n, t } from "/js/i18n.js";

const DB = "tableside-witness";
const STORE = "checkpoints";
const KEY = "newest";
const FORKS = "forks";
const EVERY_MS = 5 * 60 * 1000;
const TIMEOUT_MS = 10_000;
const DOMAIN = new TextEncoder().encode("tableside-checkpoint/1\n");
// How far past the feed's (or the kept) head a checkpoint may be: the events appended while a
// checkpoint is signed and served. With nothing to go by yet, any store a venue can hold.
const SLACK = 1_000_000;
const FRESH_LIMIT = 2 ** 40;

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function inStore(mode, fn) {
  return open().then((db) => new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode, { durability: mode === "readwrite" ? "strict" : "default" });
    const request = fn(tx.objectStore(STORE));
    tx.oncomplete = () => { db.close(); resolve(request.result); };
    tx.onerror = tx.onabort = () => { db.close(); reject(tx.error); };
  }));
}

/** The checkpoint this device keeps, or null. */
export function newest() {
  return inStore("readonly", (store) => store.get(KEY)).then((found) => found || null);
}

/** Well-signed answers that went back on the kept checkpoint (another head, a lower position). */
export function forks() {
  return inStore("readonly", (store) => store.get(FORKS)).then((found) => found || []);
}

const hex = (text) => (/^([0-9a-f]{2})*$/i.test(text || "") ? Uint8Array.from(text.match(/../g) || [], (p) => parseInt(p, 16)) : null);

/** Microseconds since the epoch of an ISO 8601 time (Date keeps milliseconds only). */
function micros(iso) {
  const ms = Date.parse(iso);
  const fraction = /\.(\d+)/.exec(iso)?.[1] || "";
  return BigInt(ms) * 1000n + BigInt(`${fraction}000000`.slice(3, 6));
}

/** The bytes a checkpoint's signature covers (backend/tableside/eventlog/checkpoints.py). */
function signedBytes(checkpoint, head) {
  const out = new Uint8Array(DOMAIN.length + 8 + 32 + 8);
  const view = new DataView(out.buffer);
  out.set(DOMAIN);
  view.setBigInt64(DOMAIN.length, BigInt(checkpoint.position));
  out.set(head, DOMAIN.length + 8);
  view.setBigInt64(DOMAIN.length + 40, micros(checkpoint.time));
  return out;
}

async function signed(checkpoint) {
  const head = hex(checkpoint.head_hash);
  const key = hex(checkpoint.public_key);
  const signature = hex(checkpoint.signature);
  if (head?.length !== 32 || key?.length !== 32 || signature?.length !== 64) return false;
  return (await verifyEd25519(key, signature, signedBytes(checkpoint, head))) === true; // null: cannot check
}

/** The venue's keys: pinned in the page (the current one, then those it replaced), else the
 *  key of what this device kept first; none before anything was kept on a page without one. */
function venueKeys(kept) {
  const pinned = (document.querySelector('meta[name="federation-key"]')?.content || "")
    .split(",").map((k) => k.trim().toLowerCase()).filter((k) => /^[0-9a-f]{64}$/.test(k));
  return pinned.length ? pinned : kept ? [kept.public_key] : [];
}

/** The highest position a checkpoint may name now (see SLACK). */
function plausibleHead(kept) {
  const shown = Math.max(kept?.position || 0, globalThis.tablesideFeedHead || 0);
  return shown ? shown + SLACK : FRESH_LIMIT;
}

const fields = ({ format, position, head_hash, time, public_key, signature }) =>
  ({ format, position, head_hash, time, public_key, signature });

/** Keep `checkpoint` if it is the venue's, plausible, well signed and further along than the
 *  one kept; a well-signed answer that goes back on the kept one is kept as a fork (alarm). */
export async function remember(checkpoint) {
  const kept = await newest();
  if (!checkpoint || !Number.isSafeInteger(checkpoint.position)) return { kept: false, reason: "shape", newest: kept };
  const keys = venueKeys(kept);
  if (keys.length && !keys.includes(checkpoint.public_key)) return { kept: false, reason: "key", newest: kept };
  if (checkpoint.position > plausibleHead(kept)) return { kept: false, reason: "implausible", newest: kept };
  if (kept && checkpoint.position <= kept.position) return wentBack(checkpoint, kept);
  if (!(await signed(checkpoint))) return { kept: false, reason: "signature", newest: kept };
  const record = fields(checkpoint);
  await inStore("readwrite", (store) => store.put(record, KEY));
  return { kept: true, reason: "", newest: record };
}

/** An answer at or below the kept position: the same, not signed (ignored), or a fork. */
async function wentBack(checkpoint, kept) {
  const same = checkpoint.position === kept.position && checkpoint.head_hash === kept.head_hash;
  if (same || !(await signed(checkpoint))) return { kept: false, reason: "not_newer", newest: kept };
  const found = await forks();
  if (!found.some((f) => f.signature === checkpoint.signature)) {
    await inStore("readwrite", (store) => store.put([...found, fields(checkpoint)], FORKS));
  }
  alarm(checkpoint.position === kept.position ? "fork" : "back", checkpoint, kept);
  return { kept: false, reason: "fork", newest: kept };
}

/** What this device witnessed, as JSON Lines (`tableside audit verify --witness FILE`). */
export async function witnessFile() {
  const kept = await newest();
  const lines = [kept, ...(await forks())].filter(Boolean).map((c) => JSON.stringify(fields(c)));
  return lines.length ? `${lines.join("\n")}\n` : "";
}

/** Download what this device witnessed as a file. */
export async function exportWitness() {
  const text = await witnessFile();
  if (!text) return false;
  const kept = await newest();
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "application/jsonl" }));
  link.download = `tableside-witness-${kept?.position ?? "fork"}.jsonl`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  return true;
}

let shown = null;

/** The alarm on top of the face, in its language: the server went back on what it signed. */
function alarm(kind, answer, kept) {
  if (!shown) {
    const text = document.createElement("p");
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.witnessExport = "";
    button.addEventListener("click", () => exportWitness());
    shown = document.createElement("div");
    shown.className = "banner";
    shown.setAttribute("role", "alert");
    shown.dataset.kind = "error";
    shown.append(text, button);
    document.body.prepend(shown);
    i18n.addEventListener("change", () => say(shown));
  }
  shown.dataset.witnessAlarm = kind;
  shown.dataset.params = JSON.stringify({ p: answer.position, kept: kept.position });
  say(shown);
}

function say(banner) {
  const params = JSON.parse(banner.dataset.params);
  banner.firstChild.textContent = t(`witness.${banner.dataset.witnessAlarm}`, params);
  banner.lastChild.textContent = t("witness.export");
}

async function witness() {
  try {
    const answer = await fetch("/api/checkpoints/latest", { signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (answer.status === 200) await remember(await answer.json()); // 204: none signed yet
    const kept = await newest();
    if (kept) document.documentElement.dataset.witness = String(kept.position);
  } catch (error) {
    console.warn("checkpoint witness:", error); // offline or no IndexedDB: the next round tries again
  }
}

witness();
setInterval(witness, EVERY_MS);
