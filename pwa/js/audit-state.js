// The derived game state at one point of the record, as a small table the jury can read
// aloud: games won, the game, whose turn, each side's pucks, debts and remarks. Every value
// cell carries data-field / data-side so two points can be compared cell by cell.
//
//   import { stateTable, stateValues } from "/js/audit-state.js";
//   panel.replaceChildren(stateTable(doc, otherDoc));   // cells that differ get .differs
//   stateTable(doc, other, { values, names })  // another discipline's rows (audit-bg.js)

import { t } from "/js/i18n.js";

/** The compared values of a live document: [field, side A, side B] (side-less in A). */
export function stateValues(doc) {
  const game = doc?.game;
  const pucks = (i, key) => game?.pucks?.[i]?.[key] ?? "—";
  return [
    ["status", t(`spec.status.${doc?.status || "scheduled"}`), null],
    ["game", game ? String(game.game_no) : "—", null],
    ["turn", game?.turn || "—", null],
    ["won", String(doc?.won?.[0] ?? 0), String(doc?.won?.[1] ?? 0)],
    ["on_board", String(pucks(0, "on_board")), String(pucks(1, "on_board"))],
    ["pocketed", String(pucks(0, "pocketed")), String(pucks(1, "pocketed"))],
    ["debt", String(pucks(0, "debt")), String(pucks(1, "debt"))],
    ["remarks", String(doc?.remarks?.[0] ?? 0), String(doc?.remarks?.[1] ?? 0)],
  ];
}

const fieldLabel = (field) => t(`audit.field.${field}`);

function cell(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  node.textContent = text;
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

/** A table of the state; with `other`, cells whose value differs from it are marked.
 *  `values` gives the rows ([field, side A, side B]), `names` the two column heads, `label` a
 *  row's words. */
export function stateTable(doc, other = null, { values = stateValues, names = null, label = fieldLabel } = {}) {
  const theirs = other ? values(other) : null;
  const table = document.createElement("table");
  table.className = "state";
  names ??= [(doc?.side_a || []).join(" / ") || "A", (doc?.side_b || []).join(" / ") || "B"];
  const head = document.createElement("tr");
  // The corner names its column (the field), so every header cell says something.
  head.append(cell("th", t("audit.field.name"), { scope: "col" }),
              cell("th", names[0], { scope: "col", class: "side-0" }),
              cell("th", names[1], { scope: "col", class: "side-1" }));
  table.append(head);
  values(doc).forEach(([field, a, b], row) => {
    const tr = document.createElement("tr");
    tr.append(cell("th", label(field), { scope: "row" }));
    const values = b === null ? [a] : [a, b];
    values.forEach((value, side) => {
      const td = cell("td", value, { "data-field": field, "data-side": String(side) });
      if (b === null) td.colSpan = 2;
      const was = theirs?.[row]?.[side + 1];
      if (theirs && was !== value) td.classList.add("differs");
      tr.append(td);
    });
    table.append(tr);
  });
  return table;
}
