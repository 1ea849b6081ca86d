"""A korona match's protocol as a one-page PDF in the official layout, drawn with fpdf2.

DejaVu Sans is embedded (subset) so every Estonian and Latvian letter prints. The layout
follows the paper protocol: the match's header, the players, one line per game with the
opening shot, the result, remarks and penalties (the back of the paper sheet, NOVUS08
9.1.11), corrections, the table judge's signature with the time it was given, and the head
of the match's hash chain to verify the record against.
"""

from __future__ import annotations

from datetime import UTC
from typing import TYPE_CHECKING

from tableside.eventlog.receipts import Receipt
from tableside.match.exports import receipt_qr
from tableside.match.exports.labels import citation, code_words, words
from tableside.match.exports.pdf import FONT as _FONT
from tableside.match.exports.pdf import LINE as _LINE
from tableside.match.exports.pdf import chain_head, document, heading, notice, pairs, table
from tableside.plugins.korona.exports.entry_words import entry_words
from tableside.plugins.korona.exports.sheet import ProtocolSheet, Sanction, side_names
from tableside.web.words import counted

# The game number's column: its heading ("Game", "Geim", "Sets") whole, in bold, at 10 pt
# (at 12–14 mm the English one broke as "Gam/e").
_GAME_COL = 16

if TYPE_CHECKING:  # fpdf is imported where a PDF is made (match/exports/pdf.py)
    from fpdf import FPDF


def protocol_pdf(
    sheet: ProtocolSheet,
    lang: str = "en",
    receipt: tuple[str, Receipt] | None = None,
    said: str | None = None,
) -> bytes:
    """The PDF bytes of one protocol in one language; with `receipt` (verify link, receipt),
    the match's signed receipt as a QR code and text (#29); with `said`, the record's notice
    under the header (`match.receipts.record_notice`: disputed, or an accepted dispute)."""
    w = {**words(lang), "lang": lang}
    pdf = _document(sheet, w)
    _header(pdf, sheet, w)
    notice(pdf, said)
    _players(pdf, sheet, w)
    _games(pdf, sheet, w)
    _seats(pdf, sheet, w)
    _result(pdf, sheet, w)
    _sanctions(pdf, sheet, w)
    _corrections(pdf, sheet, w)
    _signature(pdf, sheet, w)
    if sheet.head_hash:
        heading(pdf, w["verification"])
        n = sheet.events
        stored = counted(w, "events_n", lang, n)
        chain_head(pdf, stored, w["head"].format(n=n), sheet.head_hash)
    if receipt is not None:
        receipt_qr.draw(pdf, *receipt, w["receipt"], lang)
    return bytes(pdf.output())


def _document(sheet: ProtocolSheet, w: dict[str, str]) -> FPDF:
    return document(f"{w['title']} {sheet.match_id}", sheet.signed_at)


def _header(pdf: FPDF, sheet: ProtocolSheet, w: dict[str, str]) -> None:
    pdf.set_font(_FONT, "B", 18)
    pdf.cell(0, 12, w["title"], new_x="LMARGIN", new_y="NEXT")
    rows = [
        [w["event"], sheet.competition or "—"],
        [w["table"], str(sheet.table) if sheet.table is not None else "—"],
        [w["rules"], f"{sheet.ruleset} · {w['games']}: {sheet.games_scheduled}"],
        [w["match"], sheet.match_id],
    ]
    pairs(pdf, rows)


def _players(pdf: FPDF, sheet: ProtocolSheet, w: dict[str, str]) -> None:
    heading(pdf, f"{w['side_a']} — {w['side_b']}")
    pdf.set_font(_FONT, "B", 14)
    pdf.multi_cell(
        0,
        9,
        f"{' / '.join(sheet.side_a)}  —  {' / '.join(sheet.side_b)}",
        new_x="LMARGIN",
        new_y="NEXT",
    )


def _winner(sheet: ProtocolSheet, side: str, w: dict[str, str]) -> str:
    if side == "A":
        return " / ".join(sheet.side_a)
    if side == "B":
        return " / ".join(sheet.side_b)
    return w["drawn"]


