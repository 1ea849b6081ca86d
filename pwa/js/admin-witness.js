// The head judge's console and the witnesses outside this machine (#41, point 6): on top of
// every view, when the newest witness (a tablet's or a mirror's file collected here, or a
// standby holding every commit) is older than the checkpoint interval, a warning in the
// console's language (with a federation, "witnessed by the federation at HH:MM, position N"
// in its place: issue 49), with a file picker that collects the tablets' exported witness files
// into the audit (POST /api/witnesses: each checked and recorded as an event).
//
//   import { watchWitnesses } from "/js/admin-witness.js";
//   const look = watchWitnesses(notices, () => app.role)  // polls GET /api/witnesses/newest
//   await look()   // the first look, before the console paints

import { i18n, t } from "/js/i18n.js";
import { ApiError, describe, headers, parse, request, serverFetch } from "/js/api.js";
import { h } from "/js/admin-dom.js";

const EVERY_MS = 30_000;
const LOOK_MS = 4_000;

async function collect(files) {
  for (const file of files) {
    const reply = await serverFetch("/api/witnesses", {
      method: "POST",
      headers: headers({ "Content-Type": "application/jsonl" }),
      body: await file.text(),
    }).catch((error) => { throw new ApiError(0, { title: t("error.network"), detail: String(error) }); });
    await parse(reply);
  }
}

const byFederation = (seen) => seen?.source === "federation" && seen.position != null;

/** HH:MM of an ISO instant, on the device's clock (24-hour in every face language). */
const hhmm = (iso) => new Date(iso).toLocaleTimeString(i18n.lang, { hour: "2-digit", minute: "2-digit", hour12: false });

/** The warning and the picker in `notices`, to a head judge when stale; returns the look. */
export function watchWitnesses(notices, role) {
  const text = h("span", {});
  const said = h("span", { className: "muted small", "data-witness-said": true });
  const picker = h("input", { type: "file", multiple: true, accept: ".jsonl,.json,application/json",
                              id: "witness-files", "data-witness-files": true });
  const label = h("label", { for: "witness-files" });
  const banner = h("div", { className: "banner", role: "status", hidden: true, "data-kind": "warning",
                            "data-witness-age": "unknown" }, text, label, picker, said);
  notices.append(banner);
  let seen = null;
  const words = () => {
    label.textContent = t("admin.witness.collect");
    if (!seen) return;
    const when = seen.at ? new Date(seen.at).toLocaleString(i18n.lang) : null;
    text.textContent = byFederation(seen)
      ? t("admin.witness.federation", { time: hhmm(seen.at), n: seen.position })
      : when
        ? t("admin.witness.stale", { when, source: t(`admin.witness.source.${seen.source}`), m: seen.interval_minutes })
        : t("admin.witness.none", { m: seen.interval_minutes });
  };
  const look = async () => {
    if (role() !== "head_judge") { banner.hidden = true; return; }
    seen = await request("GET", "/api/witnesses/newest", undefined,
                         { signal: AbortSignal.timeout(LOOK_MS) }).catch(() => null);
    // the federation's acknowledgement is said even while fresh: the witness outside (#49)
    banner.hidden = !seen?.stale && !byFederation(seen);
    const witnessed = byFederation(seen) && !seen.stale;
    banner.dataset.kind = witnessed ? "ok" : "warning";
    label.hidden = picker.hidden = witnessed;  // nothing to collect: the federation holds it
    banner.dataset.witnessAge = seen ? (seen.stale ? "stale" : "fresh") : "unknown";
    banner.dataset.witnessSource = seen?.source || "none";
    words();
  };
  picker.addEventListener("change", async () => {
    try {
      await collect([...picker.files]);
      said.textContent = t("admin.witness.collected", { n: picker.files.length });
    } catch (error) {
      said.textContent = describe(error);
    }
    picker.value = "";
    await look();
  });
  i18n.addEventListener("change", words);
  setInterval(look, EVERY_MS);
  return look;
}
