// The head judge's rulings: forfeits after a no-show, protests, result corrections.

import { t } from "/js/i18n.js";
import { h, field, held, section, submit } from "/js/admin-dom.js";
import { ksiRulingsView } from "/js/admin-bg-rulings.js";

function names(doc) { return Object.fromEntries(doc.entrants.map((e) => [e.id, e.name])); }

function result(prefix) {
  const a = h("input", { type: "number", min: 0, max: 15, value: 0, id: `${prefix}-a`, name: "a_games" });
  const b = h("input", { type: "number", min: 0, max: 15, value: 0, id: `${prefix}-b`, name: "b_games" });
  const p = h("input", { type: "number", min: -200, max: 200, value: 0, id: `${prefix}-p`, name: "pucks" });
  const read = () => ({ a_games: Number(a.value), b_games: Number(b.value), a_pucks_diff: Number(p.value) });
  return { read, fields: [field(`admin.rulings.a_games`, a), field(`admin.rulings.b_games`, b),
                          field(`admin.rulings.pucks`, p)] };
}

export function rulingsView(ctx, doc) {
  if (doc.guide?.sport === "backgammon") return ksiRulingsView(ctx); // KSI 5, not EKML
  const head = ctx.role() === "head_judge";
  const who = names(doc);
  const matches = played(doc, who);
  return h("div", { className: "stack" },
    section("admin.rulings.no_shows", noShows(ctx, doc, who, head)),
    section("admin.rulings.protests", protests(ctx, doc, who, head),
      held(`protest ${ctx.desk.id}`, [matches, doc.entrants.map((e) => [e.id, e.name])],
           () => fileProtest(ctx, doc, matches))),
    head ? section("admin.rulings.correct",
      held(`correct ${ctx.desk.id}`, matches, () => correct(ctx, matches))) : null);
}

function noShows(ctx, doc, who, head) {
  if (!doc.no_shows.length) return h("p", {}, t("admin.rulings.none"));
  return h("ul", { className: "stack" }, doc.no_shows.map((n) => h("li", { className: "cluster" },
    h("span", { className: "grow" }, t("admin.rulings.absent", { match: n.match_id, name: who[n.absent] })),
    h("button", { type: "button", className: "primary", disabled: !head, "data-forfeit": n.match_id,
      onclick: () => ctx.attempt(() => ctx.desk.command({ type: "ConfirmForfeit", match_id: n.match_id })) },
      t("admin.rulings.confirm_forfeit")))));
}

function protests(ctx, doc, who, head) {
  if (!doc.protests.length) return h("p", {}, t("admin.rulings.none"));
  return h("ul", { className: "stack" }, doc.protests.map((p) => {
    const decide = (upheld) => ctx.attempt(() => ctx.desk.command({ type: "DecideProtest",
      protest_id: p.protest_id, upheld, note: "" }));
    return h("li", { className: "cluster", "data-protest": p.protest_id },
      h("span", { className: "grow" }, `${p.match_id} · ${who[p.by]} · ${p.rule_cited}`),
      p.decided ? h("strong", {}, t(p.upheld ? "admin.rulings.upheld" : "admin.rulings.rejected"))
        : [h("button", { type: "button", disabled: !head, onclick: () => decide(true) }, t("admin.rulings.uphold")),
           h("button", { type: "button", disabled: !head, onclick: () => decide(false) }, t("admin.rulings.reject"))]);
  }));
}

function played(doc, who) {
  return Object.entries(doc.results).map(([id, r]) => [id, `${id}: ${who[r.a]} – ${who[r.b]}`]);
}

function options(select, items) {
  select.replaceChildren(...items.map(([v, label]) => h("option", { value: v }, label)));
  return select;
}

function fileProtest(ctx, doc, matches) {
  const match = options(h("select", { id: "f-protest-match" }), matches);
  const by = options(h("select", { id: "f-protest-by" }), doc.entrants.map((e) => [e.id, e.name]));
  const rule = h("input", { id: "f-protest-rule", placeholder: "EKML §25(1)" });
  const text = h("input", { id: "f-protest-text" });
  return h("form", { className: "stack", "data-keep": true, "data-protest-form": true,
    onsubmit: (e) => submit(ctx, e, () => ctx.desk.command({ type: "FileProtest",
      protest_id: crypto.randomUUID().slice(0, 8), match_id: match.value, by: by.value,
      rule_cited: rule.value, text: text.value, appealed_at_once: true })) },
  h("h3", {}, t("admin.rulings.file")), field("admin.col.match", match), field("admin.rulings.by", by),
  field("admin.rulings.rule", rule), field("admin.rulings.text", text),
  h("button", { type: "submit" }, t("admin.rulings.file_go")));
}

function correct(ctx, matches) {
  const match = options(h("select", { id: "f-correct-match" }), matches);
  const res = result("f-correct");
  const reason = h("input", { id: "f-correct-reason", required: true });
  return h("form", { className: "stack", "data-keep": true, "data-correct": true,
    onsubmit: (e) => submit(ctx, e, () => ctx.desk.command({ type: "CorrectResult",
      match_id: match.value, result: res.read(), reason: reason.value })) },
  field("admin.col.match", match), h("div", { className: "cluster" }, res.fields),
  field("admin.rulings.reason", reason), h("button", { type: "submit", className: "primary" }, t("admin.rulings.correct_go")));
}
