"""A third discipline that exists only in the tests (issue 31, point 4): a coin-toss match, first
to `first_to` right calls. It implements the discipline port (`tableside.match.discipline`) and
nothing else (an engine alone: the port's `Simple`); `app` is a test app whose registry has
it — one line beside the house's."""

from __future__ import annotations

from typing import Literal

import msgspec
from litestar import Litestar
from tableside.match.discipline import Export, Simple
from tableside.rule_error import RuleError
from tableside.server import create_app
from tableside.server.disciplines import house_disciplines
from tableside.settings import Settings

Face = Literal["heads", "tails"]
_TAGGED = {"frozen": True, "kw_only": True, "tag_field": "type", "forbid_unknown_fields": True}


class Start(msgspec.Struct, tag="Start", **_TAGGED):
    a: str
    b: str
    first_to: int = 2


class Toss(msgspec.Struct, tag="Toss", **_TAGGED):
    call: Face
    fell: Face


class CoinMatchStarted(msgspec.Struct, tag="CoinMatchStarted", **_TAGGED):
    a: str
    b: str
    first_to: int
    rule: str = "COIN 1"


class CoinTossed(msgspec.Struct, tag="CoinTossed", **_TAGGED):
    caller: str  # "A" or "B", in turn
    call: Face
    fell: Face
    rule: str = "COIN 2"


class CoinMatchWon(msgspec.Struct, tag="CoinMatchWon", **_TAGGED):
    winner: str
    rule: str = "COIN 3"


class State(msgspec.Struct, frozen=True):
    players: tuple[str, str] = ("", "")
    first_to: int = 0
    score: tuple[int, int] = (0, 0)
    tosses: int = 0
    winner: str = ""


_DECODER = msgspec.json.Decoder(Start | Toss)


def _decide(state: State, command: Start | Toss) -> tuple:
    if isinstance(command, Start):
        if state.first_to:
            raise RuleError("COIN 1", "the match has started", "type")
        return (CoinMatchStarted(a=command.a, b=command.b, first_to=command.first_to),)
    if state.winner:
        raise RuleError("COIN 3", f"the match is over: {state.winner} won", "type")
    tossed = CoinTossed(caller="AB"[state.tosses % 2], call=command.call, fell=command.fell)
    side = tossed.caller if command.call == command.fell else "BA"[state.tosses % 2]
    won = state.score["AB".index(side)] + 1 == state.first_to
    return (tossed, CoinMatchWon(winner=side)) if won else (tossed,)


def _evolve(state: State, event, version: int) -> State:
    if isinstance(event, CoinMatchStarted):
        return State((event.a, event.b), event.first_to)
    if isinstance(event, CoinMatchWon):
        return msgspec.structs.replace(state, winner=event.winner)
    right = event.caller if event.call == event.fell else "BA"["AB".index(event.caller)]
    score = tuple(n + (i == "AB".index(right)) for i, n in enumerate(state.score))
    return msgspec.structs.replace(state, score=score, tosses=state.tosses + 1)


class CoinToss(Simple):
    name = "coin_toss"
    event_types = (CoinMatchStarted, CoinTossed, CoinMatchWon)
    exports = (
        Export("score.txt", "text/plain", lambda recs, lang, head: b"%d events" % len(recs)),
    )

    decode_command = staticmethod(_DECODER.decode)
    decide = staticmethod(_decide)
    evolve = staticmethod(_evolve)

    def initial_state(self) -> State:
        return State()

    def created(self, state: State) -> bool:
        return state.first_to > 0

    def view(self, state: State) -> dict:
        return msgspec.structs.asdict(state)

    def words(self, lang: str) -> dict[str, str]:
        return {"heads": "heads", "tails": "tails"}

    def endings(self, stream: list) -> tuple:
        return ()  # no receipts


def app() -> Litestar:
    """The house with the coin toss registered (`uvicorn --factory coin_toss:app`)."""
    return create_app(Settings.from_env(), disciplines=house_disciplines().plus(CoinToss()))
