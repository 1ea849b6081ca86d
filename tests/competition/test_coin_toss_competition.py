"""Issue 44, point 6: the seam finished on the competition's side. The test-only coin toss,
a discipline the house knows nothing of (`tests/match/coin_toss.py`), plays a round robin of
three in a competition through the competition service on real PostgreSQL: its sport
registered beside the house's, its flow handed to the results processor on the tail. Every
call starts a coin match stream (linked to its competition by the creating write's metadata),
every won match comes back as the competition's result with the right calls as its games, and
the standings rank the three; a guide of a sport nobody registered is refused, naming it."""

from __future__ import annotations

import random
import uuid

import asyncpg
import pytest
from match.coin_toss import CoinToss, Toss
from support.harness import run_async
from tableside.competition.flows import Flows
from tableside.competition.matchflow import match_stream
from tableside.competition.processor import ResultsProcessor
from tableside.competition.rules import commands as cc
from tableside.competition.rules import sports
from tableside.competition.rules.entrants import Person
from tableside.competition.rules.errors import CompetitionRuleError
from tableside.competition.rules.events import ResultRecorded
from tableside.competition.rules.guide import Guide
from tableside.competition.rules.standings import StandingsView, standings
from tableside.competition.service import CompetitionService
from tableside.db.roles import APP_ROLE
from tableside.db.url import with_user
from tableside.eventlog import EventStore
from tableside.match.port_service import PortMatches
from tableside.server.disciplines import house_disciplines
from tableside.server.registry import build_registry

from .coin_competition import NAME, SPORT, CoinFlow
from .helpers import AT, Run

DISCIPLINES = house_disciplines().plus(CoinToss())
REGISTRY = build_registry(DISCIPLINES)
META = {"recorder": "test", "role": "head_judge"}
GUIDE = Guide("Coin cup", sport=NAME, format="round_robin", games_per_match=3)
PLAYERS = {"p1": "Ása", "p2": "Bjarni", "p3": "Dóra"}


@pytest.fixture(autouse=True)
def coin_sport():
    sports.register(SPORT)  # beside the house's, as its composition root would


class Event:
    """One competition on real PostgreSQL: its service, the coin matches' port service, and the
    results processor with the coin toss's flow, following the tail as the server's does."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.store = EventStore.connect(REGISTRY, url, 2)
        self.service = CompetitionService(self.store)
        self.coins = PortMatches(self.store, DISCIPLINES)
        self.flows = Flows((CoinFlow(self.coins),))  # the coin toss's only
        self.id = uuid.uuid4()

    def create(self, guide: Guide) -> None:
        command = cc.CreateCompetition(guide, AT)
        self.service.create(self.id, command, command_id=uuid.uuid4(), meta=META)

    def do(self, command) -> None:
        version, _ = self.service.state(self.id)
        self.service.execute(
            self.id, command, expected_version=version, command_id=uuid.uuid4(), meta=META
        )

    def state(self):
        return self.service.state(self.id)[1]

    def process(self) -> None:
        """The results processor on the tail, caught up with everything stored."""

        async def follow() -> None:
            pool = await asyncpg.create_pool(with_user(self.url, APP_ROLE), min_size=1, max_size=2)
            try:
                processor = ResultsProcessor(pool, REGISTRY, self.store, self.service, self.flows)
                await processor.catch_up()
            finally:
                await pool.close()

        run_async(follow())


def _toss_to_the_end(event: Event, stream: uuid.UUID, rng: random.Random) -> None:
    """Tosses until the coin match is won (each a real command on its stream)."""
    for n in range(9):
        folded = event.coins.of(NAME).current(stream)
        state, version = folded.value, folded.version
        if state.winner:
            return
        toss = Toss(call=rng.choice(("heads", "tails")), fell=rng.choice(("heads", "tails")))
        command_id = uuid.uuid5(stream, str(n))
        event.coins.of(NAME).execute(
            stream, toss, expected_version=version, command_id=command_id, meta=META
        )
    raise AssertionError("a best of three never won")


def test_the_coin_toss_plays_a_round_robin_of_three_in_a_competition(database_url) -> None:
    event, rng = Event(database_url), random.Random(44)
    try:
        event.create(GUIDE)
        for entrant, name in PLAYERS.items():
            event.do(cc.RegisterEntrant(entrant, name, (Person(name, 1990, "M"),), AT))
            event.do(cc.ApproveEntrant(entrant))
            event.do(cc.CheckInEntrant(entrant, AT))
        event.do(cc.MakeDraw(seed=3, at=AT))
        played = {}
        while len(event.state().results) < 3:
            event.do(cc.CallNextMatches(free_tables=(1, 2), at=AT))
            event.process()  # MatchCalled → a coin match stream on its table
            for match_id in set(event.state().calls) - set(event.state().results):
                stream = match_stream(event.id, match_id)
                first = event.store.read(stream)[0]
                assert first.meta["competition_id"] == str(event.id)
                _toss_to_the_end(event, stream, rng)
                played[match_id] = event.coins.of(NAME).current(stream).value
            event.process()  # CoinMatchWon → the competition's RecordResult
        state = event.state()
        cited = {e.event.match_id: e.event.rule for e in event.store.read(event.id)
                 if isinstance(e.event, ResultRecorded)}  # fmt: skip
    finally:
        event.store.close()
    assert len(played) == 3  # every pair of three met once (a bye each round)
    for match_id, coin in played.items():
        recorded = state.results[match_id]
        assert (recorded.result.a_games, recorded.result.b_games) == coin.score
        assert max(coin.score) == 2 and cited[match_id] == "COIN 3"  # the sport's paragraph
        names = tuple(state.entrants[e].name for e in (recorded.a, recorded.b))
        assert names == coin.players
    rows = standings(StandingsView(state))
    assert sorted(r.entrant for r in rows) == sorted(PLAYERS)
    assert sum(r.points for r in rows) == 3 * GUIDE.points.win  # three decided matches


def test_a_sport_nobody_registered_is_refused_naming_it() -> None:
    with pytest.raises(CompetitionRuleError) as caught:
        Run(Guide("Darts night", sport="darts"))
    assert caught.value.code == "unknown_sport" and caught.value.params == {"sport": "darts"}
    assert "darts" in str(caught.value)
