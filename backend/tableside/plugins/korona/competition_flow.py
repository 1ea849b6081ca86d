"""Korona's flow in a competition (`tableside.competition.flows`): start a called match on its
table (a team match: one match stream per board, each on its board's table, EKML §29(2)),
read a finished match back as the competition's result, abandon one decided without play."""

from __future__ import annotations

import contextlib
import uuid
from uuid import UUID

from tableside.competition.flows import Ended
from tableside.competition.matchflow import board_stream, match_stream
from tableside.competition.rules.entrants import Entrant
from tableside.competition.rules.events import BoardCall, MatchCalled, MatchMoved, ResultRecorded
from tableside.competition.rules.guide import is_pairs
from tableside.competition.rules.matches import games_for, play_all_for
from tableside.competition.rules.results import MatchResult, forfeit_result
from tableside.competition.rules.state import Competition
from tableside.disciplines.korona import commands as rc
from tableside.disciplines.korona import events as rev
from tableside.eventlog import AppendResult, StoredEvent, VersionConflict
from tableside.match.errors import MatchNotFound
from tableside.match.events import MatchScheduled
from tableside.match.port_service import Matches
from tableside.plugins.korona.commanding import abandon, created
from tableside.plugins.korona.competition_rules import NAME, opening_rule
from tableside.plugins.korona.folding import MatchView, Record, advance
from tableside.plugins.korona.views import status

META = {"recorder": "competition", "role": "head_judge"}
# A match can end by MatchEnded, or inside a correction's refold; the signature closes it.
ENDINGS = (rev.MatchEnded, rev.CorrectionRecorded, rev.ProtocolSigned)


class KoronaFlow:
    """Korona matches of a competition, through the port's service (`match/port_service.py`)."""

    sport = NAME
    endings = ENDINGS

    def __init__(self, matches: Matches) -> None:
        self.matches = matches

    def owns(self, first: StoredEvent) -> bool:
        return isinstance(first.event, rev.MatchCreated)

    def start(self, comp_id: UUID, state: Competition, called: MatchCalled) -> None:
        start = start_boards if called.boards else start_match
        start(self.matches, comp_id, state, called)

    def started(self, stream: UUID) -> bool:
        try:
            return status(self.matches.view(stream)) not in ("scheduled", "called")
        except MatchNotFound:
            return False

    def move(self, comp_id: UUID, state: Competition, moved: MatchMoved, key: str) -> None:
        move_match(self.matches, comp_id, moved, key)

    def ended(self, stored: list[StoredEvent]) -> Ended | None:
        found = match_result(stored)
        if found is None or not found[0].competition_id:
            return None
        view, result = found
        try:
            comp_id = UUID(view.competition_id)
        except ValueError:
            return None  # a match on a table of no competition stream (e.g. the demo's label)
        return Ended(comp_id, result, view.updated_at.isoformat() if view.updated_at else "")

    def close(self, stream: UUID, event: ResultRecorded, reason: str, meta: dict) -> None:
        r = event.result  # a forfeit names its winner on the match's own record (issue 54)
        won_by = "" if r.a_games == r.b_games else "a" if r.a_games > r.b_games else "b"
        abandon(self.matches, stream, reason, event.at, meta, won_by if r.forfeit else "")

    async def on_tables(self, db) -> list[tuple[int, str, str]]:
        return []  # korona's matches on tables are the tables read model's, which the hall reads


def create_command(comp_id: UUID, state: Competition, called: MatchCalled) -> rc.CreateMatch:
    """CreateMatch from the guide: ruleset, singles or pairs, games, play-all, points."""
    return _create(
        state,
        called.match_id,
        match_stream(comp_id, called.match_id),
        (_side(state.entrants[called.a]), _side(state.entrants[called.b])),
        "pairs" if is_pairs(state.guide) else "singles",
    )


