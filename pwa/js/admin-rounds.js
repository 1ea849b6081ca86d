// The draw and the rounds: make the draw (a recorded seed), pair the next Swiss round, draw
// the play-off, import a round (CSV / Swiss Master XLSX), export results; rounds and bracket.

import { i18n, t } from "/js/i18n.js";
import { headers, parse, serverFetch } from "/js/api.js";
import { h, held, section, submit } from "/js/admin-dom.js";

const SWISS = ["swiss", "swiss_playoff"];

function seed() { return Math.floor(Math.random() * 1_000_000) + 1; }

function names(doc) { return Object.fromEntries(doc.entrants.map((e) => [e.id, e.name])); }

/** Whether every pairing of the last round has its result. */
export function roundComplete(doc) {
  const last = doc.rounds.at(-1);
  return !!last && last.pairings.every((p) => p.result);
}

export function roundsView(ctx, doc) {
  const head = ctx.role() === "head_judge";
  const swiss = SWISS.includes(doc.guide.format);
  const buttons = [];
  const act = (key, command, enabled) => h("button", { type: "button", className: "primary",
    "data-action": key, disabled: !enabled || !head,
    onclick: () => ctx.attempt(() => ctx.desk.command(command())) }, t(`admin.rounds.${key}`));
  const drawn = doc.order.length > 0 || doc.bracket.length > 0;
  // Before the guide's draw time the head judge may still draw (EKML §12(2)2): the button
  // says so, and the command carries it (the engine refuses an early draw without it).
  const early = !drawn && doc.guide.draw_at && Date.now() < Date.parse(doc.guide.draw_at);
  const draw = act("draw", () => ({ type: "MakeDraw", seed: seed(), ...(early ? { early: true } : {}) }), !drawn);
  if (early) {
    draw.textContent = t("admin.rounds.draw_early", {
      time: new Date(doc.guide.draw_at).toLocaleTimeString(i18n.lang, { hour: "2-digit", minute: "2-digit" }) });
  }
  buttons.push(draw);
  if (swiss) {
    const more = doc.rounds.length < doc.guide.rounds;
    buttons.push(act("pair_next", () => ({ type: "PairNextRound", seed: seed() }),
                     drawn && more && roundComplete(doc)));
  }
  if (doc.guide.format === "swiss_playoff") buttons.push(act("playoff", () => ({ type: "DrawPlayoff" }), true));
  const parts = [h("div", { className: "cluster" }, buttons,
    h("a", { className: "button", href: `/api/competitions/${ctx.desk.id}/results.csv`,
             download: "results.csv", "data-export": true }, t("admin.rounds.export")),
    h("a", { className: "button", href: `/api/competitions/${ctx.desk.id}/results.xlsx`,
             download: "results.xlsx", "data-export": "xlsx" }, t("admin.rounds.export_xlsx")))];
  if (swiss && head) parts.push(held(`import ${ctx.desk.id}`, [], () => importForm(ctx)));
  // A round count only where there are rounds, out of as many as the format has: the guide's
  // for a Swiss, the Berger table's for a round robin (all paired at the draw); none for a
  // bracket, and none before the draw.
  if (doc.rounds.length) {
    const rounds = swiss ? doc.guide.rounds : doc.rounds.length;
    const round = swiss ? doc.rounds.length : currentRound(doc);
    parts.push(h("p", { "data-round-status": roundComplete(doc) ? "complete" : "open",
                        "data-rounds": doc.rounds.length, "data-current-round": round, "data-of": rounds },
      t("admin.rounds.status", { round, rounds })));
  }
  return h("div", { className: "stack" }, section("admin.rounds.title", ...parts),
           ...doc.rounds.slice().reverse().map((r) => roundTable(r, doc)),
           doc.bracket.length ? bracketTable(doc) : null);
}

/** A round robin's round in play: the first with a match still to play (the last when all
 *  are played). */
