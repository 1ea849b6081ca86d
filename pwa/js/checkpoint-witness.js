// Clients witness too (#29 point 3): the judge pads, the spectator pages and the venue screen
// each keep the newest signed checkpoint of the store they have seen, in IndexedDB, outside
// the server's reach. A checkpoint is kept only when its Ed25519 signature holds (WebCrypto)
// and it is further along than the one kept; an older or badly signed one is refused, so a
// server that goes back cannot overwrite what a device saw. Any device's copy can later hold
// the store to it (`tableside audit verify --witness FILE`, the checkpoint saved as JSON).
//
//   import { remember, newest } from "/js/checkpoint-witness.js";
//   await remember(checkpoint)   // { kept: true|false, reason, newest }
//   await newest()               // the kept checkpoint, or null
//
// Loaded by each of those pages as a module of its own: it reads /api/checkpoints/latest
// when the page opens and every EVERY_MS after (bounded: one request at a time, a timeout).

const DB = "tableside-witness";
const STORE = "checkpoints";
const KEY = "newest";
const EVERY_MS = 5 * 60 * 1000;
const TIMEOUT_MS = 10_000;
const DOMAIN = new TextEncoder().encode("tableside-checkpoint/1\n");

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
  try {
    const imported = await crypto.subtle.importKey("raw", key, { name: "Ed25519" }, false, ["verify"]);
    return await crypto.subtle.verify({ name: "Ed25519" }, imported, signature, signedBytes(checkpoint, head));
  } catch {
    return false;
  }
}

/** Keep `checkpoint` if it is well signed and further along than the one kept. */
export async function remember(checkpoint) {
  const kept = await newest();
  if (!checkpoint || !Number.isSafeInteger(checkpoint.position)) return { kept: false, reason: "shape", newest: kept };
  if (kept && checkpoint.position <= kept.position) return { kept: false, reason: "not_newer", newest: kept };
  if (!(await signed(checkpoint))) return { kept: false, reason: "signature", newest: kept };
  const { format, position, head_hash, time, public_key, signature } = checkpoint;
  const record = { format, position, head_hash, time, public_key, signature };
  await inStore("readwrite", (store) => store.put(record, KEY));
  return { kept: true, reason: "", newest: record };
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