def _create(
    state: Competition, match_id: str, stream: UUID, players: tuple, fmt: str
) -> rc.CreateMatch:
    """CreateMatch with the guide's ruleset, games, play-all and points for this match."""
    points = state.guide.points
    return rc.CreateMatch(
        match_id=str(stream),
        side_a=players[0],
        side_b=players[1],
        ruleset=state.guide.ruleset,
        fmt=fmt,
        games=games_for(state, match_id),
        play_all=play_all_for(state, match_id),
        points=None if points.per_game else (points.win, points.draw, points.loss),
        fill_silences=state.guide.fill_silences,
        opening=opening_rule(state.guide),
    )


def _side(entrant: Entrant) -> tuple[str, ...]:
    """The player names a match protocol shows for an entrant (a pair's two members)."""
    names = tuple(p.name for p in entrant.members)
    return names if len(names) == 2 else (entrant.name,)


def start_match(
    matches: Matches, comp_id: UUID, state: Competition, called: MatchCalled
) -> AppendResult:
    """Create the called match's stream on its table (once: the command id is derived)."""
    stream = match_stream(comp_id, called.match_id)
    venue = MatchScheduled(table=called.table, competition_id=str(comp_id), at=called.at)
    events = created(create_command(comp_id, state, called), venue)
    return matches.create(stream, events, command_id=uuid.uuid5(stream, "create"), meta=META)


def start_boards(
    matches: Matches, comp_id: UUID, state: Competition, called: MatchCalled
) -> list[AppendResult]:
    """One match stream per board of a called team match, on its board's table, so each
    table's judge device moves to its board's match (once each: the command ids are derived)."""
    return [_start_board(matches, comp_id, state, called, b) for b in called.boards]


def _start_board(
    matches: Matches, comp_id: UUID, state: Competition, called: MatchCalled, b: BoardCall
) -> AppendResult:
    """Board b of a team match: its two players, singles (EKML §29(2))."""
    stream = board_stream(comp_id, called.match_id, b.board)
    command = _create(state, called.match_id, stream, ((b.a,), (b.b,)), "singles")
    venue = MatchScheduled(table=b.table, competition_id=str(comp_id), at=called.at, board=b.board)
    events = created(command, venue)
    return matches.create(stream, events, command_id=uuid.uuid5(stream, "create"), meta=META)


def move_match(matches: Matches, comp_id: UUID, moved: MatchMoved, key: str) -> None:
    """A second MatchScheduled on the moved match's stream: its new table takes it, the old
    one is free (the tables read model, the judge's token: decision 0207). Nothing when it
    was never started, is on that table already, or has ended meanwhile; an event stored
    between the read and the append (the players called) is read again."""
    stream = match_stream(comp_id, moved.match_id)
    for _ in range(5):
        try:
            view = matches.view(stream)
        except MatchNotFound:
            return
        if view.table == moved.table or view.abandoned or view.state.ended:
            return
        venue = MatchScheduled(
            table=moved.table, competition_id=str(comp_id), at=moved.at, moved_from=view.table or 0
        )
        with contextlib.suppress(VersionConflict):
            matches.store.append(
                stream,
                (venue,),
                expected_version=view.version,
                command_id=uuid.uuid5(stream, key),
                meta=META,
            )
            return


def match_result(stored: list[StoredEvent]) -> tuple[MatchView, MatchResult] | None:
    """A finished match's result as the competition records it: games, drawn games, pucks
    difference for side A (pucks left on the loser's side at each game's end), forfeit."""
    view, left = None, {}
    for s in stored:
        view = advance(
            view, Record(s.stream_id, s.version, s.position, s.type, s.event, s.recorded_at)
        )
        if isinstance(s.event, rev.GameEnded):
            pucks = view.state.game.pucks
            left[s.event.game_no] = pucks[1].on_board - pucks[0].on_board
    if view is None or not view.state.ended:
        return None
    st = view.state
    if st.forfeit and st.winner:
        return view, forfeit_result("a" if st.winner == "A" else "b", st.games)
    drawn = max(0, st.games_played - st.won[0] - st.won[1])
    return view, MatchResult(
        st.won[0], st.won[1], drawn_games=drawn, a_pucks_diff=sum(left.values()), forfeit=st.forfeit
    )
