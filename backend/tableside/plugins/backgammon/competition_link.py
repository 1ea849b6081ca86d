"""The link from a backgammon match stream to its competition: the creating write's metadata
(`competition_id`, `match`), and what the competition says of a correction of that match's
result (KSI 4.6: before the next round starts). Imports no endpoint, so the endpoints and the
competition flow both read it."""

from __future__ import annotations

from uuid import UUID

import msgspec

from tableside.competition.rules.corrections import next_round_started
from tableside.competition.rules.state import Competition
from tableside.disciplines.backgammon import commands as bc
from tableside.disciplines.backgammon import events as bev
from tableside.eventlog import StoredEvent


def correction_bounds(
    command: bc.CorrectResult, stored: list[StoredEvent], competition: Competition | None
) -> bc.CorrectResult:
    """A correction of a competition's match as the competition stands (KSI 4.6): whether its
    next round has started and its results are published are the competition's facts, not
    what a client says; a match of its own keeps what the TD said."""
    if competition is None or not stored:
        return command
    match_id = stored[0].meta.get("match", "")
    started = next_round_started(competition, match_id)
    return msgspec.structs.replace(
        command, next_round_started=started, published=competition.finished
    )


def competition_of(stored: list[StoredEvent]) -> UUID | None:
    """The competition a backgammon stream was started for (None: a match of its own)."""
    if not stored or not isinstance(stored[0].event, bev.MatchCreated):
        return None
    found = stored[0].meta.get("competition_id", "")
    try:
        return UUID(found)
    except ValueError:
        return None
