"""Team matches on tables: a team match is called to a block of tables, board k of each
team on the k-th table (EKML §29(2): boards I, II, III… are separate matches; §17(3): the
info judge calls each match to a free table). Call-next seats a team match on consecutive
free tables, so a team sits side by side."""

from collections.abc import Iterable

from . import events as ev
from .errors import require
from .guide import Guide
from .matches import sides
from .state import Competition
from .teams import Team, lineup

RULE = "EKML §29(2)"
MAX_TABLE = 9999  # as the match API numbers tables


def check_tables(tables: Iterable[int]) -> None:
    """Tables a call names are the hall's, numbered 1–9999 (EKML §17(3): a table to go to)."""
    fits = all(1 <= t <= MAX_TABLE for t in tables)
    require(
        fits,
        "EKML §17(3)",
        f"tables are numbered from 1 to {MAX_TABLE}",
        "tables_range",
        most=MAX_TABLE,
    )


def block_for(guide: Guide, table: int, tables: tuple[int, ...]) -> tuple[int, ...]:
    """The tables a called match takes: its one table, or for a team match board I's table
    and the next ones, or the tables the TD listed (board I first)."""
    check_tables((table, *tables))
    if guide.teams is None:
        require(
            tables in ((), (table,)),
            RULE,
            "only a team match takes several tables",
            "several_tables_team_only",
        )
        return (table,)
    size = guide.teams.boards
    block = tables or tuple(range(table, table + size))
    require(
        len(block) == size,
        RULE,
        f"a team match takes {size} tables, one per board",
        "team_tables",
        size=size,
    )
    require(block[0] == table, RULE, "the first table listed is board I's", "first_table_board_one")
    require(
        len(set(block)) == size, RULE, "every board needs a table of its own", "table_per_board"
    )
    check_tables(block)
    return block


def board_calls(
    state: Competition, a: str, b: str, block: tuple[int, ...], absent: tuple[str, ...] = ()
) -> tuple[ev.BoardCall, ...]:
    """Board k of team a against board k of team b, on the k-th table of the block; an
    absent board player's board goes to the team's first unused substitute (EKML §29(6))."""
    teams = _team(state, a), _team(state, b)
    members = {p for t in teams for p in (*t.boards, *t.substitutes)}
    strangers = sorted(set(absent) - members)
    require(
        not strangers,
        "EKML §29(6)",
        f"{', '.join(strangers)} plays for neither team",
        "plays_for_neither_team",
        players=", ".join(strangers),
    )
    ours, theirs = (lineup(t, absent) for t in teams)
    seats = zip(block, ours, theirs, strict=True)
    return tuple(ev.BoardCall(k, t, pa, pb) for k, (t, pa, pb) in enumerate(seats, start=1))


def _team(state: Competition, entrant: str) -> Team:
    """An entrant's team, which every entry of a team competition lists (EKML §29(1))."""
    team = state.entrants[entrant].team
    require(
        team is not None,
        "EKML §29(1)",
        f"{entrant} lists no boards",
        "lists_no_boards",
        entrant=entrant,
    )
    return team


def free_blocks(free: Iterable[int], size: int) -> list[tuple[int, ...]]:
    """The free tables cut into blocks of `size` consecutive tables, lowest first."""
    blocks: list[tuple[int, ...]] = []
    run: list[int] = []
    for table in sorted(set(free)):
        if run and table != run[-1] + 1:
            run = []
        run.append(table)
        if len(run) == size:
            blocks.append(tuple(run))
            run = []
    return blocks


def team_call(
    state: Competition,
    match_id: str,
    block: tuple[int, ...],
    at: str,
    absent: tuple[str, ...] = (),
) -> ev.MatchCalled:
    """The MatchCalled of a team match on its block (board I's table first); `absent`
    board players are replaced by substitutes (EKML §29(6))."""
    a, b = sides(state, match_id)
    boards = board_calls(state, a, b, block, absent)
    return ev.MatchCalled(match_id, block[0], a, b, at, boards=boards, rule=RULE)


def held_tables(state: Competition) -> set[int]:
    """Tables with a called match that has no result yet, every board's table included."""
    open_calls = [m for m in state.calls if m not in state.results]
    tables = {state.calls[m] for m in open_calls}
    return tables | {b.table for m in open_calls for b in state.board_calls.get(m, ())}
