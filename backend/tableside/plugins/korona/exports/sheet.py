"""What the official match protocol holds, from a match's stored events (after corrections).

EKML §16 / NOVUS08 9.1.7, 9.1.11: event, table, players, each game's result and who had the
opening shot, remarks and penalties, the table judge's signature and when it was given.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from tableside.disciplines.korona import events as ev
from tableside.plugins.korona.folding import MatchView, Record, fold_records


@dataclass
class Game:
    """One game's line: number, opener, winner side ('A'/'B', '' if annulled), why."""

    game_no: int
    opener: str
    winner: str = ""
    reason: str = ""  # the engine's code (GameEnded / GameAnnulled): the PDF words it
    annulled: bool = False
    seats: tuple[str, ...] = ()  # clockwise from the opening seat (EKML §28(1))
    seats_rule: str = ""  # why they sit so: the set-up, or the move between games


@dataclass
class Sanction:
    """A remark, warning or penalty as the protocol lists it: who did it and who bore it, each
    by name (in pairs a partner's offence is borne by the player with the turn, EKML §28(5);
    the 30 s limit by the whole pair, §28(10))."""

    game_no: int
    kind: str  # remark | warning | penalty | removed | time_limit | forfeit_turn | games_lost
    player: str  # who bears it: the penalised player, or the pair's names
    detail: str  # a code (remark reason, foul, card, scope) or a number of games
    rule: str
    count: int = 0  # the side's remarks so far, for a remark
    offender: str = ""  # who committed it ("" where nobody did: the 30 s limit, lost games)


@dataclass
class Correction:
    """A correction as the protocol lists it: which event, by whom (a code), why, and the
    entry it took back (the event at `version`, worded by the PDF as the pad's Undo says it)."""

    version: int
    by: str
    reason: str
    entry: object = None


@dataclass
class ProtocolSheet:
    """Everything the printed protocol shows."""

    match_id: str
    competition: str
    table: int | None
    ruleset: str
    side_a: tuple[str, ...]
    side_b: tuple[str, ...]
    games_scheduled: int
    games: list[Game] = field(default_factory=list)
    sanctions: list[Sanction] = field(default_factory=list)
    corrections: list[Correction] = field(default_factory=list)
    won: tuple[int, int] = (0, 0)
    winner: str = ""
    result_points: tuple[float, float] = (0.0, 0.0)
    judge: str = ""
    signed_at: datetime | None = None
    events: int = 0  # the stream's events and its last one's hash (the route fills them in)
    head_hash: str = ""


def protocol_sheet(records: list[Record]) -> ProtocolSheet:
    """The sheet of a whole stream (the effective entries: corrections applied)."""
    view = fold_records(records)
    if view is None:
        raise ValueError("a protocol needs at least one event")
    s = view.state
    sheet = ProtocolSheet(
        str(view.match_id),
        view.competition_id,
        view.table,
        s.ruleset,
        s.side_a,
        s.side_b,
        s.games,
        won=s.won,
        winner=s.winner,
        result_points=s.result_points,
    )
    _walk(sheet, view)
    times = {r.version: r.recorded_at for r in records}
    for version, event in view.effective:
        if type(event) is ev.ProtocolSigned:
            sheet.judge, sheet.signed_at = event.judge, times.get(version)
        elif type(event) is ev.CorrectionRecorded:
            sheet.corrections.append(_correction(event, records))
    return sheet


def _correction(e: ev.CorrectionRecorded, records: list[Record]) -> Correction:
    taken_back = next((r.event for r in records if r.version == e.corrects_version), None)
    return Correction(e.corrects_version, e.by, e.reason, taken_back)


def _walk(sheet: ProtocolSheet, view: MatchView) -> None:
    game_no, foul = 0, ev.FoulCommitted(player="", code="")
    for _, e in view.effective:
        kind = type(e)
        if kind is ev.GameSetUp:
            game_no = e.game_no
            sheet.games = [g for g in sheet.games if g.game_no != e.game_no]  # a replay
            sheet.games.append(Game(e.game_no, e.opener, seats=e.seats, seats_rule=e.rule))
        elif kind in (ev.GameEnded, ev.GameAnnulled):
            _finish(sheet, e)
        elif kind is ev.RemainingGamesLost:
            _lost_unplayed(sheet, e)
        elif kind is ev.FoulCommitted:
            foul = e
        elif kind in ev.ENTRY_TYPES:
            foul = ev.FoulCommitted(player="", code="")
        sanction = _sanction(e, game_no, foul, sheet)
        if sanction is not None:
            sheet.sanctions.append(sanction)


def _finish(sheet: ProtocolSheet, e) -> None:
    for g in sheet.games:
        if g.game_no == e.game_no:
            g.winner = getattr(e, "winner", "")
            g.reason, g.annulled = e.reason, not g.winner


def _lost_unplayed(sheet: ProtocolSheet, e: ev.RemainingGamesLost) -> None:
    """The games the third remark lost without their being played (EKML §22(5), §26(2)):
    each its own line, won by the other side, nobody opening."""
    last = max((g.game_no for g in sheet.games), default=0)
    winner = "B" if e.side == "A" else "A"
    for n in range(last + 1, last + 1 + e.games):
        sheet.games.append(Game(n, "—", winner=winner, reason="third_remark"))


def side_names(sheet: ProtocolSheet, side: str) -> str:
    """A side by its players' names ("Jaan Kask / Mari Mets"), never by its letter."""
    return " / ".join(sheet.side_a if side == "A" else sheet.side_b)


def _sanction(e, game_no: int, foul: ev.FoulCommitted, sheet: ProtocolSheet) -> Sanction | None:
    kind = type(e)
    if kind is ev.RemarkGiven:
        return Sanction(game_no, "remark", e.player, e.reason, e.rule, e.count, e.player)
    if kind is ev.WarningGiven:
        return Sanction(game_no, "warning", e.player, e.card, e.rule, offender=e.player)
    if kind is ev.PenaltyAwarded:  # e.player receives it; the foul's player committed it
        offender = foul.player or e.player
        return Sanction(game_no, "penalty", e.player, foul.code, e.rule, offender=offender)
    if kind is ev.PlayerRemoved:
        return Sanction(game_no, "removed", e.player, e.scope, e.rule, offender=e.player)
    if kind is ev.NextTurnForfeited:
        offender = foul.player or e.player
        return Sanction(game_no, "forfeit_turn", e.player, foul.code, e.rule, offender=offender)
    if kind is ev.TimeLimitImposed:
        return Sanction(game_no, "time_limit", side_names(sheet, e.side), "", e.rule)
    if kind is ev.RemainingGamesLost:
        return Sanction(game_no, "games_lost", side_names(sheet, e.side), str(e.games), e.rule)
    return None
