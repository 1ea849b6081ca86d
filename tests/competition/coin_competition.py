"""The test-only coin toss (`tests/match/coin_toss.py`) as a competition plays it (issue 44,
point 6): its sport (what it says about a competition: an odd number of tosses, a result cited
COIN 3; the house's defaults else: a coin match won by the first to `first_to` right calls is
a best of `games_per_match`)
and its flow (start a called match as a coin match, read a won one back as the competition's
result). The slice a discipline of its own would have in `plugins/<name>/`, in a few lines."""

from __future__ import annotations

import uuid
from uuid import UUID

from match.coin_toss import CoinMatchStarted, CoinMatchWon, CoinToss, Start
from tableside.competition.flows import Ended
from tableside.competition.matchflow import match_stream
from tableside.competition.rules.errors import require
from tableside.competition.rules.events import MatchCalled, ResultRecorded
from tableside.competition.rules.guide import Guide
from tableside.competition.rules.results import MatchResult
from tableside.competition.rules.sports import Sport
from tableside.competition.rules.state import Competition
from tableside.eventlog import StoredEvent
from tableside.match.port_service import PortMatches

NAME = CoinToss.name
META = {"recorder": "competition", "role": "head_judge"}


def check_guide(guide: Guide) -> None:
    """A coin match is a best of an odd number of tosses, won by its majority (COIN 1)."""
    require(guide.games_per_match % 2 == 1, "COIN 1", "an odd number of tosses", "coin_odd")


SPORT = Sport(name=NAME, check_guide=check_guide, result_rule="COIN 3")  # won: COIN 3


class CoinFlow:
    """Coin matches of a competition, on the kernel's port service (no slice of their own)."""

    sport = NAME
    endings = (CoinMatchWon,)

    def __init__(self, matches: PortMatches) -> None:
        self.matches = matches

    def owns(self, first: StoredEvent) -> bool:
        return isinstance(first.event, CoinMatchStarted)

    def start(self, comp_id: UUID, state: Competition, called: MatchCalled) -> None:
        stream = match_stream(comp_id, called.match_id)
        names = (state.entrants[called.a].name, state.entrants[called.b].name)
        start = Start(a=names[0], b=names[1], first_to=state.guide.games_per_match // 2 + 1)
        meta = {**META, "competition_id": str(comp_id), "match": called.match_id}
        command_id = uuid.uuid5(stream, "create")
        events = CoinToss().decide(CoinToss().initial_state(), start)
        self.matches.of(NAME).create(stream, events, command_id=command_id, meta=meta)

    def ended(self, stored: list[StoredEvent]) -> Ended | None:
        """The right calls each as the games each won, once the match is won."""
        if not stored or "competition_id" not in stored[0].meta:
            return None
        state = self.matches.of(NAME).current(stored[0].stream_id).value
        if not state.winner:
            return None
        at = stored[-1].recorded_at.isoformat()
        return Ended(UUID(stored[0].meta["competition_id"]), MatchResult(*state.score), at)

    def close(self, stream: UUID, event: ResultRecorded, reason: str, meta: dict) -> None:
        """A coin match has no ending but its toss: one decided without it is left as it is."""

    async def on_tables(self, db) -> list[tuple[int, str, str]]:
        return []  # no read model of its own: nothing on the hall's tables it must name
