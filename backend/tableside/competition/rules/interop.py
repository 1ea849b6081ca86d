"""Pairings in from CSV or XLSX (incl. the novuss "Swiss Master" EKSPORT sheet) and
results out as CSV (or XLSX) with the 1/2/3 win/loss/draw codes that program reads. Bytes only."""

import csv
import io

import msgspec

from .bracket_view import BYE
from .errors import CompetitionRuleError, require
from .matches import slots
from .records import add_result, annulled, bye_game
from .results import outcome
from .state import Competition

TABLE_HEADERS = {"galds", "laud", "table", "board", "nr"}
NAME_HEADERS = {"vārds, uzvārds", "nimi", "name", "player", "mängija", "player a", "player b"}
CODES = {"a": 1, "b": 2, "draw": 3}
# An unplayed row's code says why it has no games (issue 45): a forfeit to A or to B (EKML
# §9(3), §32(3)1), a result annulled by a withdrawal (§32(3)), a bye.
UNPLAYED_CODES = {"a": "F1", "b": "F2", "annulled": "X", "bye": "B"}
RULE = "EKML §12(2)2"


class ImportedBoard(msgspec.Struct, frozen=True):
    """One imported board: table number and the two entrant ids (b None for a bye)."""

    table: int | None
    a: str
    b: str | None


def pairings_from_csv(data: bytes, state: Competition) -> tuple[ImportedBoard, ...]:
    """A round's pairings from CSV bytes (comma or semicolon separated, a header row)."""
    text = data.decode("utf-8-sig")
    first = text.split("\n", 1)[0]
    delimiter = next((d for d in ";\t" if d in first), ",")
    rows = [r for r in csv.reader(io.StringIO(text), delimiter=delimiter)]
    return _boards(rows, state)


def pairings_from_xlsx(data: bytes, state: Competition, sheet: str = "EKSPORT") -> tuple:
    """A round's pairings from an XLSX workbook's sheet (Swiss Master exports `EKSPORT`)."""
    from openpyxl import load_workbook  # here: ~0.1 s that every server start would pay

    book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    require(
        sheet in book.sheetnames,
        RULE,
        f"no sheet {sheet!r} in the workbook",
        "no_such_sheet",
        sheet=sheet,
    )
    rows = [
        ["" if v is None else str(v) for v in row]
        for row in book[sheet].iter_rows(values_only=True)
    ]
    return _boards(rows, state)


def _boards(rows: list[list[str]], state: Competition) -> tuple[ImportedBoard, ...]:
    """Find the header row, then read one board per row that names a player."""
    start, table_col, name_cols = _header(rows)
    names = _name_index(state)
    boards = []
    for row in rows[start + 1 :]:
        cells = [(row[i] if i < len(row) else "").strip() for i in name_cols]
        if not cells[0]:
            continue
        table = _table(row, table_col)
        b = _lookup(names, cells[1]) if cells[1] else None
        boards.append(ImportedBoard(table, _lookup(names, cells[0]), b))
    return tuple(boards)


def _header(rows: list[list[str]]) -> tuple[int, int | None, list[int]]:
    """The header row: a table column and the first two name columns."""
    for index, row in enumerate(rows[:20]):
        heads = [str(c).strip().lower() for c in row]
        name_cols = [i for i, h in enumerate(heads) if h in NAME_HEADERS]
        if len(name_cols) >= 2:
            table_col = next((i for i, h in enumerate(heads) if h in TABLE_HEADERS), None)
            return index, table_col, name_cols[:2]
    raise CompetitionRuleError(RULE, "no header row with two name columns", code="no_header_row")


def _table(row: list[str], col: int | None) -> int | None:
    """The table number of a row, if it has one."""
    if col is None or col >= len(row) or not str(row[col]).strip():
        return None
    return int(float(str(row[col]).strip()))


def _name_index(state: Competition) -> dict[str, str]:
    """Entrants by normalised name (and id)."""
    index = {_norm(e.name): e.id for e in state.entrants.values()}
    index.update({_norm(e.id): e.id for e in state.entrants.values()})
    return index


def _norm(name: str) -> str:
    """Case and spacing do not matter in a name."""
    return " ".join(name.lower().split())


def _lookup(index: dict[str, str], name: str) -> str:
    """The entrant a name refers to, or a rule error."""
    found = index.get(_norm(name))
    require(
        found is not None,
        RULE,
        f"{name!r} is not on the entry list",
        "not_on_entry_list",
        entrant=name,
    )
    return found