function currentRound(doc) {
  const open = doc.rounds.find((r) => r.pairings.some((p) => !doc.results[p.match_id]));
  return (open || doc.rounds.at(-1)).round;
}

function importForm(ctx) {
  const file = h("input", { type: "file", id: "f-import", accept: ".csv,.xlsx,text/csv" });
  return h("form", { className: "cluster", "data-keep": true, onsubmit: async (e) => {
    e.preventDefault();
    const chosen = file.files[0];
    if (!chosen) return;
    const kind = chosen.name.toLowerCase().endsWith(".xlsx") ? "xlsx" : "csv";
    await submit(ctx, e, async () => {
      const params = new URLSearchParams({ expected_version: ctx.desk.version, format: kind,
                                           command_id: crypto.randomUUID() });
      const reply = await serverFetch(`/api/competitions/${ctx.desk.id}/rounds/import?${params}`,
        { method: "POST", headers: headers(), body: chosen });
      const body = await parse(reply);
      await ctx.desk.settle(body.positions.at(-1));
    });
  } },
  h("label", { for: "f-import" }, t("admin.rounds.import")), file,
  h("button", { type: "submit" }, t("admin.rounds.import_go")));
}

/** A result as the standings count it (issue 45: one story with the files and the table):
 *  a withdrawal below the line annuls it (EKML §32(3)), a forfeit has no games, only who
 *  it went to; a played match its games (a backgammon match's points). */
function score(doc, id) {
  const r = doc.results[id];
  if (!r) return "–";
  const voided = [r.a, r.b].some((e) => doc.withdrawals?.[e] && !doc.withdrawals[e].results_stand);
  if (voided) return t("admin.annulled");
  if (r.forfeit) {
    const who = names(doc);
    const winner = r.a_games > r.b_games || (r.score && r.score[0] > r.score[1]) ? r.a : r.b;
    return t("admin.forfeit_to", { name: who[winner] || winner });
  }
  const [a, b] = r.score || [r.a_games, r.b_games]; // a backgammon match: its points
  return `${a} : ${b}`;
}

function roundTable(r, doc) {
  const who = names(doc);
  return h("section", { className: "panel", "data-round": r.round },
    h("h3", {}, t("admin.rounds.round", { round: r.round })),
    h("table", { className: "grid-table" },
      h("thead", {}, h("tr", {}, ["admin.col.table", "admin.col.a", "admin.col.b",
        "admin.col.result"].map((k) => h("th", {}, t(k))))),
      h("tbody", {}, r.pairings.map((p) => h("tr", { "data-match": p.match_id },
        h("td", {}, p.table ?? "–"), h("td", {}, who[p.a]), h("td", {}, who[p.b]),
        h("td", {}, score(doc, p.match_id)))))),
    r.bye ? h("p", {}, t("admin.rounds.bye", { name: who[r.bye] })) : null);
}

function bracketTable(doc) {
  const who = { ...names(doc), "—": t("admin.bye") };
  return section("admin.rounds.bracket", h("table", { className: "grid-table", "data-bracket": true },
    h("thead", {}, h("tr", {}, ["admin.col.match", "admin.col.a", "admin.col.b",
      "admin.col.winner"].map((k) => h("th", {}, t(k))))),
    h("tbody", {}, doc.bracket.map((s) => h("tr", { "data-slot": s.id },
      h("td", {}, `${t(`admin.stage.${s.stage}`)} · ${s.id}`), h("td", {}, who[s.a] ?? "…"), h("td", {}, s.not_needed ? "–" : who[s.b] ?? "…"),
      h("td", {}, slotWinner(s, who)))))));
}

/** A bracket match's outcome: its winner (a forfeit said so), or that it was not needed (the
 *  grand final's replay when the winners' champion won the first). */
function slotWinner(s, who) {
  if (s.not_needed) return t("admin.bracket.not_needed");
  return who[s.winner] ? `${who[s.winner]}${s.walkover ? ` (${t("admin.forfeit")})` : ""}` : "";
}
