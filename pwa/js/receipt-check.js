// Check a signed match receipt in the browser, offline (#29; docs/decisions/0070).
//
//   import { readReceipt, checkReceipt } from "/js/receipt-check.js";
//   const receipt = readReceipt(location.hash);     // "#r=<base64url JSON>", a link or JSON
//   const result = await checkReceipt(receipt, pinnedKeyHex);
//   result.valid, result.checks: [{ check, ok, detail }] (what was checked, in order)
//   result.unchecked: true when this browser could not check the signature (ok: null)
//
// The signed bytes are rebuilt exactly as backend/tableside/eventlog/receipts.py signs them
// (one "name value" line per field under the format line); Ed25519 through ed25519.js
// (WebCrypto, else pure JS). A browser that can do neither gets `unchecked`, never "invalid".

import { verifyEd25519 } from "/js/ed25519.js";

export const FORMAT = "tableside-receipt/1";
const FIELDS = ["match_id", "end", "result", "version", "position", "match_head", "global_head", "time"];
const NAMES = { match_id: "match" }; // the signed line's name where it is not the field's

/** A receipt from a verify link's fragment, a whole link, or pasted JSON; null if none. */
export function readReceipt(text) {
  const raw = String(text || "").trim();
  if (!raw) return null;
  try {
    if (raw.startsWith("{")) return JSON.parse(raw);
    const encoded = raw.slice(raw.lastIndexOf("r=") + 2);
    const base64 = encoded.replace(/-/g, "+").replace(/_/g, "/");
    const bytes = Uint8Array.from(atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4)), (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return null;
  }
}

/** The exact bytes the receipt's signature covers. */
export function signedBytes(receipt) {
  const lines = [FORMAT, ...FIELDS.map((field) => `${NAMES[field] || field} ${receipt[field]}`)];
  return new TextEncoder().encode(lines.join("\n"));
}

function hexBytes(hex) {
  if (typeof hex !== "string" || !/^([0-9a-f]{2})*$/i.test(hex)) return null;
  return Uint8Array.from(hex.match(/../g) || [], (pair) => parseInt(pair, 16));
}

/** true, false, or null when this browser cannot check an Ed25519 signature (ed25519.js). */
async function signatureHolds(receipt, key) {
  const signature = hexBytes(receipt.signature);
  if (signature?.length !== 64) return false;
  return verifyEd25519(key, signature, signedBytes(receipt));
}

/** Every check in order ({check, ok, detail}); valid only when each holds. */
export async function checkReceipt(receipt, pinnedHex) {
  const checks = [];
  const add = (check, ok, detail = "") => { checks.push({ check, ok, detail }); return ok; };
  const shaped = receipt && typeof receipt === "object" && receipt.format === FORMAT
    && FIELDS.every((field) => receipt[field] !== undefined) && ["game", "match"].includes(receipt.end);
  if (!add("format", Boolean(shaped), receipt?.format || "")) return { valid: false, checks };
  const pinned = hexBytes(pinnedHex || "");
  const keyOk = Boolean(pinned && pinned.length === 32) && receipt.public_key === pinnedHex.toLowerCase();
  if (!add("key", keyOk, receipt.public_key || "")) return { valid: false, checks };
  const holds = await signatureHolds(receipt, pinned);
  add("signature", holds);
  return holds === null ? { valid: false, unchecked: true, checks } : { valid: holds, checks };
}