# The results file's columns, in the order written; the words come in the event's language
# from the caller (the HTTP read: the console's words), the kinds of row likewise.
COLUMNS = (
    "round", "table", "name_a", "name_b", "games_a", "games_b", "code",
    "kind", "points_a", "points_b", "match",
)  # fmt: skip
KINDS = ("played", "forfeit", "bye", "annulled", "playoff")
# A cell a spreadsheet would run: OWASP "CSV Injection", ASVS 5.0 V1.2.10.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(value: object) -> object:
    """Text that a spreadsheet would read as a formula gets a leading `'`; numbers stay
    numbers (a negative number is data, a name like `-1+1` is text)."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def result_rows(state: Competition) -> list[tuple]:
    """Every match with a result, paired rounds then the bracket, and every bye: round,
    table, names, games, the 1/2/3 code Swiss Master reads (1 first-listed won, 2 lost, 3
    drawn), what the row is (played, forfeit, bye; annulled: a withdrawal below the line,
    EKML §32(3), counted for nobody) and the points each side scored by it, so that summing
    a file's games and points per entrant gives the published standings (EKML §32(2)). An
    unplayed row has no games and an UNPLAYED_CODES code (issue 45)."""
    rows = []
    for number in sorted(state.rounds):
        paired = state.rounds[number]
        for p in paired.pairings:
            if (rec := state.results.get(p.match_id)) is not None:
                table = p.table or state.calls.get(p.match_id)
                rows.append(_result_row(state, number, table, p.match_id, rec))
        if paired.bye is not None:
            rows.append(_bye_row(state, number, paired.bye))
    for slot in slots(state, state.bracket).values():
        rec = state.results.get(slot.id)
        if rec is not None and (rec.a, rec.b) == (slot.a, slot.b):
            rows.append(_result_row(state, slot.round, state.calls.get(slot.id), slot.id, rec))
        elif (through := _walked_on(slot)) is not None:  # named by its slot (W1-3, L1-2)
            rows.append(_bye_row(state, slot.round, through, slot.id))
    for slot in slots(state, state.playoff).values():
        rec = state.results.get(slot.id)
        if rec is not None and (rec.a, rec.b) == (slot.a, slot.b):
            rows.append(_playoff_row(state, slot.round, state.calls.get(slot.id), slot.id, rec))
    return rows


def _playoff_row(state: Competition, rnd: int, table: int | None, match_id: str, rec) -> tuple:
    """A play-off match: it places by the bracket and scores no standings points."""
    row = _result_row(state, rnd, table, match_id, rec)
    at = COLUMNS.index("kind")
    return (*row[:at], "playoff", "", "", match_id)


def _walked_on(slot) -> str | None:
    """The entrant a bracket bye walks on (None: not a bye, or a replay not needed)."""
    if slot.not_needed or BYE not in (slot.a, slot.b):
        return None
    through = slot.b if slot.a == BYE else slot.a
    return None if through in (None, BYE) else through


def _result_row(state: Competition, rnd: int, table: int | None, match_id: str, rec) -> tuple:
    """One match's row: its games as the standings count them (a match played to points:
    its points); an unplayed one (forfeit, annulled) has none, and no table."""
    counted: dict[str, list] = {rec.a: [], rec.b: []}
    add_result(state, counted, rnd, rec.a, rec.b, rec.result)
    voided = not annulled(state).isdisjoint((rec.a, rec.b))
    kind = "annulled" if voided else "forfeit" if rec.result.forfeit else "played"
    points = (0, 0) if voided else (counted[rec.a][0].points, counted[rec.b][0].points)
    names = state.entrants[rec.a].name, state.entrants[rec.b].name
    won = outcome(rec.result)
    if kind == "played":
        games, code = (counted[rec.a][0].won, counted[rec.a][0].lost), CODES[won]
    else:
        games, code = ("", ""), UNPLAYED_CODES["annulled" if voided else won]
    where = "" if rec.result.forfeit else table or ""
    return (rnd, where, *names, *games, code, kind, *map(_number, points), match_id)


def _bye_row(state: Competition, rnd: int, entrant: str, match_id: str = "") -> tuple:
    """A round's bye (or a bracket's, with its slot's id: issue 54, every double
    elimination's bye said round 1 with no match id): the entrant alone, no games, the bye's
    points (a Swiss bye: a draw's)."""
    points = 0 if entrant in annulled(state) else bye_game(state, rnd).points
    name = state.entrants[entrant].name
    code = UNPLAYED_CODES["bye"]
    return (rnd, "", name, "", "", "", code, "bye", _number(points), "", match_id)


def _number(x: float) -> int | float:
    """Whole points as an integer (4, not 4.0); a half stays a half."""
    return int(x) if float(x).is_integer() else x


def results_csv(
    state: Competition, header: tuple[str, ...] = COLUMNS, kinds=None, edition=None
) -> bytes:
    """`result_rows` as CSV under the given header words (kinds in words likewise), every
    text cell neutralised (`cell`); `edition` (its header word, its words) a last column
    once the published results were corrected (decision 0191)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in _with_edition([header, *_worded(result_rows(state), kinds)], edition):
        writer.writerow([cell(v) for v in row])
    return out.getvalue().encode("utf-8")


def _with_edition(rows: list[tuple], edition: tuple[str, str] | None) -> list[tuple]:
    """The header and rows, each with the edition's column when there is one."""
    if edition is None:
        return rows
    return [(*rows[0], edition[0]), *((*r, edition[1]) for r in rows[1:])]


def _worded(rows: list[tuple], kinds: dict[str, str] | None) -> list[tuple]:
    """Rows with their kind in the reader's words."""
    at = COLUMNS.index("kind")
    words = kinds or {}
    return [(*r[:at], words.get(r[at], r[at]), *r[at + 1 :]) for r in rows]


def results_xlsx(
    state: Competition,
    header: tuple[str, ...] = COLUMNS,
    kinds=None,
    edition=None,
    title: str = "Results",
) -> bytes:
    """`result_rows` as a workbook: text is written as string cells (never a formula), and
    formula-like text keeps Excel's quote prefix, so a re-export as CSV stays inert; the
    sheet named `title` (in the file's language), `edition` as in `results_csv`."""
    from openpyxl import Workbook  # here: ~0.1 s that every server start would pay

    book = Workbook()
    sheet = book.active
    sheet.title = title[:31]  # Excel's limit on a sheet's name
    rows = _with_edition([header, *_worded(result_rows(state), kinds)], edition)
    for r, row in enumerate(rows, 1):
        for c, value in enumerate(row, 1):
            target = sheet.cell(row=r, column=c)
            target.value = value
            if isinstance(value, str):
                target.data_type = "s"
                target.quotePrefix = value.startswith(FORMULA_START)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
