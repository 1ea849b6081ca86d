"""Jellyfish .mat text, the match format GNU Backgammon imports and exports (pure: text in/out).

export_mat(events) writes a match's events as .mat text; import_mat(text) reads one back as
the commands that record the same match through decide (an illegal or impossible record is a
RuleViolation from the engine, or MatFormatError for text that is not a .mat match).
Columns: side A left, side B right. Moves are single-die steps, 25 the bar, 0 off, `*` a hit.
"""

from __future__ import annotations

import itertools
import re

from tableside.disciplines.backgammon import board, mat_away
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon import state as st
from tableside.disciplines.backgammon.engine import decide
from tableside.disciplines.backgammon.errors import RuleViolation
from tableside.disciplines.backgammon.evolve import evolve
from tableside.disciplines.backgammon.mat_away import ENDINGS
from tableside.disciplines.backgammon.record import kept

WIDTH = 28  # a column of moves
COL = {"A": 0, "B": 1}


class MatFormatError(ValueError):
    """Text that is not a .mat match, or a record the rules refuse; `line` is the 1-based line
    number, `game` the game it is in (0: before the first), `rule` the paragraph refusing it;
    `code` and `params` name what is refused in words (`code.<code>` in codes.<lang>.json: the
    text that is not a move, the engine's own refusal of a record)."""

    def __init__(
        self,
        line: int,
        message: str,
        game: int = 0,
        rule: str = "",
        code: str = "mat_unreadable",
        **params: object,
    ) -> None:
        where = f"line {line}" + (f", game {game}" if game else "")
        super().__init__(f"{where}: " + (f"{rule}: " if rule else "") + message)
        self.line, self.game, self.rule, self.message = line, game, rule, message
        self.code, self.params = code, {k: str(v) for k, v in params.items()}


# --- export ---------------------------------------------------------------------------------


def _moves_text(state: st.MatchState, e: ev.PlayRecorded) -> str:
    me, opp = st.mine(state, e.side)
    parts = []
    for frm, to in e.moves:
        me, opp, hit = board.move(me, opp, frm, to)
        parts.append(f"{frm}/{to}{'*' if hit else ''}")
    high, low = max(e.dice), min(e.dice)
    return f"{high}{low}: " + " ".join(parts) + " "


class _Game:
    """The cells of one game, two to a line."""

    def __init__(self, header: list[str]) -> None:
        self.lines = header
        self.row: list[str] = []  # cells of the current line ("" an empty left cell)
        self.premature: tuple[str, str] = ("", "")  # a double waiting to take effect (4.4.5)

    def cell(self, side: str, text: str) -> None:
        if len(self.row) == 2 or (self.row and COL[side] == 0):
            self.flush()
        if not self.row and COL[side] == 1:
            self.row.append("")
        self.row.append(text)

    def flush(self) -> None:
        if self.row:
            left = self.row[0].ljust(WIDTH)
            right = self.row[1] if len(self.row) > 1 else ""
            n = sum(1 for line in self.lines if line[:4].strip().endswith(")")) + 1
            self.lines.append(f"{n:3d}) {left}{right}".rstrip())
            self.row = []

    def wins(self, side: str, points: int) -> None:
        text = f" Wins {points} point{'s' if points != 1 else ''}"
        if COL[side] == 1 and len(self.row) == 1:
            self.row.append(text)
            self.flush()
            return
        self.flush()
        self.lines.append((" " * 5 if COL[side] == 0 else " " * 33) + text)


def export_mat(events: list[ev.Event]) -> str:
    """The .mat text of a match's events (the record as it stands: corrected plays replaced,
    undone entries left out). A match that ended away from the board (a flag, an expulsion,
    lateness — a forfeit or a withdrawal is recorded as lateness — or slow-play penalty
    points) says why in a comment citing its paragraph, and its winner wins what he needed in
    the game in progress (or in one more game), so a reader sums the right final score."""
    events = [events[i] for i in kept(events)]
    state = st.initial_state()
    out: list[str] = []
    game: _Game | None = None
    before = state.score  # the score before the last event (penalty points credited)
    for e in events:
        if type(e) is ev.MatchEnded and e.rule in ENDINGS:  # a game's end cites KSI 4.5
            game = _ended_away(state, before, e, out, game)
        else:
            game = _export_event(state, e, out, game)
        before, state = state.score, evolve(state, e)
    if game:
        game.flush()
        out += game.lines
    return "\n".join([*_why(events), *out]) + "\n"


