"""What a backgammon match's protocol holds, from its stored events (after undos).

KSI 4.6/4.7: the players, the match length and clock, one section per game (who started, the
opening roll, the cube, how it ended, the points and the score after), penalty points (2.2.4,
2.3.1.2), pauses (2.2.2), the clock events that matter (4.3.2, 4.3.2.8, 4.1.5.2, 4.3.3),
rulings and appeals (5), the result as reported and confirmed (4.6), score disputes (4.7) and
corrections. Facts are kept as codes with their values (`Entry`); the PDF words them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from tableside.disciplines.backgammon import EVENT_TYPES
from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon.cite import REPORT
from tableside.disciplines.backgammon.mat import WIDTH, export_mat
from tableside.disciplines.backgammon.record import kept
from tableside.eventlog.source import Record

_TYPES = frozenset(EVENT_TYPES)


@dataclass
class Entry:
    """One fact as the protocol lists it: a code the PDF words, its values, its paragraph."""

    code: str
    game_no: int
    rule: str
    at: datetime
    values: dict[str, Any] = field(default_factory=dict)


@dataclass
class Game:
    """One game: the score before it, who started with which roll, what happened, the end."""

    game_no: int
    score: tuple[int, int]
    crawford: bool
    opening: tuple[int, int] = (0, 0)
    starter: str = ""
    happenings: list[Entry] = field(default_factory=list)  # cube actions, illegal plays, …
    end: ev.GameEnded | None = None
    moves: list[tuple[str, str, str]] = field(default_factory=list)  # (n, A's cell, B's cell)


@dataclass
class BgSheet:
    """Everything the printed protocol shows."""

    match_id: str
    players: tuple[str, str]
    length: int
    clock: bool
    penalty_to_score: bool
    series: bool
    started_at: datetime
    last_at: datetime
    events: int = 0
    games: list[Game] = field(default_factory=list)
    penalties: list[Entry] = field(default_factory=list)
    pauses: list[Entry] = field(default_factory=list)
    clock_events: list[Entry] = field(default_factory=list)
    officials: list[Entry] = field(default_factory=list)
    result: list[Entry] = field(default_factory=list)
    winner: str = ""
    score: tuple[int, int] = (0, 0)
    head_hash: str = ""
    other_rules: bool = False  # imported history played under other rules (not KSI)
    ordering: bool = False  # between an overturn and the jury's decision: what it orders


def effective(records: list[Record]) -> list[Record]:
    """The backgammon records still on the record after undos (`record.kept`)."""
    mine = [rec for rec in records if type(rec.event) in _TYPES]
    return [mine[i] for i in kept([rec.event for rec in mine])]


def bg_sheet(records: list[Record]) -> BgSheet:
    """The sheet of a whole backgammon stream; ValueError if it holds no match."""
    on_record = effective(records)
    if not on_record or type(on_record[0].event) is not ev.MatchCreated:
        raise ValueError("not a backgammon match")
    created = on_record[0].event
    sheet = BgSheet(
        created.match_id,
        (created.player_a, created.player_b),
        created.length,
        created.clock,
        created.penalty_to_score,
        created.series,
        on_record[0].recorded_at,
        records[-1].recorded_at,
        events=records[-1].version,
        other_rules=created.other_rules,
    )
    for rec in on_record[1:]:
        _take(sheet, rec)
    moves = mat_moves(export_mat([rec.event for rec in on_record]))
    for game in sheet.games:
        game.moves = moves.get(game.game_no, [])
    return sheet


_GAME = re.compile(r"^\s*Game (\d+)\s*$")
_MOVE = re.compile(r"^\s*(\d+)\)(.*)$")


def mat_moves(text: str) -> dict[int, list[tuple[str, str, str]]]:
    """Each game's numbered lines of the .mat text as (number, A's cell, B's cell): the moves
    in the notation GNU Backgammon and Jellyfish use (`mat.export_mat` writes them)."""
    games: dict[int, list[tuple[str, str, str]]] = {}
    rows: list[tuple[str, str, str]] = []
    for line in text.splitlines():
        if game := _GAME.match(line):
            rows = games.setdefault(int(game[1]), [])
        elif move := _MOVE.match(line):
            cells = move[2]
            rows.append((move[1], cells[1 : 1 + WIDTH].strip(), cells[1 + WIDTH :].strip()))
    return games


def _take(sheet: BgSheet, rec: Record) -> None:
    e, kind = rec.event, type(rec.event)
    if kind is ev.GameStarted:
        sheet.games.append(Game(e.game_no, e.score, e.crawford))
        sheet.score = e.score
    elif kind is ev.OpeningRolled and sheet.games and e.starter:
        sheet.games[-1].opening, sheet.games[-1].starter = (e.die_a, e.die_b), e.starter
    elif kind is ev.GameEnded and sheet.games:
        sheet.games[-1].end, sheet.score = e, e.score
    elif kind in _SECTIONS:
        section, code, values = _SECTIONS[kind](e)
        entry = Entry(code, _game_no(sheet), e.rule, rec.recorded_at, values)
        _section(sheet, section).append(entry)
        sheet.officials += _beside(sheet, section, entry, e)
        ordering = sheet.ordering and kind is not ev.AppealDecided
        sheet.ordering = kind is ev.RulingOverturned or ordering
        _settle(sheet, e)


def _beside(sheet: BgSheet, section: str, entry: Entry, e: ev.Event) -> list[Entry]:
    """What a dispute's record shows besides an entry: with the jury's decision its reasoning,
    or that none was given (KSI 5.6); what the decision orders on the board (KSI 5.2)."""
    if type(e) is ev.AppealDecided:
        said = ("jury_reasons", {"text": e.reasons}) if e.reasons else ("jury_no_reasons", {})
        return [Entry(said[0], entry.game_no, REPORT, entry.at, said[1])]
    if sheet.ordering and section != "officials":
        return [replace(entry, code=f"ordered_{entry.code}")]
    return []


def _game_no(sheet: BgSheet) -> int:
    return sheet.games[-1].game_no if sheet.games else 0


def _section(sheet: BgSheet, name: str) -> list[Entry]:
    if name == "game":
        return sheet.games[-1].happenings if sheet.games else sheet.officials
    return getattr(sheet, name)


def _settle(sheet: BgSheet, e: ev.Event) -> None:
    """The score and winner an event leaves."""
    if type(e) in (ev.MatchEnded, ev.ResultCorrected):
        sheet.winner, sheet.score = e.winner, e.score
    elif type(e) in (ev.PenaltyPoints, ev.ScoreSet):
        sheet.score = e.score


# Event type -> (section, code, values) of its protocol line. Codes are the words' keys.
_SECTIONS: dict[type, Any] = {
    ev.DoubleOffered: lambda e: (
        "game",
        "double_early" if e.early else "double",
        dict(side=e.side, value=e.value),
    ),
    ev.DoubleTaken: lambda e: ("game", "take", dict(side=e.side, value=e.value)),
    ev.DoubleDropped: lambda e: ("game", "drop", dict(side=e.side)),
    ev.DoubleVoided: lambda e: ("game", "double_void", dict(side=e.side)),
    ev.CubeValueCorrected: lambda e: (
        "game",
        "cube_corrected",
        dict(shown=e.shown, value=e.value),
    ),
    ev.ConcessionOffered: lambda e: ("game", "concession", dict(side=e.side, kind=e.kind)),
    ev.ConcessionDeclined: lambda e: ("game", "concession_declined", dict(side=e.side)),
    ev.InvalidRoll: lambda e: ("game", "invalid_roll", dict(side=e.side, reason=e.reason)),
    ev.RerollRequired: lambda e: ("game", "reroll", dict(side=e.side)),
    ev.IllegalPlayAccepted: lambda e: ("game", "illegal_accepted", dict(side=e.side)),
    ev.IllegalPlayCorrected: lambda e: ("game", "illegal_corrected", dict(side=e.side)),
    ev.SetupCorrected: lambda e: ("game", "setup_corrected", {}),
    ev.SetupStands: lambda e: ("game", "setup_stands", {}),
    ev.DiceExchanged: lambda e: ("game", "dice_exchanged", dict(side=e.side)),
    ev.LeftOfBarPermitted: lambda e: ("game", "left_of_bar", dict(side=e.side)),
    ev.PenaltyPoints: lambda e: (
        "penalties",
        f"penalty_{e.reason.replace(' ', '_')}",
        dict(side=e.side, points=e.points, minutes=e.minutes, a=e.score[0], b=e.score[1]),
    ),
    ev.PauseTaken: lambda e: ("pauses", "pause", dict(side=e.side, own=e.own, pooled=e.pooled)),
    ev.ClockStarted: lambda e: (
        "clock_events",
        "clock_imposed" if e.imposed else "clock_started",
        dict(minutes=e.remaining[0] // 60_000),
    ),
    ev.ClockStopped: lambda e: (
        "clock_events",
        f"clock_stop_{e.case}",
        dict(a=_clock(e.remaining[0]), b=_clock(e.remaining[1])),
    ),
    ev.TimeAdded: lambda e: (
        "clock_events",
        "time_added" if e.ms > 0 else "time_penalty",
        dict(side=e.side, seconds=abs(e.ms) // 1000),
    ),
    ev.ForcedWait: lambda e: (
        "clock_events",
        "forced_wait",
        dict(side=e.side, seconds=e.ms // 1000),
    ),
    ev.FlagFell: lambda e: ("clock_events", "flag_gin" if e.gin else "flag", dict(side=e.side)),
    ev.ClockAbandoned: lambda e: ("clock_events", "clock_abandoned", {}),
    ev.ClockSet: lambda e: (
        "clock_events",
        "clock_set",
        dict(a=_clock(e.remaining[0]), b=_clock(e.remaining[1])),
    ),
    ev.TDCalled: lambda e: (
        "officials",
        "td_called" if e.reason.strip() else "td_called_plain",
        dict(side=e.side, reason=e.reason),
    ),
    ev.RulingGiven: lambda e: (
        "officials",
        "ruling_heard" if e.testimony else "ruling",
        dict(text=e.text, favours=e.favours, testimony=", ".join(e.testimony)),
    ),
    ev.AppealLodged: lambda e: ("officials", "appeal", dict(side=e.side)),
    ev.AppealDecided: lambda e: (
        "officials",
        "appeal_overturned" if e.overturned else "appeal_upheld",
        dict(jury=", ".join(e.jury), votes=e.overturn_votes, size=len(e.jury)),
    ),
    ev.RulingOverturned: lambda e: ("officials", "ruling_overturned", {}),
    ev.TestimonyRecorded: lambda e: (
        "officials",
        "testimony",
        dict(witness=e.witness, text=e.text),
    ),
    ev.MonitorAppointed: lambda e: ("officials", "monitor", dict(name=e.name)),
    ev.MonitorReported: lambda e: ("officials", "monitor_report", dict(name=e.name, text=e.text)),
    ev.PlayerExpelled: lambda e: ("officials", "expelled", dict(side=e.side, reason=e.reason)),
    ev.SpectatorsBarred: lambda e: ("officials", "spectators_barred", dict(side=e.requested_by)),
    ev.SpectatorsAdmitted: lambda e: ("officials", "spectators_admitted", {}),
    ev.ObjectionLodged: lambda e: ("officials", "objection", dict(side=e.side, text=e.grounds)),
    ev.MatchEnded: lambda e: (
        "result",
        "match_ended",
        dict(side=e.winner, a=e.score[0], b=e.score[1]),
    ),
    ev.ScoreSet: lambda e: (
        ("result", "score_set", dict(a=e.score[0], b=e.score[1]))
        if e.sheet_a is None or e.sheet_b is None
        else (
            "result",
            "score_set_sheets",
            dict(
                a=e.score[0],
                b=e.score[1],
                sa=f"{e.sheet_a[0]}:{e.sheet_a[1]}",
                sb=f"{e.sheet_b[0]}:{e.sheet_b[1]}",
            ),
        )
    ),
    ev.ScoreConfirmed: lambda e: (
        "result",
        "sheet_confirmed",
        dict(side=e.side, game=e.game_no, a=e.score[0], b=e.score[1]),
    ),
    ev.ResultReported: lambda e: ("result", "reported", dict(side=e.side)),
    ev.ResultConfirmed: lambda e: ("result", "confirmed", {}),
    ev.ResultCorrected: lambda e: (
        "result",
        "result_corrected",
        dict(side=e.winner, a=e.score[0], b=e.score[1], reason=e.reason),
    ),
}


def _clock(ms: int) -> str:
    """Time left as m:ss."""
    seconds = max(0, ms) // 1000
    return f"{seconds // 60}:{seconds % 60:02d}"
