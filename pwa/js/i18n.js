// Messages in Estonian, Latvian and English (and Icelandic on the faces that declare it):
// picked from the address (`?lang=is`, then remembered), else the remembered choice, else the
// browser's language; switchable; the buttons always in one order (et, lv, en, is).
//
//   import { i18n, t } from "/js/i18n.js";
//   await i18n.ready;                 // the first language is loaded
//   t("sync.queued", { count: 3 })    // "Queued 3"
//   i18n.set("lv")                    // loads lv.json, re-labels [data-i18n], fires "change"
//   <span data-i18n="term.puck"></span>, <button data-i18n-aria-label="judge.undo">
//   <language-picker></language-picker> three large buttons, one per language
//   <html data-i18n-faces="judge"> also loads /i18n/judge.{lang}.json (a face's own keys,
//   so each face keeps its messages in files of its own; shared words stay in {lang}.json)
//   codeWords("direct_opponent_first")  // the engine's codes in words, from codes.{lang}.json
//   <html data-languages="is en et lv"> a face offering other languages than the shared three
//   (the faces of a KSI event add Icelandic, the engine codes' words included:
//   see docs/decisions/, "Icelandic on the backgammon faces")
//
// A missing key shows the key itself, so a gap is visible in the page, not hidden.

const SHARED = ["et", "lv", "en"]; // the languages every face has
const ORDER = ["et", "lv", "en", "is"]; // the buttons' one order on every face (decision 0131)
const FALLBACK = "en";
const STORAGE_KEY = "tableside.language";

/** The languages this page offers (`<html data-languages>`, else the shared three), in the
 *  one order every face shows its buttons in. */
function pageLanguages() {
  const declared = (document.documentElement.dataset.languages || "").split(/\s+/).filter(Boolean);
  const offered = declared.length ? declared : SHARED;
  return ORDER.filter((lang) => offered.includes(lang));
}

export const LANGUAGES = pageLanguages();

/** The browser's first preferred language we have, else English. */
export function preferredLanguage(languages = navigator.languages || [navigator.language]) {
  for (const tag of languages) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return FALLBACK;
}

/** The language the page's address asks for (`?lang=is`), when this page offers it: a link
 *  shared in a language opens in it, over the browser's language and a remembered choice. */
export function askedLanguage(search = location.search) {
  const lang = new URLSearchParams(search).get("lang");
  return LANGUAGES.includes(lang) ? lang : null;
}

function remembered() {
  try {
    const lang = localStorage.getItem(STORAGE_KEY);
    return LANGUAGES.includes(lang) ? lang : null;
  } catch {
    return null; // storage can be disabled; then we simply do not remember
  }
}

class I18n extends EventTarget {
  constructor() {
    super();
    this.lang = FALLBACK;
    this.messages = {};
    // If the messages cannot be had (first visit, no network), the page keeps the English
    // text its HTML carries: better than a page of bare keys, or none at all.
    const asked = askedLanguage(); // remembered once loaded, like a tap on its button
    this.ready = this.set(asked || remembered() || preferredLanguage(), { remember: Boolean(asked) })
      .catch((error) => { console.warn(error); return this.lang; });
  }

  /** Switch language: load its messages, label the document, remember the choice. */
  async set(lang, { remember = true } = {}) {
    if (!LANGUAGES.includes(lang)) throw new Error(`unknown language ${lang}`);
    const files = [`/i18n/${lang}.json`, `/i18n/codes.${lang}.json`, ...faces().map((face) => `/i18n/${face}.${lang}.json`)];
    const loaded = await Promise.all(files.map(load));
    this.messages = Object.assign({}, ...loaded);
    this.lang = lang;
    if (remember) {
      try { localStorage.setItem(STORAGE_KEY, lang); } catch { /* not remembered */ }
    }
    document.documentElement.lang = lang;
    translate(document);
    this.dispatchEvent(new CustomEvent("change", { detail: { lang } }));
    return lang;
  }

  /** The message for key in the current language, with {name} placeholders filled. With a
   *  numeric `count`, the language's plural form of it where the catalogue has one
   *  (`key.one`, `key.zero`, … by Intl.PluralRules: "1 match", Latvian "10 spēļu"). */
  t(key, params = {}) {
    const form = typeof params.count === "number"
      ? this.messages[`${key}.${new Intl.PluralRules(this.lang).select(params.count)}`] : undefined;
    const text = form ?? this.messages[key] ?? key;
    return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
  }
}

/** The faces whose own message files this page loads: `<html data-i18n-faces="judge">`. */
function faces() {
  const names = document.documentElement.dataset.i18nFaces || "";
  return names.split(/\s+/).filter(Boolean);
}

async function load(url) {
  const reply = await fetch(url);
  if (!reply.ok) throw new Error(`messages ${url}: ${reply.status}`);
  return reply.json();
}

