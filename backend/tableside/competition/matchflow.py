"""Between a competition and its match streams: start a called match on its table, and read
a finished match back as the competition's result."""

from __future__ import annotations

import uuid
from uuid import UUID

from tableside.competition.rules.entrants import Entrant
from tableside.competition.rules.events import MatchCalled
from tableside.competition.rules.guide import is_pairs
from tableside.competition.rules.matches import games_for, play_all_for
from tableside.competition.rules.results import MatchResult, forfeit_result
from tableside.competition.rules.state import Competition
from tableside.disciplines.korona import commands as rc
from tableside.disciplines.korona import events as rev
from tableside.eventlog import AppendResult, StoredEvent
from tableside.match.events import MatchScheduled
from tableside.match.folding import MatchView, Record, advance
from tableside.match.service import MatchService

META = {"recorder": "competition", "role": "head_judge"}


def match_stream(comp_id: UUID, match_id: str) -> UUID:
    """The match stream of a competition's match (`R3-2`, `W1-4`): a uuid5 of the two."""
    return uuid.uuid5(comp_id, match_id)


def match_id_of(comp_id: UUID, state: Competition, stream: UUID) -> str | None:
    """The competition's match id a match stream plays, if any."""
    return next((m for m in state.calls if match_stream(comp_id, m) == stream), None)


def create_command(comp_id: UUID, state: Competition, called: MatchCalled) -> rc.CreateMatch:
    """CreateMatch from the guide: ruleset, singles or pairs, games, play-all, points."""
    guide = state.guide
    points = guide.points
    scale = None if points.per_game else (points.win, points.draw, points.loss)
    return rc.CreateMatch(
        match_id=str(match_stream(comp_id, called.match_id)),
        side_a=_side(state.entrants[called.a]),
        side_b=_side(state.entrants[called.b]),
        ruleset=guide.ruleset,
        fmt="pairs" if is_pairs(guide) else "singles",
        games=games_for(state, called.match_id),
        play_all=play_all_for(state, called.match_id),
        points=scale,
    )


def _side(entrant: Entrant) -> tuple[str, ...]:
    """The player names a match protocol shows for an entrant (a pair's two members)."""
    names = tuple(p.name for p in entrant.members)
    return names if len(names) == 2 else (entrant.name,)


def start_match(
    matches: MatchService, comp_id: UUID, state: Competition, called: MatchCalled
) -> AppendResult:
    """Create the called match's stream on its table (once: the command id is derived)."""
    stream = match_stream(comp_id, called.match_id)
    venue = MatchScheduled(table=called.table, competition_id=str(comp_id), at=called.at)
    return matches.create(
        stream,
        create_command(comp_id, state, called),
        venue,
        command_id=uuid.uuid5(stream, "create"),
        meta=META,
    )


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
