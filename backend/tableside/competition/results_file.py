"""The results file (`results.csv` / `results.xlsx`) in the event's language: its column
headers and its kinds of row (played, forfeit, bye…) in the console's words (`admin.<lang>`);
without a language asked for, the language of the guide's rules (EKML: Estonian, LV:
Latvian, else English)."""

from __future__ import annotations

from typing import Any

import msgspec

from tableside.competition.rules import interop
from tableside.competition.rules.state import Competition, Correction
from tableside.match.exports.labels import console_words, when

_RULESET_LANGUAGE = {"EKML": "et", "LV": "lv"}


def event_language(state: Competition) -> str:
    """The event's language as its guide's rules give it."""
    return _RULESET_LANGUAGE.get(state.guide.ruleset, "en") if state.guide else "en"


def results_words(state: Competition, lang: str | None) -> tuple[tuple[str, ...], dict[str, str]]:
    """The header words and the kinds' words of a results file."""
    w = console_words(lang or event_language(state))
    header = tuple(w[f"admin.results.col.{c}"] for c in interop.COLUMNS)
    kinds = {k: w[f"admin.results.kind.{k}"] for k in interop.KINDS}
    return header, kinds


def edition_column(
    state: Competition, lang: str | None, superseded: Correction | None = None
) -> tuple[str, str] | None:
    """The edition's column of a corrected event's results file (decision 0191): its header
    and its words — the number, or for an earlier edition the one superseding it, when, who
    and why; None while the published results were never corrected."""
    if not state.corrections and superseded is None:
        return None
    w = console_words(lang or event_language(state))
    if superseded is None:
        return w["admin.results.col.edition"], str(state.edition)
    words = w["admin.results.edition_superseded"]
    for key, value in correction_values(msgspec.to_builtins(superseded)).items():
        words = words.replace("{" + key + "}", value)
    return w["admin.results.col.edition"], words


def correction_values(c: dict[str, Any]) -> dict[str, str]:
    """The blanks of a correction's words (a `Correction` as the document holds it): the
    edition it superseded, its own, when, what changed, why and who."""
    return {
        "n": str(c["edition"] - 1),
        "next": str(c["edition"]),
        "when": when(c["at"]),
        "was": c["was_name"],
        "name": c["name"],
        "reason": c["reason"],
        "by": c["by"],
    }


def results_csv(
    state: Competition, lang: str | None = None, superseded: Correction | None = None
) -> bytes:
    """The results file as CSV."""
    edition = edition_column(state, lang, superseded)
    return interop.results_csv(state, *results_words(state, lang), edition)


def results_xlsx(
    state: Competition, lang: str | None = None, superseded: Correction | None = None
) -> bytes:
    """The results file as a workbook, its sheet named in the file's language."""
    title = console_words(lang or event_language(state))["admin.results.sheet"]
    edition = edition_column(state, lang, superseded)
    return interop.results_xlsx(state, *results_words(state, lang), edition, title)
