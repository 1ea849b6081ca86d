// The venue screen's published standings in pages that fit its stage (decision 0136): the
// table laid out once, hidden, each row's height read, the rows dealt into columns that fit.
//   const pages = standingsPages(stage, event, columns);   // [{ key, build() }]

import { t } from "/js/i18n.js";
import { el } from "/js/spectator-dom.js";
import { standingsTable, withdrawalNotes } from "/js/spectator-competition.js";

// What a row says from 10 m: place, name, points, matches played, games. The W-D-L and puck
// columns stay on the spectators' page and in the files.
const SCREEN_COLUMNS = ["place", "name", "points", "played", "games"];

/** One page of an event: its heading and `columns` tables side by side. */
function page(event, slices, columns) {
  const box = el("div", { class: "standings-page", "data-standings-page": "",
                          "data-competition": event.id });
  box.style.setProperty("--columns", String(columns));
  const heading = el("h2", { text: `${event.name || ""} · ${t("screen.final_standings")}` });
  const tables = el("div", { class: "standings-columns" },
    ...slices.map((rows) => standingsTable(rows, event.sport, SCREEN_COLUMNS)));
  // Who withdrew and how it was ruled (EKML §32(3)), under the heading of every page of the
  // event (an annulled entrant has no row to be marked on): measured with the heading.
  box.append(heading, ...withdrawalNotes(event.withdrew), tables);
  return box;
}

/** Heights of the page's heading, the table's head and each row, laid out in `stage`. */
function measure(stage, event, columns) {
  const probe = page(event, [event.rows], columns);
  probe.classList.add("standings-probe");
  probe.setAttribute("aria-hidden", "true");
  stage.append(probe);
  const table = probe.querySelector("table");
  const heights = {
    top: table.getBoundingClientRect().top - probe.getBoundingClientRect().top,
    head: table.tHead.getBoundingClientRect().height,
    rows: [...table.tBodies[0].rows].map((row) => row.getBoundingClientRect().height),
  };
  probe.remove();
  return heights;
}

/** The rows in columns of at most `room` px, shared alike: never a lone row (issue 54). */
export function deal(rows, heights, room) {
  const filled = fill(rows, heights, room, rows.length);
  const even = fill(rows, heights, room, Math.ceil(rows.length / Math.max(1, filled.length)));
  return even.length === filled.length ? even : filled;
}

/** Columns of at most `room` pixels and `most` rows each. */
function fill(rows, heights, room, most) {
  const columns = [];
  let current = [];
  let used = 0;
  rows.forEach((row, i) => {
    if (current.length && (used + heights[i] > room || current.length >= most)) {
      columns.push(current);
      current = [];
      used = 0;
    }
    current.push(row);
    used += heights[i];
  });
  if (current.length) columns.push(current);
  return columns;
}

/** The event's pages for this stage: each `{ key, build }`, `build()` making its element. */
export function standingsPages(stage, event, columns) {
  const heights = measure(stage, event, columns);
  const room = stage.clientHeight - heights.top - heights.head - 2;
  const dealt = deal(event.rows, heights.rows, room);
  const pages = [];
  for (let i = 0; i < dealt.length; i += columns) {
    const slices = dealt.slice(i, i + columns);
    pages.push({ kind: "standings", key: `standings:${event.id}:${event.version}:${i}`,
                 build: () => page(event, slices, columns) });
  }
  return pages;
}