def _games(pdf: FPDF, sheet: ProtocolSheet, w: dict[str, str]) -> None:
    heading(pdf, w["games"])
    rows = [
        [
            str(g.game_no),
            g.opener,
            _winner(sheet, g.winner, w) if g.winner else (w["annulled"] if g.annulled else "…"),
            code_words(w["lang"], g.reason) if g.reason else "",
        ]
        for g in sheet.games
    ]
    table(pdf, (_GAME_COL, 55, 55, 54), [w["game"], w["opening"], w["winner"], w["reason"]], rows)


def _seats(pdf: FPDF, sheet: ProtocolSheet, w: dict[str, str]) -> None:
    """Pairs: each game's seats clockwise from the opening seat, and what everyone does
    between games (EKML §28(1) and its märkus 1)."""
    games = [g for g in sheet.games if len(g.seats) > 2]
    if not games:
        return
    heading(pdf, w["seats"])
    rows = [[str(g.game_no), " → ".join(g.seats), citation(w["lang"], g.seats_rule)] for g in games]
    table(pdf, (_GAME_COL, 124, 40), [w["game"], w["seats_order"], w["rule"]], rows)
    pdf.multi_cell(0, _LINE, w["seats_move"], new_x="LMARGIN", new_y="NEXT")


def _result(pdf: FPDF, sheet: ProtocolSheet, w: dict[str, str]) -> None:
    heading(pdf, w["result"])
    a, b = sheet.won
    pa, pb = (f"{p:g}" for p in sheet.result_points)
    rows = [[w["games_won"], f"{a} : {b}"], [w["points"], f"{pa} : {pb}"]]
    if sheet.winner:
        rows.append([w["winner"], _winner(sheet, sheet.winner, w)])
    pairs(pdf, rows)


def _sanctions(pdf: FPDF, sheet: ProtocolSheet, w: dict[str, str]) -> None:
    heading(pdf, w["sanctions"])
    if not sheet.sanctions:
        pdf.cell(0, _LINE, w["none"], new_x="LMARGIN", new_y="NEXT")
        return
    rows = [
        [
            str(s.game_no or ""),
            w.get(f"{s.kind}.{sheet.ruleset}", w.get(s.kind, s.kind)),
            s.offender or "—",
            s.player,
            _detail(s, w["lang"]),
            citation(w["lang"], s.rule),
        ]
        for s in sheet.sanctions
    ]
    head = [w["game"], w["kind"], w["offender"], w["borne_by"], w["detail"], w["rule"]]
    table(pdf, (_GAME_COL, 28, 32, 36, 36, 32), head, rows)


def _detail(s: Sanction, lang: str) -> str:
    """A sanction's detail in words: the remark's reason and count, the foul, the card, the
    number of games lost (in the language's plural)."""
    if s.kind == "games_lost":
        return counted(words(lang), "games_n", lang, int(s.detail))
    text = code_words(lang, s.detail) if s.detail else ""
    return f"{text} ({s.count})" if s.count else text


def _corrections(pdf: FPDF, sheet: ProtocolSheet, w: dict[str, str]) -> None:
    """Each correction: the entry's number, who corrected it, what was taken back (as the
    pad's Undo sheet says it: "Mari Tamm pocketed 2"), and why."""
    if sheet.corrections:
        heading(pdf, w["corrections"])
        lang = w["lang"]
        names = {"A": side_names(sheet, "A"), "B": side_names(sheet, "B")}
        for c in sheet.corrections:
            what = entry_words(lang, c.entry, names, sheet.ruleset)
            said = [what] if what else []
            said += [code_words(lang, c.reason)] if c.reason else []
            text = f"#{c.version} ({code_words(lang, c.by)})"
            text += f": {' — '.join(said)}" if said else ""
            pdf.multi_cell(0, _LINE, text, new_x="LMARGIN", new_y="NEXT")


def _signature(pdf: FPDF, sheet: ProtocolSheet, w: dict[str, str]) -> None:
    heading(pdf, w["signature"])
    when = (
        sheet.signed_at.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
        if sheet.signed_at
        else w["not_signed"]
    )
    pairs(
        pdf,
        [
            [w["judge"], sheet.judge or "—"],
            [w["signature"], "________________________"],
            [w["signed_at"], when],
        ],
    )
