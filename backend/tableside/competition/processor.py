"""The results processor, a consumer of the tail loop with its own tracking position:
- starts every match a competition calls (MatchCalled → the match stream on its table; a team
  match → one match stream per board, each on its board's table, EKML §29(2)), and puts a
  moved one on its new table (MatchMoved, decision 0207),
- turns a competition match's end (MatchEnded, a correction, the signature) into the
  competition's RecordResult, or a CorrectResult when a match correction changed it; a
  board's end into RecordBoardResult for that board, or CorrectBoardResult (the team result
  follows in the domain),
- closes the match stream of a match the competition decided without play (a no-show's
  forfeit, EKML §9(3); a walkover after a withdrawal, §9(4)) with MatchAbandoned, so its table
  is free again in the hall and its judge's device shows the match as over; a team match's
  boards still unplayed when its result is recorded are closed the same way.
At least once and idempotent: each write's command id is derived from what caused it
(`uuid5(match stream, version)`), so a replay after a crash stores nothing twice."""

from __future__ import annotations

import contextlib
import logging
import uuid
from uuid import UUID

import anyio.to_thread
import asyncpg

from tableside.competition.flows import Flows
from tableside.competition.matchflow import board_of, board_stream, match_id_of, match_stream
from tableside.competition.rules import commands as cc
from tableside.competition.rules import sports
from tableside.competition.rules.events import MatchCalled, MatchMoved, ResultRecorded
from tableside.competition.rules.results import MatchResult
from tableside.competition.rules.state import Competition
from tableside.competition.service import CompetitionNotFound, CompetitionService
from tableside.eventlog import STORE_AWAY, EventRegistry, EventStore
from tableside.eventlog.runner import Db, follow
from tableside.eventlog.source import Record
from tableside.match.errors import MatchNotFound
from tableside.rule_error import RuleError

log = logging.getLogger(__name__)
FORFEITED = "forfeit_recorded"  # the abandoned match's reason (a code: words in codes.*.json)
TEAM_DECIDED = "team_result_recorded"  # a board left unplayed once its team match was decided
NAME = "competition_results"
_CORRECTED = "corrected in the match protocol"  # a CorrectResult's reason
META = {"recorder": "results-processor", "role": "head_judge"}
_POSITION = "SELECT position FROM projection_tracking WHERE name = $1"
_SAVE = "UPDATE projection_tracking SET position = greatest(position, $2) WHERE name = $1"


