"""The rulesets side by side: every rule key, what EKML, LV and NOVUS08 cite for it.

`docs/korona-rulesets.md` holds this table as written by `markdown_table()`; a test keeps the
two equal, so the document cannot go stale."""

from __future__ import annotations

from tableside.disciplines.korona.rulesets import EKML, Ruleset
from tableside.disciplines.korona.rulesets_variants import LV, NOVUS08

_TABLES = ("stroke_offences", "incidents", "remarks", "cite")


def _entries(rs: Ruleset) -> dict[tuple[str, str], str]:
    """(table, key) → "consequence: rule" for outcomes, the rule for citations."""
    out: dict[tuple[str, str], str] = {}
    for table in _TABLES:
        for key, value in getattr(rs, table).items():
            out[table, key] = (
                value if isinstance(value, str) else f"{value.consequence}: {value.rule}"
            )
    return out


def _short(rule: str, name: str) -> str:
    """A filled silence, shortly: "silent → EKML §24(1)7"; the ruleset's own text as cited."""
    short = rule.replace(f"{name} is silent; ", "silent → ").replace(" applied, by the guide", "")
    return short.replace("; sanction: ", "; sanction → ").replace(", by the guide", "")


def rows() -> list[tuple[str, str, str, str, str]]:
    """(table, key, EKML, LV, NOVUS08) for every key where LV or NOVUS08 is not EKML's text
    alone: its own paragraph, a different consequence, or no such rule ("—")."""
    ekml, lv, novus = _entries(EKML), _entries(LV), _entries(NOVUS08)
    out = []
    for table, key in sorted({*ekml, *lv, *novus}):
        e, l_, n = (d.get((table, key), "—") for d in (ekml, lv, novus))
        filled = {"LV": f"silent → {e}", "NOVUS08": f"silent → {e}"}
        shown = (_short(l_, "LV"), _short(n, "NOVUS08"))
        if shown != (filled["LV"], filled["NOVUS08"]):
            out.append((table, key, e, *shown))
    return out


def markdown_table() -> str:
    """The table in docs/korona-rulesets.md."""
    head = "| table | rule key | EKML | LV | NOVUS08 |\n|---|---|---|---|---|\n"
    return head + "".join(f"| {' | '.join(r)} |\n" for r in rows())
