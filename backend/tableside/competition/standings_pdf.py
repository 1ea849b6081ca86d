"""A competition's standings as a PDF to pin on the wall or send to the federation (issue 13,
point 4): the table the console shows — place, name, points, played, W-D-L with the pluses
and minuses of unplayed matches (EKML §32(3)1), games, pucks, tie-breaks in the guide's order
— then the final placings, in the console's own words (`admin.<lang>.json`)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from tableside.competition.docs import withdrawal_kind
from tableside.competition.results_file import correction_values
from tableside.competition.rules import sports
from tableside.match.exports.labels import citation, console_words, when
from tableside.match.exports.pdf import document, heading, notice, table

_COLUMNS = (
    "admin.col.place",
    "admin.col.name",
    "admin.col.points",
    "admin.col.played",
    "admin.standings.wdl_short",
    "admin.col.games",
    "admin.col.pucks",
    "admin.col.tie_breaks",
)
_WIDTHS = (16, 44, 18, 16, 26, 18, 18, 34)
# A sport played to points: its games columns hold points won and lost, and it has no pucks.
_BG_COLUMNS = tuple(
    {
        "admin.col.games": "admin.col.bg_points",
        "admin.standings.wdl_short": "admin.standings.wl_short",
    }.get(k, k)
    for k in _COLUMNS
    if k != "admin.col.pucks"
)
_BG_WIDTHS = (16, 50, 18, 16, 26, 30, 34)
_NEXT: dict[str, Any] = {"new_x": "LMARGIN", "new_y": "NEXT"}  # the next line starts at the margin


def standings_pdf(
    doc: dict[str, Any], rows: list[dict[str, Any]], lang: str = "en", said: str | None = None
) -> bytes:
    """The PDF bytes of one competition's standings in one language; with `said`, the
    record's notice under the title (#50: the record is disputed)."""
    w = console_words(lang)
    pdf = document(f"{doc['guide']['name']} — {w['admin.standings.title']}")
    pdf.set_font("DejaVu", "B", 18)
    pdf.multi_cell(0, 12, doc["guide"]["name"], **_NEXT)
    notice(pdf, said)
    pdf.set_font("DejaVu", "", 10)
    state = w["admin.standings.published" if doc["finished"] else "admin.standings.provisional"]
    fmt = w.get(f"admin.format.{doc['guide']['format']}", doc["guide"]["format"])
    pdf.cell(0, 7, f"{fmt} · {state}", **_NEXT)
    for line in edition_lines(doc, w):
        pdf.multi_cell(0, 6, line, **_NEXT)
    heading(pdf, w["admin.standings.title"])
    bg = sports.named(doc["guide"].get("sport", "")).counts_points
    bracket = doc["guide"]["format"] in BRACKETS
    pdf.multi_cell(0, 6, _order_line(doc, w, bg, bracket), **_NEXT)
    pdf.ln(2)
    columns, widths = (_BG_COLUMNS, _BG_WIDTHS) if bg else (_COLUMNS, _WIDTHS)
    cells = [_row(r, w, lang) for r in rows]
    if bg:
        cells = [c[:6] + c[7:] for c in cells]  # no pucks column
    if bracket:  # placed by the bracket: no tie-breaks, no empty column (issue 54)
        columns, cells = columns[:-1], [c[:-1] for c in cells]
        widths = (widths[0], widths[1] + widths[-1], *widths[2:-1])
    table(pdf, widths, [w[k] for k in columns], cells)
    # The narrow column's short heading, written out once (Estonian "V-V-K" read three ways).
    short, said = ("wl_short", "wl") if bg else ("wdl_short", "wdl")
    pdf.multi_cell(
        0, 6, f"{w[f'admin.standings.{short}']}: {w[f'admin.standings.{said}']}", **_NEXT
    )
    if any(r.get("plus") or r.get("minus") for r in rows):
        pdf.multi_cell(0, 6, w["admin.standings.forfeit_note"], **_NEXT)
    for gone in doc.get("withdrew", ()):
        pdf.multi_cell(0, 6, withdrawal_line(gone, w, lang), **_NEXT)
    _placings(pdf, doc, w)
    return bytes(pdf.output())


def edition_lines(doc: dict[str, Any], w: dict[str, str]) -> list[str]:
    """A corrected event's editions (decision 0191): an earlier edition marked superseded
    (by which, when, what, why, who) first; then each correction it carries."""
    told = (
        [("admin.standings.superseded", doc["superseded_by"])] if doc.get("superseded_by") else []
    )
    told += [("admin.standings.corrected", c) for c in doc.get("corrections", ())]
    return [_fill(w[key], **correction_values(c)) for key, c in told]


