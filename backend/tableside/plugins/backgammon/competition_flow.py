"""Backgammon's flow in a competition (`tableside.competition.flows`): start a called match as a
backgammon match to the round's length, read a finished one back as the competition's result,
end one the competition decided as a forfeit.

The link from a match stream to its competition is the creating write's metadata
(`competition_id`, `match`): the backgammon engine knows matches, not competitions, and the
korona venue event (`MatchScheduled`) would put the stream on the korona tables read model.
"""

from __future__ import annotations

import contextlib
import uuid
from uuid import UUID

from tableside.competition.flows import Ended
from tableside.competition.matchflow import match_stream
from tableside.competition.rules.events import MatchCalled, MatchMoved, ResultRecorded
from tableside.competition.rules.results import MatchResult, forfeit_result
from tableside.competition.rules.state import Competition
from tableside.disciplines.backgammon import commands as bc
from tableside.disciplines.backgammon import decide, evolve, initial_state
from tableside.disciplines.backgammon import events as bev
from tableside.disciplines.backgammon import state as st
from tableside.eventlog import AppendResult, StoredEvent, VersionConflict
from tableside.match.errors import MatchNotFound
from tableside.match.port_service import Matches
from tableside.plugins.backgammon.competition_link import competition_of
from tableside.plugins.backgammon.competition_rules import NAME, match_length
from tableside.plugins.backgammon.http.reads import on_tables
from tableside.plugins.backgammon.stream import history

META = {"recorder": "competition", "role": "head_judge"}
# What ends a backgammon match or changes its result: every way a match is won emits
# MatchEnded (on the board KSI 4.5, lateness 2.2.4, flag 4.3.3, expulsion 1.2.4 / 1.7.3 /
# 1.2.3.2, penalty points); the TD's correction (KSI 4.6) changes winner and score.
ENDINGS = (bev.MatchEnded, bev.ResultCorrected)
_LOST_AWAY_FROM_BOARD = ("KSI 2.2.4", "KSI 1.2.4", "KSI 1.7.3", "KSI 1.2.3.2")


class BackgammonFlow:
    """Backgammon matches of a competition (the guide's sport "backgammon")."""

    sport = NAME
    endings = ENDINGS

    def __init__(self, games: Matches) -> None:
        self.games = games

    def owns(self, first: StoredEvent) -> bool:
        return isinstance(first.event, bev.MatchCreated)

    def start(self, comp_id: UUID, state: Competition, called: MatchCalled) -> None:
        start_match(self.games, comp_id, state, called)

    def started(self, stream: UUID) -> bool:
        """Play has begun once its first game has started (or it is over)."""
        try:
            state, _, _ = history(self.games, stream)
        except MatchNotFound:
            return False
        return bool(state.games or state.over)

    def move(self, comp_id: UUID, state: Competition, moved: MatchMoved, key: str) -> None:
        move_match(self.games, comp_id, moved, key)

    def ended(self, stored: list[StoredEvent]) -> Ended | None:
        """Its result once it ended (or the TD corrected it, KSI 4.6); a forfeit the
        competition decided stands as recorded."""
        comp_id = competition_of(stored)
        if comp_id is None:  # a match of its own: nothing to fold for a competition
            return None
        found = match_result(stored)
        if found is None:
            return None
        return Ended(comp_id, *found, keep_forfeit=True)

    def close(self, stream: UUID, event: ResultRecorded, reason: str, meta: dict) -> None:
        close_forfeited(self.games, stream, "a" if event.result.a_games else "b", meta)

    async def on_tables(self, db) -> list[tuple[int, str, str]]:
        return await on_tables(db)  # the backgammon read model's matches on hall tables


def create_command(comp_id: UUID, state: Competition, called: MatchCalled) -> bc.CreateMatch:
    """CreateMatch from the guide: the two players, the round's length, clock, penalty points,
    and the table it was called to (whose device records it)."""
    settings = state.guide.settings
    return bc.CreateMatch(
        match_id=str(match_stream(comp_id, called.match_id)),
        player_a=state.entrants[called.a].name,
        player_b=state.entrants[called.b].name,
        length=match_length(state, called.match_id),
        clock=bool(settings and (settings.clock or settings.clock_use == "mandatory")),  # 3.5.1.3
        penalty_to_score=settings.penalty_to_score if settings else True,
        table=called.table or 0,
    )


def start_match(
    games: Matches, comp_id: UUID, state: Competition, called: MatchCalled
) -> AppendResult:
    """Create the called match's backgammon stream (once: the command id is derived)."""
    stream = match_stream(comp_id, called.match_id)
    meta = {**META, "competition_id": str(comp_id), "match": called.match_id}
    command = create_command(comp_id, state, called)
    events = decide(initial_state(), command)
    return games.create(stream, events, command_id=uuid.uuid5(stream, "create"), meta=meta)


def move_match(games: Matches, comp_id: UUID, moved: MatchMoved, key: str) -> None:
    """The moved match's stream on its new table (MoveToTable: its device records it there,
    the old table's no longer does; decision 0207); nothing when it is there already, was
    never started, or has begun meanwhile (refused by the engine: left as it is)."""
    stream = match_stream(comp_id, moved.match_id)
    meta = {**META, "competition_id": str(comp_id), "match": moved.match_id}
    for _ in range(5):
        try:
            state, version, _ = history(games, stream)
        except MatchNotFound:
            return
        if state.table == moved.table:
            return
        command = bc.MoveToTable(table=moved.table)
        with contextlib.suppress(VersionConflict):
            games.execute(
                stream,
                command,
                expected_version=version,
                command_id=uuid.uuid5(stream, key),
                meta=meta,
            )
            return


def close_forfeited(games: Matches, stream: UUID, winner: str, meta) -> None:
    """A forfeit the competition decided (a no-show, KSI 2.2.4 in a backgammon guide; a
    withdrawal's walkover) ends the match in its own record too: the absent player late until
    his penalty points exceed half the length, so the engine ends it by KSI 2.2.4. A match
    never started, over already, or with a game under way is left as it is."""
    try:
        state, version, _ = history(games, stream)
    except MatchNotFound:
        return
    if state.over or state.game.phase != st.OVER:
        return
    late = bc.RecordLateness(side="B" if winner == "a" else "A", minutes=late_minutes(state.length))
    games.execute(
        stream, late, expected_version=version, command_id=uuid.uuid5(stream, "forfeit"), meta=meta
    )


def late_minutes(length: int) -> int:
    """Minutes late that lose a match of `length` (KSI 2.2.4: more than half in points, one a
    5 minutes)."""
    return 5 * (length // 2 + 1)


def match_result(stored: list[StoredEvent]) -> tuple[MatchResult, str] | None:
    """A finished backgammon match as the competition records it, with when it ended: the
    winner's one "game" and the score in points; lost by lateness or expulsion before any
    game was finished, a forfeit (+/−, no points counted)."""
    state, finished, at, away = initial_state(), 0, "", False
    for s in stored:
        if isinstance(s.event, bev.GameEnded):
            finished += 1
        if isinstance(s.event, ENDINGS):
            at = s.recorded_at.isoformat()
            away = isinstance(s.event, bev.MatchEnded) and s.event.rule in _LOST_AWAY_FROM_BOARD
        state = evolve(state, s.event) if type(s.event) in bev.EVENT_TYPES else state
    if not state.over or not state.winner:
        return None
    side = "a" if state.winner == "A" else "b"
    if away and not finished:
        return forfeit_result(side, 1), at
    won = (1, 0) if side == "a" else (0, 1)
    return MatchResult(*won, score=(state.score[0], state.score[1])), at
