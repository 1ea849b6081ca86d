"""A backgammon match's protocol as a PDF (KSI 4.6/4.7), on the korona protocol's building
blocks (`pdf.document`, `heading`, `pairs`, `table`, `chain_head`): the header, one section
per game, penalty points, pauses, clock events, rulings and appeals, the result as reported
and confirmed, and the stream's chain head to verify the record against. Words, not codes,
in Icelandic, English, Estonian and Latvian (`bg_words`). Each game's moves, when asked, in
the notation of GNU Backgammon and Jellyfish (the `.mat` export's own lines)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from tableside.eventlog.receipts import Receipt
from tableside.match.exports import receipt_qr
from tableside.match.exports.pdf import chain_head, document, heading, notice, pairs, table
from tableside.plugins.backgammon.exports.bg_sheet import BgSheet, Entry, Game
from tableside.plugins.backgammon.exports.bg_words import bg_words
from tableside.web.words import counted

if TYPE_CHECKING:  # fpdf is imported where a PDF is made (match/exports/pdf.py)
    from fpdf import FPDF


_NEXT = {"new_x": "LMARGIN", "new_y": "NEXT"}


def bg_protocol_pdf(
    sheet: BgSheet,
    lang: str = "en",
    moves: bool = False,
    receipt: tuple[str, Receipt] | None = None,
    said: str | None = None,
) -> bytes:
    """The PDF bytes of one backgammon match's protocol in one language, with each game's
    moves when asked; the same record gives the same bytes (the file's date is the last
    event's); with `said`, the record's notice under the header (#50)."""
    w = bg_words(lang)
    pdf = document(f"{w['title']} {sheet.match_id}", sheet.last_at)
    _header(pdf, sheet, w)
    notice(pdf, said)
    for game in sheet.games:
        _game(pdf, sheet, game, w)
        if moves and game.moves:
            _moves(pdf, sheet, game, w)
    _entries(pdf, sheet, w, w["penalties"], sheet.penalties)
    _entries(pdf, sheet, w, w["pauses"], sheet.pauses)
    if sheet.clock or sheet.clock_events:
        _entries(pdf, sheet, w, w["clock_section"], sheet.clock_events)
    _entries(pdf, sheet, w, w["officials"], sheet.officials)
    _result(pdf, sheet, w)
    heading(pdf, w["verification"])
    head = w["head"].format(n=sheet.events)
    chain_head(pdf, counted(w, "events_n", lang, sheet.events), head, sheet.head_hash)
    pdf.multi_cell(0, 6, w["verify_hint"].replace("{id}", sheet.match_id), **_NEXT)
    if receipt is not None:  # the newest ending's signed receipt, QR code and text (#29)
        receipt_qr.draw(pdf, *receipt, w["receipt"], lang)
    return bytes(pdf.output())


def _header(pdf: FPDF, sheet: BgSheet, w: dict[str, str]) -> None:
    pdf.set_font("DejaVu", "B", 18)
    pdf.multi_cell(0, 12, w["title"], **_NEXT)
    a, b = sheet.players
    settings = f"{w['penalty_setting']}: {w['to_score' if sheet.penalty_to_score else 'apart']}"
    rows = [
        [w["players"], f"{a}  —  {b}"],
        [w["length"], w["length_value"].format(n=sheet.length)],
        [w["clock"], w["clock_on" if sheet.clock else "clock_off"]],
        [
            w["settings"],
            settings
            + (f"; {w['series']}" if sheet.series else "")
            + (f"; {w['other_rules']}" if sheet.other_rules else ""),
        ],
        [w["recorded"], f"{stamp(sheet.started_at)} – {stamp(sheet.last_at)}"],
        [w["match"], sheet.match_id],
    ]
    pairs(pdf, rows)


def _game(pdf: FPDF, sheet: BgSheet, game: Game, w: dict[str, str]) -> None:
    title = f"{w['game']} {game.game_no}" + (f" · {w['crawford']}" if game.crawford else "")
    heading(pdf, title, size=11)
    rows = [[w["score_before"], _score(game.score)]]
    if game.starter:
        d1, d2 = game.opening
        rows.append([w["started"], _say(w, sheet, "opening", side=game.starter, d1=d1, d2=d2)])
    if game.happenings:
        lines = [f"{entry_text(w, sheet, e)} ({e.rule})" for e in game.happenings]
        rows.append([w["happenings"], "\n".join(lines)])
    rows += _ending(sheet, game, w)
    pairs(pdf, rows)


def _moves(pdf: FPDF, sheet: BgSheet, game: Game, w: dict[str, str]) -> None:
    """The game's moves as GNU Backgammon and Jellyfish write them (the .mat export's)."""
    pdf.ln(1)
    pdf.set_font("DejaVu", "B", 10)
    pdf.cell(0, 7, w["moves"], **_NEXT)
    table(pdf, (14, 88, 88), ["", *sheet.players], [list(row) for row in game.moves])


def _ending(sheet: BgSheet, game: Game, w: dict[str, str]) -> list[list[str]]:
    end = game.end
    if end is None:
        return [[w["ended"], w["not_finished"]]]
    how = w[f"end_{end.kind}_{end.by}"]
    return [
        [w["ended"], _say(w, sheet, "wins", side=end.winner, how=how, cube=end.cube)],
        [w["points"], str(end.points)],
        [w["score_after"], _score(end.score)],
    ]


def _entries(pdf: FPDF, sheet: BgSheet, w: dict[str, str], title: str, entries: list[Entry]):
    """A section of dated lines (a long one wraps at the margin, words kept whole)."""
    heading(pdf, title)
    entry_lines(pdf, sheet, w, entries)
    if not entries:
        pdf.multi_cell(0, 6, w["none"], **_NEXT)


def entry_lines(pdf: FPDF, sheet: BgSheet, w: dict[str, str], entries: list[Entry]) -> None:
    """Each entry as a line: its time, its game, the fact in words and its paragraph."""
    for e in entries:
        game = f"{w['game']} {e.game_no} · " if e.game_no else ""
        text = f"{stamp(e.at)[11:19]}  {game}{entry_text(w, sheet, e)} ({e.rule})"
        pdf.multi_cell(0, 6, text, **_NEXT)


def _result(pdf: FPDF, sheet: BgSheet, w: dict[str, str]) -> None:
    heading(pdf, w["result"])
    rows = [[w["final_score"], _score(sheet.score)]]
    if sheet.winner:
        rows.append([w["winner"], _name(sheet, sheet.winner, w)])
    pairs(pdf, rows)
    for e in sheet.result:
        text = f"{stamp(e.at)}  {entry_text(w, sheet, e)} ({e.rule})"
        pdf.multi_cell(0, 6, text, **_NEXT)


def entry_text(w: dict[str, str], sheet: BgSheet, e: Entry) -> str:
    """An entry in words; a clock stop also says the time each player had left."""
    text = _say(w, sheet, e.code, **e.values)
    if e.code.startswith("clock_stop_"):
        text += f"; {w['time_left'].format(**e.values)}"
    return text


def _say(w: dict[str, str], sheet: BgSheet, code: str, **values: Any) -> str:
    """The template `code` filled in: a side by its player's name, a kind and a reason in
    words; what a jury's decision orders (KSI 5.2) says so before the entry's own words."""
    if code.startswith("ordered_"):
        return w["jury_orders"].format(what=_say(w, sheet, code.removeprefix("ordered_"), **values))
    if "side" in values:
        values["player"] = _name(sheet, values["side"], w)
    if "kind" in values:
        values["kind"] = w.get(f"kind_{values['kind']}", values["kind"])
    if "reason" in values:  # the engine's reasons in words; one a person typed as typed
        values["reason"] = w.get(f"reason.{values['reason']}", values["reason"])
    return w.get(code, code).format_map(_Blank(values))


class _Blank(dict):
    """Values for a template; one it does not have prints as nothing."""

    def __missing__(self, key: str) -> str:
        return ""


def _name(sheet: BgSheet, side: str, w: dict[str, str]) -> str:
    if side in ("A", "B"):
        return sheet.players[0 if side == "A" else 1]
    return w["td_or_monitor"]


def _score(score: tuple[int, int]) -> str:
    return f"{score[0]} : {score[1]}"


def stamp(at: datetime) -> str:
    return at.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