BRACKETS = frozenset({"single_elimination", "double_elimination"})


def _order_line(doc: dict[str, Any], w: dict[str, str], bg: bool, bracket: bool) -> str:
    """How the table is ordered: a bracket's places by the round each went out in (EKML
    §12(2)6), else the guide's tie-breaks (a bracket's PDF printed those, issue 54)."""
    if bracket:
        return w["admin.standings.by_bracket"]
    order = ", ".join(w.get(_tie_key(k, bg), k) for k in doc["guide"]["tie_breaks"])
    return _fill(w["admin.standings.tie_breaks"], order=order)


def _tie_key(name: str, points: bool) -> str:
    """A tie-break's words; a sport played to points counts points in its games tie-breaks."""
    if points and name.startswith("games_"):
        return f"admin.tiebreak.bg.{name}"
    return f"admin.tiebreak.{name}"


def _row(r: dict[str, Any], w: dict[str, str], lang: str) -> list[str]:
    """One row as the console shows it: the withdrawn marked, decimals in the language's way."""
    marks = " ".join(m for m in (_mark("+", r.get("plus")), _mark("−", r.get("minus"))) if m)
    won_lost = [r["won"], r["lost"]] if "drawn" not in r else [r["won"], r["drawn"], r["lost"]]
    wdl = "-".join(map(str, won_lost)) + (f" ({marks})" if marks else "")
    name = (
        f"{r['name']} ({w['admin.standings.withdrawn_mark']})" if r.get("withdrawn") else r["name"]
    )
    return [
        _place(r),
        name,
        _number(r["points"], lang),
        str(r["played"]),
        wdl,
        f"{r['games_won']}:{r['games_lost']}",
        str(r.get("pucks_diff", "")),
        " · ".join(tie_break(x, lang) for x in r["tie_breaks"]),
    ]


def withdrawal_line(gone: dict[str, Any], w: dict[str, str], lang: str) -> str:
    """Who withdrew, when, after how much, and how it was ruled (EKML §32(3); §9(4) in a
    bracket; `docs.withdrew`): the spectators' page and the venue screen say the same
    (`withdrawalNotes`)."""
    return _fill(
        w[f"admin.standings.withdrew.{withdrawal_kind(gone)}"],
        name=gone["name"],
        when=when(gone.get("at", "")),
        played=str(gone["played"]),
        total=str(gone["total"]),
        rule=citation(lang, gone.get("rule") or "EKML §32(3)"),
    )


def _place(r: dict[str, Any]) -> str:
    """A place, or a shared range of places (5–6: a bracket's round, a tie nothing breaks)."""
    last = r.get("place_to") or r["place"]
    return f"{r['place']}–{last}" if last > r["place"] else str(r["place"])


def _placings(pdf, doc: dict[str, Any], w: dict[str, str]) -> None:
    if not doc["placings"]:
        return
    names = {e["id"]: e["name"] for e in doc["entrants"]}
    heading(
        pdf, w["admin.standings.placings" if doc["finished"] else "admin.standings.placings_now"]
    )
    place = 1
    for group in doc["placings"]:
        who = ", ".join(names.get(e, e) for e in group)
        last = place + len(group) - 1
        pdf.multi_cell(0, 6, f"{place}{f'–{last}' if last > place else ''}. {who}", **_NEXT)
        place = last + 1


def _mark(sign: str, count: int | None) -> str:
    return f"{sign}{count}" if count else ""


# Languages that write a decimal comma (Estonian, Latvian, Icelandic): 2,5 not 2.5.
_DECIMAL_COMMA = frozenset({"et", "lv", "is"})


def _number(x: float, lang: str = "en") -> str:
    """A number as the language writes it: whole numbers bare, a decimal comma where due."""
    text = str(int(x)) if float(x).is_integer() else str(x)
    return text.replace(".", ",") if lang in _DECIMAL_COMMA else text


def tie_break(x: float, lang: str = "en") -> str:
    """A tie-break's value to two places, a half rounded up as the console's
    `Intl.NumberFormat` does (issue 54: 5/8 was 0,63 in the console and 0,62 here, Python's
    `round` going to the even digit on the float)."""
    shown = Decimal(repr(float(x))).quantize(Decimal("0.01"), ROUND_HALF_UP).normalize()
    return _number(float(shown), lang)


def _fill(text: str, **values: str) -> str:
    for key, value in values.items():
        text = text.replace("{" + key + "}", value)
    return text
