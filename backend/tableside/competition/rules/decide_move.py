"""A called match moved to another table before it starts (decision 0207)."""

from . import commands as cmd
from . import events as ev
from . import sports
from .decide_entrants import guide_of
from .errors import require
from .state import Competition
from .team_calls import held_tables


def move_match(state: Competition, c: cmd.MoveMatch) -> tuple:
    """A called match with no result to a free table of its own (EKML §17(3)), said why; a
    team match's block of tables is not moved (each board's table is its own call)."""
    rule = sports.of(guide_of(state)).move_rule
    table = state.calls.get(c.match_id)
    require(table is not None, rule, "the match was never called", "never_called")
    require(c.match_id not in state.results, rule, "the match has a result", "match_has_result")
    require(
        c.match_id not in state.board_calls,
        "EKML §29(2)",
        "a team match's boards are not moved",
        "team_match_not_moved",
    )
    require(c.table != table, rule, f"the match is on table {table}", "same_table", table=table)
    require(
        c.table not in held_tables(state),
        rule,
        f"table {c.table} is busy",
        "table_in_use",
        tables=c.table,
    )
    require(bool(c.reason.strip()), rule, "a move says why", "move_needs_reason")
    return (ev.MatchMoved(c.match_id, table, c.table, c.reason.strip(), c.by, c.at, rule),)
