"""Korona's rows in the jury's finder (`match/http/finder.py`, the port's `Finder`): its
matches from the live read model (`match_live`), started when version 1 was recorded
(`match_history`); a match the competition closed as a forfeit is listed once, as the
competition's forfeit row."""

from __future__ import annotations

from typing import Any

from tableside.match.discipline import Finder
from tableside.match.http.finder import FORFEITED, folded

_NAMES = folded("(l.doc->>'side_a') || ' ' || (l.doc->>'side_b')")
QUERY = f"""
SELECT 'korona' AS discipline, l.doc::text AS doc, l.position,
       (SELECT h.recorded_at FROM match_history h WHERE h.match_id = l.match_id AND h.version = 1)
FROM match_live l
WHERE coalesce(l.doc->>'abandoned', '') <> '{FORFEITED}'
  AND ($1::int IS NULL OR l.table_no = $1)
  AND ($2::text IS NULL OR {_NAMES} LIKE $2)
  AND ($3::text IS NULL OR l.status = $3)
  AND ($4::timestamptz IS NULL OR l.updated_at >= $4)
  AND ($5::timestamptz IS NULL OR l.updated_at <= $5)
  AND ($6::bigint IS NULL OR l.position < $6)
  AND ($7::text IS NULL OR {_NAMES} LIKE $7 OR l.match_id::text LIKE $7
       OR coalesce(l.competition_id, '') LIKE $7 OR l.table_no::text = $8)
"""


def row(doc: dict[str, Any]) -> dict[str, Any]:
    """A korona row: its table, competition, games won, the game and the pucks on board."""
    game = doc.get("game") or {}
    return {
        "table": doc.get("table"),
        "competition_id": doc.get("competition_id"),
        "won": doc.get("won", [0, 0]),
        "game_no": game.get("game_no"),
        "pucks": [p["on_board"] for p in game.get("pucks", [])],
    }


FINDER = Finder(QUERY, row)
