// The receipt check page (/verify): a receipt from the address's fragment (a phone camera
// opening a receipt's QR code) or pasted, checked offline against the federation's key
// pinned in the page (receipt-check.js); says valid or not, and what was checked.

import { h } from "/js/dom.js";
import { i18n, t } from "/js/i18n.js";
import { checkReceipt, readReceipt } from "/js/receipt-check.js";

const FIELDS = ["result", "end", "match_id", "time", "version", "position", "match_head", "global_head"];
// The federation's key and the keys it replaced (`tableside keys rotate`), comma-separated.
const pinnedKeys = () => (document.querySelector('meta[name="federation-key"]')?.content || "")
  .split(",").map((k) => k.trim().toLowerCase()).filter((k) => /^[0-9a-f]{64}$/.test(k));
/** The pinned key a receipt names (an old receipt: a key the federation's replaced), else the current. */
const pinned = (receipt) => {
  const keys = pinnedKeys();
  return keys.includes(String(receipt?.public_key || "").toLowerCase()) ? receipt.public_key.toLowerCase() : keys[0] || "";
};
const $ = (id) => document.getElementById(id);
let shown = null; // { receipt, result } last checked, redrawn on a language change

function fieldValue(receipt, field) {
  return field === "end" ? t(`verify.end.${receipt.end}`) : String(receipt[field]);
}

function draw() {
  const keys = pinnedKeys();
  $("pinned").textContent = keys.length ? keys.join(", ") : t("verify.no_key");
  if (!shown) { // nothing checked (yet): no verdict, and nothing of an earlier one
    $("verdict").textContent = t("verify.none");
    $("verdict").dataset.verdict = "none";
    $("checks").hidden = true;
    $("check-list").replaceChildren();
    $("fields").replaceChildren();
    return;
  }
  const { receipt, result } = shown;
  // A browser that cannot check says so: a genuine receipt is never called forged (issue 40).
  const verdict = result.unchecked ? "unchecked" : result.valid ? "valid" : "invalid";
  $("verdict").textContent = t(`verify.${verdict}`);
  $("verdict").dataset.verdict = verdict;
  $("checks").hidden = false;
  $("check-list").replaceChildren(...result.checks.map((c) => h("li", { dataset: { check: c.check, ok: String(c.ok) } },
    `${t(`verify.check.${c.check}`)}: ${t(c.ok === null ? "verify.check.unchecked" : c.ok ? "verify.holds" : "verify.fails")}`)));
  const fields = receipt && typeof receipt === "object" ? FIELDS.filter((f) => receipt[f] !== undefined) : [];
  $("fields").replaceChildren(...fields.flatMap((f) => [h("dt", {}, t(`verify.field.${f}`)),
    h("dd", { dataset: { field: f } }, fieldValue(receipt, f))]));
}

let checking = 0; // the newest check: an older one that ends later is not shown over it

async function check(text, mine = ++checking) {
  const receipt = readReceipt(text);
  const result = receipt ? { receipt, result: await checkReceipt(receipt, pinned(receipt)) }
    : { receipt: null, result: { valid: false, checks: [{ check: "format", ok: false }] } };
  if (mine !== checking) return;
  shown = result;
  draw();
}

/** The receipt in the address, checked; every change of the address checks again, the old
 *  verdict cleared first (issue 52: a forged link opened in the same tab showed "Valid"). */
async function fromAddress() {
  delete document.body.dataset.checked;
  shown = null;
  draw();
  const mine = ++checking; // a check still running is not shown
  if (location.hash.includes("r=")) await check(location.hash, mine);
  if (mine === checking) document.body.dataset.checked = "true";
}

$("paste").addEventListener("submit", (event) => {
  event.preventDefault();
  check($("receipt-text").value);
});
i18n.addEventListener("change", draw);
await i18n.ready;
await fromAddress();
delete $("face").dataset.loading; // the page appears whole, its verdict in place (no shift)
window.addEventListener("hashchange", fromAddress);
