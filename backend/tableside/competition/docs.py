"""JSON documents of a competition for the read side: deterministic, for byte-equal rebuilds."""

from __future__ import annotations

from typing import Any

import msgspec

from tableside.competition.rules import (
    StandingsView,
    bracket,
    final_placings,
    open_matches,
    sports,
    standings,
)
from tableside.competition.rules.state import Competition


def competition_doc(state: Competition, version: int, position: int) -> dict[str, Any]:
    """Everything the console and the public pages read of one competition."""
    done = set(state.results)
    return {
        "guide": msgspec.to_builtins(state.guide),
        "version": version,
        "position": position,
        "entrants": [_entrant(e) for e in state.entrants.values()],
        "order": list(state.order),
        "seed": state.seed,
        "current_round": state.current_round,
        "rounds": [_round(n, r, state) for n, r in sorted(state.rounds.items())],
        "bracket": [msgspec.to_builtins(s) for s in bracket(StandingsView(state))],
        "calls": [c for m, t in state.calls.items() if m not in done for c in _calls(m, t, state)],
        "waiting": [{"match_id": m, "a": a, "b": b} for m, (a, b) in open_matches(state)],
        "no_shows": [
            {"match_id": m, "absent": a} for m, a in state.no_shows.items() if m not in done
        ],
        "protests": [
            {"protest_id": p, **msgspec.to_builtins(v)} for p, v in state.protests.items()
        ],
        "results": {
            m: {"a": r.a, "b": r.b, **_present(state, msgspec.to_builtins(r.result))}
            for m, r in state.results.items()
        },
        "withdrawals": msgspec.to_builtins(state.withdrawals),
        "withdrew": withdrew(state),
        "finished": state.finished,
        "removed": state.removed,
        # the published results' edition and its corrections (decision 0191)
        "edition": state.edition,
        "corrections": [msgspec.to_builtins(c) for c in state.corrections],
        "tables": state.tables or None,  # the hall's tables as the TD set them (None: never)
        "placings": [list(g) for g in final_placings(state)] if state.guide else [],
    }


def standings_rows(state: Competition) -> list[dict[str, Any]]:
    """The ranked standings rows, without what its sport never holds."""
    return [_present(state, msgspec.to_builtins(r)) for r in standings(StandingsView(state))]


def _present(state: Competition, doc: dict[str, Any]) -> dict[str, Any]:
    """A result's or a row's fields, less those the guide's sport has none of (no pucks)."""
    absent = sports.of(state.guide).absent_fields if state.guide else frozenset()
    return {k: v for k, v in doc.items() if k not in absent}


def withdrew(state: Competition) -> list[dict[str, Any]]:
    """Who withdrew, when, after how much and how it was ruled — results kept or annulled
    (EKML §32(3), NOVUS08 3.2), not placed (§9(4)) — in the order they withdrew: the public
    standings, the venue screen and the PDF say it, an annulled entrant having no row."""
    told = [
        {"entrant": e, "name": state.entrants[e].name, **msgspec.to_builtins(w)}
        for e, w in state.withdrawals.items()
    ]
    # how it was ruled, for every face to word alike (the console's tab too: issue 54)
    return sorted(({**w, "kind": withdrawal_kind(w)} for w in told), key=lambda w: w["at"])


def withdrawal_kind(ruled: dict[str, Any]) -> str:
    """`removed` (an elimination: not placed, the matches played stand, EKML §9(4)),
    `stand` (results stand, the unplayed lost) or `annulled` (EKML §32(3))."""
    if str(ruled.get("rule", "")).startswith("EKML §9(4)"):
        return "removed"
    return "stand" if ruled["results_stand"] else "annulled"


def _entrant(entrant) -> dict[str, Any]:
    return msgspec.to_builtins(entrant)


def _round(number: int, paired, state: Competition) -> dict[str, Any]:
    return {
        "round": number,
        "bye": paired.bye,
        "pairings": [
            {
                **msgspec.to_builtins(p),
                "table": p.table or state.calls.get(p.match_id),
                "result": p.match_id in state.results,
            }
            for p in paired.pairings
        ],
    }


def _calls(match_id: str, table: int, state: Competition) -> list[dict[str, Any]]:
    """An open call as the console lists it: one entry per table (a team match: per board,
    with the board's players, EKML §29(2))."""
    call = _call(match_id, table, state)
    boards = state.board_calls.get(match_id, ())
    if not boards:
        return [call]
    return [{**call, "table": b.table, "board": b.board, "players": [b.a, b.b]} for b in boards]


def _call(match_id: str, table: int, state: Competition) -> dict[str, Any]:
    a, b = state.called_sides.get(match_id, ("", ""))
    return {
        "match_id": match_id,
        "table": table,
        "a": a,
        "b": b,
        "called_at": state.called_at.get(match_id, ""),
    }


def competition_message(
    comp_id: object, doc: dict[str, Any], standing: list[dict[str, Any]]
) -> dict[str, Any]:
    """The live feed's message for a competition whose documents changed: the document (its
    bracket, calls, results) and the standings rows, whole — a face replaces what it shows."""
    return {
        "kind": "competition",
        "competition_id": str(comp_id),
        "position": doc["position"],
        "version": doc["version"],
        "doc": doc,
        "standings": standing,
    }