class ResultsProcessor:
    """One per process (on its tail); idempotent writes make several processes safe. Each
    discipline's matches go through its flow (`competition/flows.py`), by the guide's sport."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        registry: EventRegistry,
        store: EventStore,
        competitions: CompetitionService,
        flows: Flows,
    ) -> None:
        self.pool, self.registry, self.store = pool, registry, store
        self.competitions, self.flows = competitions, flows
        self._mine = (MatchCalled, MatchMoved, ResultRecorded, *flows.endings)

    async def position(self, conn: asyncpg.Connection) -> int:
        return await conn.fetchval(_POSITION, NAME)

    async def take(self, db: Db, records: list[Record]) -> None:
        """A batch from the tail: what concerns it goes to one thread at once (the store is
        synchronous), never a thread hop per event, with no connection of the app's pool
        held meanwhile; then the tracking position is saved. A store that is busy or away
        (its pool, its lock, the database: `STORE_AWAY`) fails the batch, which the
        tail hands over again — the writes are idempotent — instead of skipping it."""
        mine = [r for r in records if isinstance(r.event, self._mine)]
        if mine:
            await anyio.to_thread.run_sync(self.handle_all, mine)
        async with db() as conn:
            await conn.execute(_SAVE, NAME, records[-1].position)

    async def catch_up(self) -> int:
        """Handle everything stored so far (without the tail); return the position reached."""
        async with self.pool.acquire() as conn:
            return await follow(conn, self.registry, [self], 200)

    def handle_all(self, records: list[Record]) -> None:
        for rec in records:
            self.handle(rec.stream_id, rec.version, rec.event)

    def handle(self, stream: UUID, version: int, event: object) -> None:
        """One event: start a called match, or record a match's end; never stop the loop."""
        try:
            if isinstance(event, MatchCalled):
                self.start(stream, event)
            elif isinstance(event, MatchMoved):
                self.move(stream, version, event)
            elif isinstance(event, ResultRecorded):
                self.close_unplayed(stream, event)
            elif type(event) in self.flows.by_ending:
                self.record(stream, version)
        except (RuleError, CompetitionNotFound) as exc:
            log.warning("%s: %s at %s v%s: %s", NAME, type(event).__name__, stream, version, exc)
        except STORE_AWAY:
            raise  # the store busy or away: the batch is handed over again, not skipped
        except Exception:  # one bad event must not stop results flowing for everyone
            log.exception("%s: %s at %s v%s", NAME, type(event).__name__, stream, version)

    def start(self, comp_id: UUID, called: MatchCalled) -> None:
        """The called match's stream(s), by the flow of the guide's sport (a team match's: one
        per board)."""
        _, state = self.competitions.state(comp_id)
        self.flows.by_sport[sports.of(state.the_guide).name].start(comp_id, state, called)

    def move(self, comp_id: UUID, version: int, moved: MatchMoved) -> None:
        """A moved match's stream put on its new table, by the flow of the guide's sport
        (once: the command id is derived from the competition's version)."""
        _, state = self.competitions.state(comp_id)
        flow = self.flows.by_sport[sports.of(state.the_guide).name]
        flow.move(comp_id, state, moved, f"moved at v{version}")

    def close_unplayed(self, comp_id: UUID, event: ResultRecorded) -> None:
        """A forfeit decided by the competition closes the match's stream, if it was started
        and has not ended (a played match's own end is left as it is); a team match's result
        closes its boards' streams that have not ended (a forfeit, or NOVUS08 23.2's stop)."""
        _, state = self.competitions.state(comp_id)
        boards = state.board_calls.get(event.match_id, ())
        streams = [board_stream(comp_id, event.match_id, b.board) for b in boards]
        if not boards and event.result.forfeit:
            streams = [match_stream(comp_id, event.match_id)]
        reason = FORFEITED if event.result.forfeit else TEAM_DECIDED
        for stream in streams:
            flow = self.flows.of_stream(next(iter(self.store.read(stream)), None))
            if flow is not None:  # never called to a table: no stream
                with contextlib.suppress(MatchNotFound):
                    flow.close(stream, event, reason, META)

    def record(self, stream: UUID, version: int) -> None:
        """RecordResult (or CorrectResult) for a competition match that ended (or whose result
        a correction changed); for a team match's board, RecordBoardResult (or
        CorrectBoardResult)."""
        stored = self.store.read(stream)
        flow = self.flows.of_stream(stored[0] if stored else None)
        ended = flow.ended(stored) if flow is not None else None
        if ended is not None:
            self.submit_result(
                ended.competition_id,
                stream,
                version,
                ended.result,
                ended.at,
                keep_forfeit=ended.keep_forfeit,
            )

    def submit_result(
        self,
        comp_id: UUID,
        stream: UUID,
        version: int,
        result: MatchResult,
        at: str,
        keep_forfeit: bool = False,
    ) -> None:
        """The competition's RecordResult, or CorrectResult when the match's result changed;
        nothing when it stands as recorded (the command id is derived from the cause), nor
        (`keep_forfeit`) when the competition decided a forfeit the match record only echoes."""

        def command(state):
            board = board_of(comp_id, state, stream)
            if board is not None:
                return _board_command(state, board, result, at)
            match_id = match_id_of(comp_id, state, stream)
            recorded = state.results.get(match_id)
            if match_id is None or (recorded and recorded.result == result):
                return None
            if keep_forfeit and recorded and recorded.result.forfeit and result.forfeit:
                return None
            if recorded is None:
                return cc.RecordResult(match_id=match_id, result=result, at=at)
            return cc.CorrectResult(match_id=match_id, result=result, reason=_CORRECTED, at=at)

        self.competitions.submit(
            comp_id, command, command_id=uuid.uuid5(stream, str(version)), meta=META
        )


def _board_command(
    state: Competition, board: tuple[str, int], result: MatchResult, at: str
) -> cc.RecordBoardResult | cc.CorrectBoardResult | None:
    """RecordBoardResult for a board that ended, or CorrectBoardResult when its protocol's
    correction changed a recorded board; nothing once the team match was decided without it
    (NOVUS08 23.2) or when the board stands as recorded."""
    match_id, number = board
    recorded = state.boards.get(match_id, {}).get(number)
    if recorded is None and match_id not in state.results:
        return cc.RecordBoardResult(match_id=match_id, board=number, result=result, at=at)
    if recorded is None or recorded == result:
        return None
    return cc.CorrectBoardResult(
        match_id=match_id, board=number, result=result, reason=_CORRECTED, at=at
    )
