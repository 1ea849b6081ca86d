"""The registry of disciplines, one line each: what the house records (decision 0076).

Each discipline implements the port (`tableside.match.discipline.Discipline`); its slice
(`tableside.plugins.<name>`) brings its competition flow too. A test app registers one more
with `house_disciplines().plus(theirs)` (tests/match/coin_toss.py).
"""

from __future__ import annotations

from tableside.competition.flows import Flows
from tableside.competition.rules import sports
from tableside.eventlog import EventStore
from tableside.match.discipline import Disciplines
from tableside.plugins.backgammon import competition_rules as backgammon_competition
from tableside.plugins.backgammon.competition_flow import BackgammonFlow
from tableside.plugins.backgammon.discipline import BACKGAMMON
from tableside.plugins.backgammon.service import BackgammonService
from tableside.plugins.korona import competition_rules as korona_competition
from tableside.plugins.korona.competition_flow import KoronaFlow
from tableside.plugins.korona.discipline import KORONA
from tableside.plugins.korona.service import MatchService

# What each discipline says about a competition (decision 0149), known from this module's
# import on: every path that records or folds (the app, the registry, the CLI's rebuilds)
# imports it. Korona's first: a guide naming no sport is korona's.
sports.register(korona_competition.SPORT, backgammon_competition.SPORT)


def house_disciplines() -> Disciplines:
    """Every discipline this house records."""
    return Disciplines((KORONA, BACKGAMMON))


def competition_flows(matches: MatchService, store: EventStore) -> Flows:
    """How a competition plays each discipline's matches, by the guide's sport."""
    return Flows((KoronaFlow(matches), BackgammonFlow(BackgammonService(store))))
