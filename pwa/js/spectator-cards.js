// A table's card for spectators and the venue screen: players, game score, pucks left, turn,
// a live dot. Cards are updated in place (same element, same position), never rebuilt, so a
// list of 40 tables does not jump while people read it.
//
//   import { matchCard, updateCard, statusText } from "/js/spectator-cards.js";
//   const card = matchCard(doc, { href: `/?match=${doc.match_id}` });
//   updateCard(card, newerDoc);

import { t } from "/js/i18n.js";

/** "playing", "ended", … in words. */
export function statusText(status) {
  return t(`spec.status.${status || "scheduled"}`);
}

// A match the competition decided without play (a no-show, a withdrawal: EKML §9(3), §32(3))
// is closed with this reason (competition/processor.py FORFEITED): it reads as a forfeit, with
// no games, never as "abandoned 0 : 0" (issue 45).
const FORFEIT = "forfeit_recorded";
const forfeited = (doc) => doc.status === "abandoned" && doc.abandoned === FORFEIT;

function forfeitMark(doc, i) {
  return doc.won_by === ["a", "b"][i] ? t("spec.walkover") : "–";
}

/** A card's status in words: a forfeit named as one. */
export function cardStatus(doc) {
  return forfeited(doc) ? t("spec.status.forfeit") : statusText(doc.status);
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text != null) node.textContent = text;
  return node;
}

/** A new card element for a live document; `href` makes the whole card a link. */
export function matchCard(doc, { href = null } = {}) {
  const card = el(href ? "a" : "article", "match-card");
  if (href) card.href = href;
  const head = el("div", "card-head");
  head.append(hidden(el("span", "live-dot")), el("span", "card-table"), el("span", "visually-hidden", ", "),
              el("span", "card-status"), el("span", "visually-hidden", ". "));
  const sides = el("div", "card-sides");
  for (const i of [0, 1]) {
    const row = el("div", `card-side side-${i}`);
    row.dataset.side = String(i);
    // What a screen reader says for the row is one sentence (name, turn, games won, pucks
    // left); the terse visible parts ("▶", "2", "8 left") are hidden from it.
    row.append(hidden(el("span", "turn-arrow")), hidden(el("span", "card-name grow")),
               hidden(el("span", "card-games")), hidden(el("span", "card-pucks")),
               el("span", "visually-hidden card-said"));
    sides.append(row);
  }
  card.append(head, sides, el("div", "card-game"));
  updateCard(card, doc);
  return card;
}

/** "Table 4", or "Table 4 · board 2" for a board of a team match (EKML §29(2)). */
export function tableText(doc) {
  if (doc.table == null) return "";
  if (doc.board) return t("spec.table_board", { table: doc.table, board: doc.board });
  return t("spec.table", { table: doc.table });
}

/** Put a newer live document into an existing card (text only: the element stays put). */
export function updateCard(card, doc) {
  card.doc = doc;
  card.dataset.matchId = doc.match_id;
  card.dataset.status = doc.status;
  card.dataset.version = String(doc.version);
  card.querySelector(".card-table").textContent = tableText(doc);
  card.querySelector(".card-status").textContent = cardStatus(doc);
  const game = doc.game;
  const names = [doc.side_a || [], doc.side_b || []];
  names.forEach((players, i) => {
    const row = card.querySelector(`.card-side[data-side="${i}"]`);
    const turn = Boolean(game && !game.over && doc.status === "playing" && players.includes(game.turn));
    row.classList.toggle("has-turn", turn);
    // In pairs the ▶ goes before the one partner who shoots (EKML §28(1)), not the pair.
    const pairs = players.length > 1;
    row.querySelector(".turn-arrow").textContent = turn && !pairs ? "▶" : "";
    row.querySelector(".card-name").textContent = players
      .map((p) => (turn && pairs && p === game.turn ? `▶ ${p}` : p)).join(" / ");
    row.querySelector(".card-games").textContent = forfeited(doc) ? forfeitMark(doc, i) : String(doc.won?.[i] ?? 0);
    const left = game?.pucks?.[i]?.on_board;
    const pucks = row.querySelector(".card-pucks");
    pucks.textContent = left != null ? t("spec.pucks_left", { count: left }) : "";
    const shooter = turn && pairs ? game.turn : "";
    row.querySelector(".card-said").textContent = sideSaid(players, doc.won?.[i] ?? 0, turn, left, shooter);
  });
  card.querySelector(".card-game").textContent = game
    ? t("spec.game_of", { game: game.game_no, games: doc.games }) : cardStatus(doc);
}

function hidden(node) {
  node.setAttribute("aria-hidden", "true");
  return node;
}

/** One side of a card in words: "Mari Tamm, 1 game won, to play, 7 pucks left. " */
function sideSaid(players, won, turn, left, shooter = "") {
  const parts = [t("spec.sr.side", { name: players.join(" / "), count: won })];
  if (turn) parts.push(shooter ? t("spec.sr.shooter", { name: shooter }) : t("spec.sr.turn"));
  if (left != null) parts.push(t("spec.sr.pucks", { count: left }));
  return `${parts.join(", ")}. `;
}

/** The score of a match in one line: "Table 3: Mari Tamm 2, Jaan Kask 1, playing". */
export function scoreLine(doc) {
  const [a, b] = [(doc.side_a || []).join(" / "), (doc.side_b || []).join(" / ")];
  return t("spec.card_label", { table: doc.table ?? "—", a, b, wa: doc.won?.[0] ?? 0,
                                wb: doc.won?.[1] ?? 0, status: cardStatus(doc) });
}

/** The newest match of each table among live documents (the latest put on the table wins). */
export function newestPerTable(docs) {
  const tables = new Map();
  for (const doc of docs) {
    if (doc.table == null) continue;
    const held = tables.get(doc.table);
    if (!held || newer(doc, held)) tables.set(doc.table, doc);
  }
  return tables;
}

/** True when `doc` should replace `held` on its table. */
export function newer(doc, held) {
  if (doc.match_id === held.match_id) return doc.version >= held.version;
  return (doc.scheduled_position ?? 0) > (held.scheduled_position ?? 0);
}
