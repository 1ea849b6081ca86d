// A match's signed receipt as a QR code (#29): shown by the judge pad at the match's end so
// both players can scan it; the code opens /verify with the receipt in the fragment, which
// checks it offline. One node per match, kept across redraws (data-kept: it fills itself
// after its request); it asks until the server's newest receipt is the match's end (bounded).

import { h } from "/js/dom.js";
import { serverFetch } from "/js/api.js";
import { t } from "/js/i18n.js";

const cards = new Map(); // match id → its card
const TRIES = 30;
const PAUSE_MS = 1000;

/** The card of a match's receipt (the same node on every call for that match). */
export function receiptCard(matchId) {
  if (!cards.has(matchId)) {
    const card = h("figure", { class: "receipt-card", "data-kept": "", "data-receipt": "waiting" },
      h("figcaption", { i18n: "receipt.waiting" }));
    cards.set(matchId, card);
    fill(card, matchId);
  }
  return cards.get(matchId);
}

async function newest(matchId) {
  try {
    const answer = await serverFetch(`/api/receipts/${encodeURIComponent(matchId)}`);
    return answer.ok ? await answer.json() : null;
  } catch {
    return null; // offline for now: asked again
  }
}

async function fill(card, matchId) {
  for (let tried = 1; tried <= TRIES; tried++) {
    const body = await newest(matchId);
    if (body?.receipt?.end === "match") return show(card, body);
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  }
  card.dataset.receipt = "none";
  card.replaceChildren(h("figcaption", { i18n: "receipt.none" }));
}

function show(card, body) {
  card.dataset.receipt = "shown";
  card.replaceChildren(
    h("a", { href: body.verify_url, "data-verify-url": body.verify_url },
      h("img", { src: body.qr_svg, alt: t("receipt.title") })),
    h("figcaption", {}, h("strong", { i18n: "receipt.title" }), " ", h("span", { i18n: "receipt.scan" }),
      h("span", { class: "receipt-result" }, body.receipt.result)));
}
