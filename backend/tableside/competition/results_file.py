"""The results file (`results.csv` / `results.xlsx`) in the event's language: its column
headers and its kinds of row (played, forfeit, bye…) in the console's words (`admin.<lang>`);
without a language asked for, the language of the guide's rules (EKML: Estonian, LV:
Latvian, else English)."""

from __future__ import annotations

from tableside.competition.rules import interop
from tableside.competition.rules.state import Competition
from tableside.match.exports.labels import console_words

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


def results_csv(state: Competition, lang: str | None = None) -> bytes:
    """The results file as CSV."""
    return interop.results_csv(state, *results_words(state, lang))


def results_xlsx(state: Competition, lang: str | None = None) -> bytes:
    """The results file as a workbook."""
    return interop.results_xlsx(state, *results_words(state, lang))