def _why(events: list[ev.Event]) -> list[str]:
    """Header comments (GNU Backgammon keeps them as the match's comment): a match played under
    other rules says so; penalty points credited between the games, and why a match that
    ended away from the board ended, each cite the paragraph."""
    state, lines = st.initial_state(), []
    for i, e in enumerate(events):
        names = dict(zip("AB", state.players, strict=True))
        if type(e) is ev.MatchCreated and e.other_rules:
            lines.append(mat_away.OTHER_RULES_MARK)
        elif type(e) is ev.PenaltyPoints and not _ends(events, i):
            lines.append(mat_away.penalty_comment(e, names[e.side], _game_at(state)))
        elif type(e) is ev.MatchEnded and e.rule in ENDINGS:
            why = ENDINGS[e.rule]
            if e.rule == "KSI 4.3.3":
                why = f"{names[_flagged(state, e)]}'s time ran out"
            loser = names[st.other(e.winner)]
            lines.append(mat_away.comment(e.rule, why, names[e.winner], loser))
        state = evolve(state, e)
    return lines


def _ends(events: list[ev.Event], i: int) -> bool:
    return i + 1 < len(events) and type(events[i + 1]) is ev.MatchEnded


def _game_at(state: st.MatchState) -> str:
    """Where in the match an event falls: in the game in progress, or before the next one."""
    if state.game.phase == st.OVER:
        return f"before game {state.games + 1}"
    return f"in game {state.games}"


def _ended_away(
    state: st.MatchState,
    before: tuple[int, int],
    e: ev.MatchEnded,
    out: list[str],
    game: _Game | None,
):
    """The ending's comment, and the winner's win of what he needed to reach the length (from
    the score `before` the penalty points that took him there, when they did)."""
    score = state.score if state.score[COL[e.winner]] < state.length else before
    a, b = state.players
    need = max(1, state.length - score[COL[e.winner]])
    if game is None or state.game.phase == st.OVER:
        if game:
            game.flush()
            out += [*game.lines, ""]
        n = state.games + 1
        left = f" {a} : {score[0]}"
        game = _Game([f" Game {n}", f"{left.ljust(WIDTH + 4)}{b} : {score[1]}"])
    game.flush()
    game.wins(e.winner, need)
    return game


def _flagged(state: st.MatchState, e: ev.MatchEnded) -> str:
    """The side whose time ran out: the loser, unless he was certain to win (gin)."""
    running = state.timer.running if state.timer else ""
    return running or st.other(e.winner)


def _export_event(state: st.MatchState, e: ev.Event, out: list[str], game: _Game | None):
    if type(e) is ev.MatchCreated:
        out += ["", f" {e.length} point match", ""]
    elif type(e) is ev.GameStarted:
        if game:
            game.flush()
            out += [*game.lines, ""]
        a, b = state.players
        left = f" {a} : {e.score[0]}"
        game = _Game([f" Game {e.game_no}", f"{left.ljust(WIDTH + 4)}{b} : {e.score[1]}"])
    elif game is not None:
        _game_cell(state, e, game)
    return game


def _game_cell(state: st.MatchState, e: ev.Event, game: _Game) -> None:
    t = type(e)
    if t is ev.PlayRecorded:
        game.cell(e.side, _moves_text(state, e))
    elif t is ev.IllegalPlayCorrected:
        _unplay(game)
    elif t is ev.DoubleOffered and e.early:  # written where it takes effect: before the answer
        game.premature = (e.side, f" Doubles => {e.value}")
    elif t is ev.DoubleOffered:
        game.cell(e.side, f" Doubles => {e.value}")
    elif t in (ev.DoubleTaken, ev.DoubleDropped):
        if game.premature[0]:
            game.cell(*game.premature)
            game.premature = ("", "")
        game.cell(e.side, " Takes" if t is ev.DoubleTaken else " Drops")
    elif t is ev.GameEnded:
        game.wins(e.winner, e.points)


