// A corrected event's editions on the spectators' page (decision 0191): each correction (what
// it changed, when, why, who) and the superseded edition it replaced, kept: its PDF and CSV.

import { dayAndTime, i18n, t } from "/js/i18n.js";
import { el } from "/js/spectator-dom.js";

/** A corrected event's editions (decision 0191): each correction — what it changed, when, why
 *  and who — with the edition it superseded, kept and marked so, its PDF and results file a
 *  link away; the standings PDF prints the same lines (`standings_pdf.edition_lines`). */
export function correctionNotes(id, corrections = []) {
  return corrections.map((c) => {
    const n = c.edition - 1;
    const words = { n, next: c.edition, when: c.at ? dayAndTime(new Date(c.at)) : "", was: c.was_name,
                    name: c.name, reason: c.reason, by: c.by };
    // the results file has no Icelandic headers: it is then in the event's own language
    const lang = (path) => (path.endsWith(".csv") && i18n.lang === "is" ? "" : `&lang=${i18n.lang}`);
    const file = (path, key) => el("a", { href: `/api/competitions/${id}/${path}?edition=${n}${lang(path)}`,
      "data-superseded-file": path, text: t(key, { n }) });
    return el("p", { class: "muted", "data-corrected": String(c.edition) }, t("spec.corrected", words), " ",
      el("span", { "data-superseded": String(n) }, t("spec.superseded", { n }), " ",
        file("standings.pdf", "spec.superseded_pdf"), " · ", file("results.csv", "spec.superseded_csv")));
  });
}
