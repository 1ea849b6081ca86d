"""PDF building blocks every document of the house is drawn with (fpdf2): an A4 page with
DejaVu Sans embedded, headings, ruled tables, label/value pairs, the chain head to verify a
record against. A discipline's protocol (korona's `plugins/korona/exports/protocol_pdf.py`,
backgammon's `plugins/backgammon/exports/bg_pdf.py`) and the standings are drawn with them.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from tableside.match.exports.fonts import dejavu

if TYPE_CHECKING:  # fpdf itself is imported where a PDF is made (`document`)
    from fpdf import FPDF

FONT = "DejaVu"
logging.getLogger("fontTools").setLevel(logging.WARNING)  # its subsetter logs every glyph
LINE = 7
_FONT, _LINE = FONT, LINE


def document(title: str, made: datetime | None = None) -> FPDF:
    """An A4 page with DejaVu Sans embedded; the same content always gives the same bytes
    (no "now" inside the file: `made`, or a fixed date)."""
    from fpdf import FPDF  # here, not at the top: ~0.3 s that every server start would pay

    pdf = FPDF(format="A4")
    regular, bold = dejavu()
    pdf.add_font(_FONT, "", str(regular))
    pdf.add_font(_FONT, "B", str(bold))
    pdf.set_title(title)
    pdf.set_creator("Tableside")
    pdf.set_creation_date(made or datetime(2000, 1, 1, tzinfo=UTC))
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.add_page()
    return pdf


def heading(pdf: FPDF, text: str, size: int = 12) -> None:
    """A bold line, then the body font again."""
    pdf.ln(3)
    pdf.set_font(_FONT, "B", size)
    pdf.cell(0, _LINE + 1, text, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(_FONT, "", 10)


def table(pdf: FPDF, widths: tuple[int, ...], head: list[str], rows: list[list[str]]) -> None:
    """A ruled table with a shaded heading row."""
    from fpdf.fonts import FontFace

    pdf.set_font(_FONT, "", 10)
    with pdf.table(
        col_widths=widths,
        text_align="LEFT",
        line_height=_LINE - 1,
        headings_style=FontFace(emphasis="BOLD", fill_color=(230, 230, 230)),
    ) as grid:
        for cells in [head, *rows]:
            row = grid.row()
            for text in cells:
                row.cell(text)


def chain_head(pdf: FPDF, count: str, label: str, hex_hash: str) -> None:
    """What a reader checks the printed record against: how many events the stream holds
    and the hash of its last one (the head of its chain), whole, on a line of its own."""
    pdf.multi_cell(0, _LINE, count, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(_FONT, "B", 10)
    pdf.multi_cell(0, _LINE, label, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(_FONT, "", 9)
    pdf.multi_cell(0, _LINE, hex_hash or "—", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(_FONT, "", 10)


def pairs(pdf: FPDF, rows: list[list[str]]) -> None:
    """Label: value lines, the label bold."""
    for label, value in rows:
        pdf.set_font(_FONT, "B", 10)
        pdf.cell(55, _LINE, label)
        pdf.set_font(_FONT, "", 10)
        pdf.multi_cell(0, _LINE, value, new_x="LMARGIN", new_y="NEXT")


def notice(pdf: FPDF, text: str | None) -> None:
    """A framed, bold notice about the record itself (disputed, or a dispute accepted: #50),
    where a reader sees it first; nothing without one."""
    if not text:
        return
    pdf.ln(2)
    pdf.set_font(_FONT, "B", 11)
    pdf.multi_cell(0, _LINE, text, border=1, padding=2, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(_FONT, "", 10)