def _unplay(game: _Game) -> None:
    """The corrected illegal play leaves the record (the replay takes its place)."""
    if game.row and game.row[-1]:
        game.row.pop()
        if game.row == [""]:
            game.row = []
        return
    last = game.lines.pop()
    cells = _cells(last[last.index(")") + 1 :], 0)
    game.row = [text for _, text in cells][:-1]
    if cells and cells[0][0] == 1:
        game.row = [""]


# --- import ---------------------------------------------------------------------------------

CELL = re.compile(
    r"\d\d:|Doubles => \d+|Takes|Drops|Wins \d+ points?(?: and the match)?|Beavers => \d+"
    r"|Losses \d+ points?"
)
MOVE_LINE = re.compile(r"^\s*\d+\)(.*)$")
LENGTH = re.compile(r"^\s*(\d+) point match\s*$")
GAME = re.compile(r"^\s*Game (\d+)\s*$")
NAMES = re.compile(r"^\s*(.+?)\s*:\s*(-?\d+)\s+(.+?)\s*:\s*(-?\d+)\s*$")
WINS = re.compile(r"^(\s*)Wins (\d+) points?( and the match)?\s*$", re.IGNORECASE)
NO_MOVE = "cannot move"  # Backgammon Studio's words for a roll with no legal play


