"""The sheets a backgammon competition's report to the federation is made of (KSI 1.7.5,
5.6): the protocol sheet of every match the competition called, read from its stream, in the
order the matches were called."""

from __future__ import annotations

from uuid import UUID

import asyncpg

from tableside.competition.matchflow import match_stream
from tableside.competition.rules.state import Competition
from tableside.eventlog import EventRegistry
from tableside.eventlog.source import read_stream
from tableside.plugins.backgammon.competition_rules import NAME
from tableside.plugins.backgammon.exports.bg_pdf import entry_text
from tableside.plugins.backgammon.exports.bg_sheet import BgSheet, bg_sheet

_ALL = 2**62


class NotBackgammon(LookupError):
    """The report is the KSI's: a competition under another rulebook has none."""


async def report_sheets(
    conn: asyncpg.Connection, registry: EventRegistry, comp_id: UUID, state: Competition
) -> list[BgSheet]:
    """The protocol sheet of each called match with a stream (a forfeit before play has one
    too: the engine's lateness rule ended it)."""
    if state.guide is None or state.guide.sport != NAME:
        raise NotBackgammon(str(comp_id))
    sheets = []
    for match_id in state.calls:
        records = await read_stream(conn, registry, match_stream(comp_id, match_id), _ALL)
        if records:
            sheets.append(bg_sheet(records))
    return sheets


# where a dispute stands after each kind of entry (KSI 5.1-5.2)
_STANDS = {
    "td_called": "called",
    "td_called_plain": "called",
    "ruling": "ruled",
    "ruling_heard": "ruled",
    "appeal": "appealed",
    "appeal_upheld": "final",
    "appeal_overturned": "final",
}


def dispute_doc(sheet: BgSheet, words: dict[str, str]) -> dict:
    """A match's disputes for the TD's console: each call, ruling, testimony, appeal and jury
    decision in words with its KSI paragraph, and where the last dispute stands."""
    stands = [_STANDS[e.code] for e in sheet.officials if e.code in _STANDS]
    return {
        "match_id": sheet.match_id,
        "players": list(sheet.players),
        "state": stands[-1] if stands else "",
        "entries": [
            {"game_no": e.game_no, "rule": e.rule, "code": e.code,
             "text": entry_text(words, sheet, e)}
            for e in sheet.officials
        ],
    }  # fmt: skip
