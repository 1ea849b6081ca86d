// Ed25519 signature checks for the faces (issue 40, docs/decisions/0118): WebCrypto where the
// browser has it, a maintained pure-JS Ed25519 (@noble/ed25519 with @noble/hashes' SHA-512,
// pinned in the Makefile, served from node_modules under /vendor/) where it has not (a page
// outside a secure context has no crypto.subtle), and an honest "cannot check" otherwise.
//
//   import { verifyEd25519 } from "/js/ed25519.js";
//   await verifyEd25519(publicKey, signature, message)  // Uint8Arrays → true | false | null
//
// null means: this browser cannot check the signature (no WebCrypto Ed25519, and the pure-JS
// one could not be loaded). A caller must never show null as "not valid": a genuine receipt
// is not a forged one because the browser lacks the maths.

const VENDOR_ED25519 = "/vendor/ed25519.js";
const VENDOR_SHA512 = "/vendor/sha2.js";
let pure = null; // the pure-JS module, loaded once on first need (a promise; null inside if none)

/** WebCrypto's answer: true or false, or null when it has no Ed25519 (or no subtle at all). */
async function webCrypto(key, signature, message) {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  let imported;
  try {
    imported = await subtle.importKey("raw", key, { name: "Ed25519" }, false, ["verify"]);
  } catch (error) {
    return error?.name === "NotSupportedError" ? null : false; // no Ed25519 / a key that is not one
  }
  try {
    return await subtle.verify({ name: "Ed25519" }, imported, signature, message);
  } catch {
    return false;
  }
}

/** @noble/ed25519 with its SHA-512 set, or null when the server does not serve it. */
function pureJs() {
  pure ??= Promise.all([import(VENDOR_ED25519), import(VENDOR_SHA512)])
    .then(([ed, hashes]) => {
      ed.hashes.sha512 = hashes.sha512;
      return ed;
    })
    .catch((error) => {
      console.warn("no pure-JS Ed25519 here:", error);
      return null;
    });
  return pure;
}

/** Whether `signature` (64 bytes) over `message` verifies with the raw 32-byte `key`: true,
 *  false, or null when this browser cannot check it. RFC 8032's strict rules either way. */
export async function verifyEd25519(key, signature, message) {
  const native = await webCrypto(key, signature, message);
  if (native !== null) return native;
  const ed = await pureJs();
  if (!ed) return null;
  try {
    return ed.verify(signature, message, key, { zip215: false });
  } catch {
    return false; // a malformed key or signature
  }
}
