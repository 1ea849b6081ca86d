"""The registry of disciplines: what the house records (decision 0076), one line each in
`plugins/house.py` (with their sports, decision 0149; there since the federation folds the
same events, decision 0173), and each one's competition flow, one line each here.

Each discipline implements the port (`tableside.match.discipline.Discipline`); its slice
(`tableside.plugins.<name>`) brings its competition flow too. A test app registers one more
with `house_disciplines().plus(theirs)` (tests/match/coin_toss.py).
"""

from __future__ import annotations

from tableside.competition.flows import Flows
from tableside.match.port_service import PortMatches
from tableside.plugins.backgammon.competition_flow import BackgammonFlow
from tableside.plugins.house import house_disciplines
from tableside.plugins.korona.competition_flow import KoronaFlow

__all__ = ["competition_flows", "house_disciplines"]


def competition_flows(plays: PortMatches) -> Flows:
    """How a competition plays each discipline's matches, by the guide's sport (each on the
    port's service, `match/port_service.py`)."""
    flows = (KoronaFlow(plays.of("korona")), BackgammonFlow(plays.of("backgammon")))
    return Flows(flows, plays.disciplines.tables())