export const i18n = new I18n();
export const t = (key, params) => i18n.t(key, params);

/** A standings row's place: a shared range as "5–6" (a bracket's round, a tie nothing
 *  breaks), else the one place. */
/** A number as the page's language writes it: 2,5 in Estonian and Latvian, 2.5 in English. */
export function number(x) {
  return new Intl.NumberFormat(i18n.lang, { maximumFractionDigits: 2, useGrouping: false }).format(x);
}

/** "28.11.2026 14:05" in every language, as the standings PDF writes it. */
export function dayAndTime(d) {
  const two = (n) => String(n).padStart(2, "0");
  return `${two(d.getDate())}.${two(d.getMonth() + 1)}.${d.getFullYear()} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

export function placeLabel(first, last = first) {
  return last > first ? `${first}–${last}` : String(first);
}

/** A rule citation in the reader's language: the Estonian regulations' "märkus" (a note to a
 *  paragraph) reads "note" in English and "piezīme" in Latvian; a silence the guide filled
 *  ("LV is silent; EKML §20(20) applied, by the guide") and one left unfilled ("LV is
 *  silent"), a prohibition of the ruleset's own with a sanction the guide borrowed ("LV 13.2;
 *  sanction: EKML §24(1)10, by the guide") or none ("LV 13.2; LV names no sanction"), each in
 *  the reader's words; the paragraph
 *  stays as cited (the protocol's `citation` in labels.py). */
export const citation = (rule) => String(rule || "")
  .replace(/; sanction: (.+?), by the guide/g, (_whole, cited) => `; ${t("term.sanction_filled", { rule: cited })}`)
  .replace(/(\w+) names no sanction/g, (_whole, ruleset) => t("term.no_sanction", { ruleset }))
  .replace(/(\w+) is silent; (.+?) applied, by the guide/g,
           (_whole, ruleset, cited) => t("term.guide_filled", { ruleset, rule: cited }))
  .replace(/(\w+) is silent(?!;)/g, (_whole, ruleset) => t("term.silent", { ruleset }))
  .replace(/märkus/g, t("term.note"));

/** A message in a ruleset's own words where it has them ("judge.remark.NOVUS08": NOVUS08
 *  calls its counted remark *hoiatus*), else the common message. */
export function rulesetWords(key, ruleset, params) {
  const own = `${key}.${ruleset}`;
  const said = t(own, params);
  return said === own ? t(key, params) : said;
}

/** One of the engine's codes (a foul, a reason, a remark, an opening method…) in words; the
 *  words live in i18n/codes.<lang>.json, one home for every face and the protocol PDF. A code
 *  without words shows as `code.<code>`, visible, so the words crawler finds it. */
export const codeWords = (code) => t(`code.${code}`);

/** A refusal's words by its code (every refusal the server raises names one; its figures in
 *  `params`, decision 0130), else `fallback` (what the server said). */
export function refusalText(code, params = {}, fallback = "") {
  const said = code ? t(`code.${code}`, params || {}) : "";
  return said && said !== `code.${code}` ? said : fallback || "";
}

/** A reason a person may have typed (a head judge's correction) or a code: words for a code,
 *  the text as written otherwise. */
export const reasonWords = (reason) => {
  const words = t(`code.${reason}`);
  return words === `code.${reason}` ? String(reason || "") : words;
};

/** Fill text (data-i18n) and aria-label (data-i18n-aria-label) under root. */
export function translate(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-aria-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nAriaLabel));
  }
}

/** Three buttons, each language named in itself, so anyone can find their own.
 *  The visible code ("LV") starts the accessible name ("LV Latviešu"): voice control's
 *  "click LV" works (WCAG 2.5.3 Label in Name) and a screen reader still says the language. */
class LanguagePicker extends HTMLElement {
  connectedCallback() {
    this.setAttribute("role", "group");
    this.onChange = () => this.render();
    i18n.addEventListener("change", this.onChange);
    this.render();
  }

  disconnectedCallback() {
    i18n.removeEventListener("change", this.onChange);
  }

  render() {
    this.setAttribute("aria-label", t("language.choose"));
    this.replaceChildren(...LANGUAGES.map((lang) => this.button(lang)));
  }

  button(lang) {
    const button = document.createElement("button");
    button.type = "button";
    button.lang = lang;
    button.dataset.lang = lang;
    const name = document.createElement("span");
    name.className = "visually-hidden";
    name.textContent = ` ${NAMES[lang]}`;
    button.append(lang.toUpperCase(), name);
    button.setAttribute("aria-pressed", String(lang === i18n.lang));
    button.addEventListener("click", () => i18n.set(lang).catch((error) => console.warn(error)));
    return button;
  }
}

// Each language's name in itself (not translated: a lost reader must recognise their own).
const NAMES = { et: "Eesti", lv: "Latviešu", en: "English", is: "Íslenska" };

customElements.define("language-picker", LanguagePicker);
