"""A receipt as a QR code (segno): a link to the PWA's verify page carrying the receipt in
its fragment (`/verify#r=…`; a fragment never reaches a server), as SVG for the pad and the
receipt page, and as dark modules drawn into a protocol PDF."""

from __future__ import annotations

from typing import TYPE_CHECKING

import segno

from tableside.eventlog.receipts import Receipt, fragment

if TYPE_CHECKING:  # fpdf is imported where a PDF is made (match/exports/pdf.py)
    from fpdf import FPDF


def verify_link(base_url: str, receipt: Receipt) -> str:
    """The verify page's address with the receipt in the fragment."""
    return f"{base_url.rstrip('/')}/verify#r={fragment(receipt)}"


def qr(link: str) -> segno.QRCode:
    """The QR code of a verify link. Error correction L: a screen or a printed page is not
    torn or stained, and the lowest level keeps a ~0.6 kB receipt at version 19 (93 modules),
    whose modules stay ≥ 3 px on a 360 px phone."""
    return segno.make(link, error="l", micro=False)


def svg_data_uri(link: str) -> str:
    """The QR code as an SVG data URI for an <img> (the strict CSP allows data: images), 3 px
    a module: drawn at its own size it stays crisp (whole pixels) on a phone."""
    return qr(link).svg_data_uri(scale=3, border=4)


def svg_inline(link: str) -> str:
    """The QR code as an inline <svg> element."""
    return qr(link).svg_inline(scale=4, border=4)


# The receipt's labels in each language a protocol PDF is printed in (the values are ids,
# hashes, numbers and names, which read the same in any language).
LABELS = {
    "en": ("Match", "Ending", "game", "match", "version", "position", "Result",
           "Match chain head", "Store-wide head", "Stored at", "Signed by key", "Signature"),
    "et": ("Mäng", "Lõpp", "geim", "mäng", "versioon", "koht", "Tulemus",
           "Mängu ahela pea", "Kogu hoidla ahela pea", "Salvestatud", "Allkirjavõti", "Allkiri"),
    "lv": ("Spēle", "Beigas", "sets", "spēle", "versija", "vieta", "Rezultāts",
           "Spēles ķēdes galva", "Krātuves ķēdes galva", "Saglabāts", "Paraksta atslēga",
           "Paraksts"),
    "is": ("Leikur", "Lok", "leikur", "viðureign", "útgáfa", "staða", "Úrslit",
           "Haus keðju leiksins", "Haus keðju safnsins", "Vistað", "Undirskriftarlykill",
           "Undirskrift"),
}  # fmt: skip


def lines(receipt: Receipt, lang: str = "en") -> list[tuple[str, str]]:
    """The receipt's fields in the order a reader checks them (label, value)."""
    (match, ending, game, whole, version, position, result, head, store, stored, key, sig) = (
        LABELS.get(lang, LABELS["en"])
    )
    end = game if receipt.end == "game" else whole
    return [
        (match, receipt.match_id),
        (ending, f"{end} ({version} {receipt.version}, {position} {receipt.position})"),
        (result, receipt.result),
        (head, receipt.match_head),
        (store, receipt.global_head),
        (stored, receipt.time),
        (key, receipt.public_key),
        (sig, receipt.signature),
    ]


def draw(pdf: FPDF, link: str, receipt: Receipt, heading: str, lang: str) -> None:
    """The receipt in a protocol PDF: a heading, the QR code (dark modules as squares) and
    the receipt's text beside it, so it can be checked by hand or scanned."""
    code = qr(link)
    module = 0.5  # mm
    size = len(code.matrix) * module
    if pdf.get_y() + 9 + size > pdf.h - pdf.b_margin:
        pdf.add_page()  # the heading stays with its code
    pdf.ln(2)
    pdf.set_font(pdf.font_family, "B", 11)
    pdf.cell(0, 7, heading, new_x="LMARGIN", new_y="NEXT")
    x0, y0 = pdf.l_margin, pdf.get_y()
    for row, bits in enumerate(code.matrix):
        for col, dark in enumerate(bits):
            if dark:
                pdf.rect(x0 + col * module, y0 + row * module, module, module, style="F")
    pdf.set_xy(x0 + size + 4, y0)
    pdf.set_font(pdf.font_family, "", 7)
    width = pdf.w - pdf.r_margin - pdf.get_x()
    for label, value in lines(receipt, lang):
        pdf.set_x(x0 + size + 4)
        pdf.multi_cell(width, 3.4, f"{label}: {value}", new_x="LMARGIN", new_y="NEXT")
    pdf.set_y(max(pdf.get_y(), y0 + size) + 2)
