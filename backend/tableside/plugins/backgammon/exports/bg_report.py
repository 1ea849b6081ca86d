"""The TD's report to the federation after a backgammon tournament (KSI 1.7.5, 5.6): every
expulsion with its reasons, and every ruling, appeal and jury decision with the incident and
the reasoning, match by match, from the matches' own records (the protocol's sheets, so the
words and paragraphs are the protocol's). Icelandic, English, Estonian and Latvian."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from tableside.match.exports.pdf import document, heading, pairs
from tableside.plugins.backgammon.exports.bg_pdf import entry_lines, stamp
from tableside.plugins.backgammon.exports.bg_sheet import BgSheet
from tableside.plugins.backgammon.exports.bg_words import bg_words

if TYPE_CHECKING:  # fpdf is imported where a PDF is made (match/exports/pdf.py)
    from fpdf import FPDF


_NEXT = {"new_x": "LMARGIN", "new_y": "NEXT"}
EXPELLED = "expelled"  # the sheet's code for KSI 1.7.3


def federation_report_pdf(event: str, sheets: list[BgSheet], lang: str, made: datetime) -> bytes:
    """The report's PDF bytes: the duty it answers, the expulsions, then each match with a
    ruling, appeal, monitor or expulsion on its record (a match with none is left out)."""
    w = bg_words(lang)
    pdf = document(f"{w['report_title']} — {event}", made)
    pdf.set_font("DejaVu", "B", 18)
    pdf.multi_cell(0, 12, w["report_title"], **_NEXT)
    pairs(pdf, _header(event, sheets, w, made))
    pdf.multi_cell(0, 6, w["report_duty"], **_NEXT)
    _section(pdf, w, w["report_expulsions"], sheets, expulsions_only=True)
    _section(pdf, w, w["report_rulings"], sheets, expulsions_only=False)
    return bytes(pdf.output())


def _header(event: str, sheets: list[BgSheet], w: dict[str, str], made: datetime) -> list:
    rows = [[w["report_event"], event], [w["report_made"], stamp(made)]]
    if sheets:
        first = min(s.started_at for s in sheets)
        last = max(s.last_at for s in sheets)
        rows.append([w["report_period"], f"{len(sheets)}: {stamp(first)} – {stamp(last)}"])
    return rows


def _section(pdf: FPDF, w: dict[str, str], title: str, sheets: list[BgSheet], *, expulsions_only):
    heading(pdf, title)
    told = 0
    for sheet in sheets:
        found = [e for e in sheet.officials if (e.code == EXPELLED) == expulsions_only]
        if found:
            a, b = sheet.players
            pdf.set_font("DejaVu", "B", 10)
            pdf.multi_cell(0, 7, w["report_match"].format(match=sheet.match_id, a=a, b=b), **_NEXT)
            pdf.set_font("DejaVu", "", 10)
            entry_lines(pdf, sheet, w, found)
            told += 1
    if not told:
        pdf.multi_cell(0, 6, w["report_none"], **_NEXT)
