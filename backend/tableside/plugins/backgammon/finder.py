"""Backgammon's rows in the jury's finder (`match/http/finder.py`, the port's `Finder`): its
matches from its read model (`backgammon_matches`). They have no table; a finished one is
`over` (also found as `ended`)."""

from __future__ import annotations

from typing import Any

from tableside.match.discipline import Finder
from tableside.match.http.finder import folded

_NAMES = folded("b.player_a || ' ' || b.player_b")
QUERY = f"""
SELECT 'backgammon', jsonb_build_object('match_id', b.match_id,
       'side_a', jsonb_build_array(b.player_a), 'side_b', jsonb_build_array(b.player_b),
       'status', b.status, 'score', jsonb_build_array(b.score_a, b.score_b),
       'length', b.length, 'games', b.games, 'winner', b.winner,
       'updated_at', b.updated_at)::text, b.position, b.started_at
FROM backgammon_matches b
WHERE $1::int IS NULL
  AND ($2::text IS NULL OR {_NAMES} LIKE $2)
  AND ($3::text IS NULL OR b.status = $3 OR ($3 = 'ended' AND b.status = 'over'))
  AND ($4::timestamptz IS NULL OR b.updated_at >= $4)
  AND ($5::timestamptz IS NULL OR b.updated_at <= $5)
  AND ($6::bigint IS NULL OR b.position < $6)
  AND ($7::text IS NULL OR {_NAMES} LIKE $7 OR b.match_id::text LIKE $7)
"""


def row(doc: dict[str, Any]) -> dict[str, Any]:
    """A backgammon row: its score in points (as `won`), the length, the games played; a
    finished match in the finder's words (`ended`, as a korona match not yet signed)."""
    return {
        "status": "ended" if doc["status"] == "over" else doc["status"],
        "table": None,
        "competition_id": None,
        "won": doc["score"],
        "score": doc["score"],
        "length": doc["length"],
        "game_no": doc["games"],
        "winner": doc["winner"] or None,
        "pucks": [],
    }


FINDER = Finder(QUERY, row)