def _cells(rest: str, line_no: int) -> list[tuple[int, str]]:
    """(column, text) of each cell after the move number."""
    found = list(CELL.finditer(rest))
    cells = []
    for i, m in enumerate(found):
        end = found[i + 1].start() if i + 1 < len(found) else len(rest)
        column = 1 if (i == 0 and m.start() > WIDTH // 2) or i == 1 else 0
        cells.append((column, rest[m.start() : end].strip()))
    if rest.strip() and not cells:
        raise MatFormatError(line_no, f"not a move: {rest.strip()!r}", code="mat_not_a_move",
                             text=rest.strip())  # fmt: skip
    return cells


def _point(token: str, line_no: int) -> int:
    token = token.strip().lower()
    if token == "bar":
        return 25
    if token == "off":
        return 0
    if not token.isdigit() or int(token) > 25:
        raise MatFormatError(line_no, f"not a point: {token!r}", code="mat_not_a_point", text=token)
    return int(token)


def parse_moves(text: str, line_no: int = 0) -> tuple[tuple[int, int], ...]:
    """`13/8* 24/18/13 6/off 8/5(2)` -> ((13, 8), (24, 18), (18, 13), (6, 0), (8, 5), (8, 5))."""
    moves: list[tuple[int, int]] = []
    if text.strip().lower() == NO_MOVE:
        return ()
    for token in text.split():
        times = 1
        rep = re.fullmatch(r"(.*)\((\d)\)", token)
        if rep:
            token, times = rep.group(1), int(rep.group(2))
        chain = [_point(p, line_no) for p in token.replace("*", "").split("/")]
        if len(chain) < 2:
            raise MatFormatError(
                line_no, f"not a move: {token!r}", code="mat_not_a_move", text=token
            )
        moves += list(itertools.pairwise(chain)) * times
    return tuple(moves)


# what a match from another event may hold that a KSI board may not: a resignation while
# contact remains (KSI 4.5). Such a file is imported as played under other rules.
OTHER_RULES = ("KSI 4.5",)


def import_mat(text: str, match_id: str = "imported") -> list[c.Command]:
    """The commands that record the .mat match through the engine (checked by replaying). A
    match a KSI board would refuse only for a tournament rule (a resignation in contact) is
    history from another event: it is imported faithfully, marked as played under other rules.
    Anything refused names its line and game."""
    lines = text.splitlines()
    ending = mat_away.find(lines)
    if ending:
        text = _without_away_ending(lines, ending)
    if mat_away.OTHER_RULES_MARK in lines:
        return _read(text, match_id, other_rules=True, ending=ending)
    try:
        return _read(text, match_id, other_rules=False, ending=ending)
    except MatFormatError as exc:
        if exc.rule not in OTHER_RULES:
            raise
    return _read(text, match_id, other_rules=True, ending=ending)


def _without_away_ending(lines: list[str], ending: mat_away.AwayEnding) -> str:
    """A match that ended away from the board (its header comment cites the ending): the last
    Wins line is that ending, not a game's result, and a last game without a move only carries
    the penalty points credited (kept in `ending.header`) — left out, the games read back as
    they were played, and the ending is recorded after them."""
    starts = [i for i, line in enumerate(lines) if GAME.match(line)]
    wins = [i for i, line in enumerate(lines) if "Wins" in line and i > max(starts, default=-1)]
    if wins:  # gnubg writes no Wins where it read none (an ending in a game without a move)
        lines = lines[: wins[-1]] + lines[wins[-1] + 1 :]
    if starts and not any(MOVE_LINE.match(line) for line in lines[starts[-1] :]):
        score = [NAMES.match(line) for line in lines[starts[-1] + 1 :]]
        found = next((m for m in score if m), None)
        if found:
            ending.header = (int(found.group(2)), int(found.group(4)))
        if len(starts) > 1:
            lines = lines[: starts[-1]]
    return "\n".join(lines) + "\n"


def _read(
    text: str, match_id: str, other_rules: bool, ending: mat_away.AwayEnding | None = None
) -> list[c.Command]:
    lines = text.splitlines()
    reader = _Reader(match_id, other_rules, mat_away.penalties(lines))
    for n, line in enumerate(lines, start=1):
        try:
            reader.line(n, line)
        except RuleViolation as exc:
            raise _refused(n, exc, reader.state.games) from None
    if not reader.commands:
        raise MatFormatError(1, "no 'N point match' line", code="mat_no_length")
    try:
        reader.penalise(*sorted(reader.penalties))
        if ending:
            mat_away.carry_out(lambda: reader.state, reader.apply, ending)
    except RuleViolation as exc:
        raise _refused(len(lines), exc, reader.state.games) from None
    return reader.commands


def _refused(line: int, exc: RuleViolation, game: int) -> MatFormatError:
    """A record the rules refuse, as the engine words it: its code and figures."""
    return MatFormatError(line, exc.message, game, exc.rule, code=exc.code, **exc.params)


class _Reader:
    """Turns .mat lines into commands, keeping the engine's state to place each one."""

    def __init__(self, match_id: str, other_rules: bool = False, penalties=None) -> None:
        self.match_id, self.other_rules = match_id, other_rules
        self.penalties = dict(penalties or {})  # by (in|before, game number), not yet credited
        self.state = st.initial_state()
        self.commands: list[c.Command] = []
        self.length = 0
        self.unplayed: tuple[st.MatchState, c.Play] | None = None  # a roll left unplayed
        self.starting = False  # a game header read, its game not yet started
        self.losses: tuple[int, str, int] | None = None  # a "Losses N point" cell (Galaxy)

    def apply(self, cmd: c.Command) -> None:
        for e in decide(self.state, cmd):
            self.state = evolve(self.state, e)
        self.commands.append(cmd)

    def line(self, n: int, line: str) -> None:
        if not line.strip() or line.lstrip().startswith(";"):
            return
        if m := LENGTH.match(line):
            self.length = int(m.group(1))
        elif GAME.match(line):
            self._game_start()
        elif (m := MOVE_LINE.match(line)) and self.state.created:
            self._started()
            for column, cell in _cells(m.group(1), n):
                self._cell(n, "AB"[column], cell)
        elif m := WINS.match(line):
            self._started()
            side = "A" if len(m.group(1)) < WIDTH // 2 else "B"
            self._wins(n, side, int(m.group(2)), match=bool(m.group(3)))
        elif (m := NAMES.match(line)) and not self.state.created:
            self._create(n, m.group(1), m.group(3))

    def _create(self, n: int, a: str, b: str) -> None:
        if not self.length:
            raise MatFormatError(n, "the match length comes first", code="mat_length_first")
        self.apply(
            c.CreateMatch(
                match_id=self.match_id,
                player_a=a,
                player_b=b,
                length=self.length,
                other_rules=self.other_rules,
            )
        )
        self.starting = True

    def _game_start(self) -> None:
        """A game header: the game starts with its first entry (one without an entry is only
        a score line, as an ending away from the board writes it)."""
        self.starting = self.state.created

    def _started(self) -> None:
        if self.starting and self.state.game.phase == st.OVER and not self.state.over:
            self.penalise(("before", self.state.games + 1))
            self.apply(c.StartGame())
            self.penalise(("in", self.state.games))
        self.starting = False

    def penalise(self, *keys: tuple[str, int]) -> None:
        """Credit the penalty points the header comment lists at these places."""
        for key in keys:
            for name, reason, points, minutes in self.penalties.pop(key, []):
                side = "AB"[self.state.players.index(name)]
                self.apply(mat_away.penalty_command(side, reason, points, minutes))

    def _cell(self, n: int, side: str, cell: str) -> None:
        g = self.state.game
        if cell.startswith("Doubles"):
            self.apply(c.Double(side=side))
        elif cell == "Takes":
            self.apply(c.Take(side=side))
        elif cell == "Drops":
            self.apply(c.Drop(side=side))
        elif cell.startswith("Wins"):
            self._wins(n, side, int(cell.split()[1]), match=cell.endswith("and the match"))
        elif cell.startswith("Losses"):  # Backgammon Galaxy: the loser's side of a result
            self.losses = (n, side, int(cell.split()[1]))
        elif cell.startswith("Beavers"):
            raise MatFormatError(n, "beavers are not played in matches", code="mat_beavers")
        else:
            dice = (int(cell[0]), int(cell[1]))
            if g.phase == st.OPENING:
                self._opening(n, side, dice)
            else:
                self.apply(c.Roll(side=side, dice=dice))
            before, play = self.state, c.Play(side=side, moves=parse_moves(cell[3:], n))
            self.apply(play)
            self.unplayed = (before, play) if not play.moves else None

    def _opening(self, n: int, side: str, dice: tuple[int, int]) -> None:
        high, low = max(dice), min(dice)
        if high == low:
            raise MatFormatError(n, "an opening roll is not a double", code="mat_opening_double")
        a, b = (high, low) if side == "A" else (low, high)
        self.apply(c.RollOpening(die_a=a, die_b=b))

    def _wins(self, n: int, side: str, points: int, match: bool = False) -> None:
        """A game not yet over ends by concession: single, gammon or backgammon. A roll with
        no play before it is a roll then a resignation, not an illegal play. A line that
        wins "and the match" may give only the points the winner needed (as Backgammon
        Studio writes it): the concession is then the least that reaches the length, as
        GNU Backgammon reads it. Backgammon Galaxy writes the loser's "Losses N point" beside
        it: the same game's result, which must agree."""
        self._agrees(n, side, points)
        if self.unplayed and self.state.game.illegal and self.commands[-1] is self.unplayed[1]:
            self.state = self.unplayed[0]
            self.commands.pop()
        self.unplayed = None
        g = self.state.game
        if g.illegal:  # an illegal last play stands: the game ends with it
            self.apply(c.AcceptIllegalPlay(side=st.other(g.illegal[0])))
            g = self.state.game
        if g.phase == st.OVER:
            return
        self.apply(c.Concede(side=st.other(side), kind=self._kind(n, side, points, match)))
        self.apply(c.AnswerConcession(side=side, accept=True))

    def _agrees(self, n: int, side: str, points: int) -> None:
        if self.losses is None:
            return
        at, loser, lost = self.losses
        self.losses = None
        if loser == side or lost != points:
            raise MatFormatError(
                n, f"line {at}'s loss is not this win's", code="mat_loss_not_win", at=at
            )

    def _kind(self, n: int, side: str, points: int, match: bool) -> str:
        cube = self.state.game.cube
        if match and points == self.state.length - self.state.score[COL[side]]:
            points = cube * min(3, -(-points // cube))  # capped at what he needed
        kind = {1: "single", 2: "gammon", 3: "backgammon"}.get(points // cube)
        if kind is None or points % cube:
            raise MatFormatError(
                n,
                f"{points} points is not a result at cube {cube}",
                code="mat_not_a_result",
                points=points,
                cube=cube,
            )
        return kind
