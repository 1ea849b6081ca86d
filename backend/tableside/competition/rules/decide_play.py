"""Deciding while the event runs: calls to tables, no-shows (EKML §9(3)), results."""

from . import commands as cmd
from . import events as ev
from . import sports
from .clock import minutes_between
from .decide_entrants import guide_of
from .errors import require
from .evolve import evolve
from .matches import busy_entrants, callable_matches, games_for, play_all_for, sides
from .result_check import check_length
from .results import MatchResult, forfeit_result, time_cap_ruling
from .rulesets import policy
from .state import Competition
from .tables import assign_tables
from .team_calls import block_for, check_tables, free_blocks, held_tables, team_call
from .teams import decided, team_result
from .walkovers import walkovers


def call_match(state: Competition, c: cmd.CallMatch) -> tuple:
    """The info judge calls a match to a free table (EKML §17(3)); a team match to a block
    of free tables, one board on each (EKML §29(2))."""
    guide = guide_of(state)
    a, b = sides(state, c.match_id)
    require(
        c.match_id not in state.results, "EKML §17(3)", "the match has a result", "match_has_result"
    )
    block = block_for(guide, c.table, c.tables)
    busy = sorted(set(block) & held_tables(state))
    require(
        not busy,
        "EKML §17(3)",
        f"table {', '.join(map(str, busy))} is busy",
        "table_in_use",
        tables=", ".join(map(str, busy)),
    )
    playing = busy_entrants(state) & {a, b}
    require(
        not playing,
        "EKML §17(3)",
        f"{', '.join(sorted(playing))} is at another table",
        "player_at_another_table",
        players=", ".join(sorted(playing)),
    )
    if guide.teams is not None:
        return (team_call(state, c.match_id, block, c.at, c.absent),)
    require(
        not c.absent, "EKML §29(6)", "substitutes are for team matches", "substitutes_team_only"
    )
    return (ev.MatchCalled(c.match_id, c.table, a, b, c.at),)


def call_next(state: Competition, c: cmd.CallNextMatches) -> tuple:
    """Call waiting matches to the free tables, lowest first (decision 0100);
    team matches to blocks of consecutive free tables (EKML §29(2))."""
    guide = guide_of(state)
    check_tables(c.free_tables)
    waiting = callable_matches(state)
    free = [t for t in c.free_tables if t not in held_tables(state)]
    if guide.teams is not None:
        blocks = free_blocks(free, guide.teams.boards)
        pairs = zip(waiting, blocks, strict=False)  # as many as there are blocks
        return tuple(team_call(state, m, blk, c.at) for (m, _), blk in pairs)
    players = dict(waiting)
    kept = dict(c.kept)
    own = tuple((m, kept[m]) for m, _ in waiting if m in kept and kept[m] in free)
    others = [(m, p) for m, p in waiting if m not in kept]
    calls = own + assign_tables(others, [t for t in free if t not in kept.values()])
    return tuple(ev.MatchCalled(mid, table, *players[mid], c.at) for mid, table in calls)


def report_no_show(state: Competition, c: cmd.ReportNoShow) -> tuple:
    """An entrant not at the table 2 minutes after the call (EKML §9(3), NOVUS08 3.2)."""
    rules = policy(guide_of(state).ruleset)
    require(
        c.absent in sides(state, c.match_id),
        rules.no_show_rule,
        "not in this match",
        "absent_not_in_match",
    )
    called = state.called_at.get(c.match_id)
    require(called is not None, rules.no_show_rule, "the match was never called", "never_called")
    waited = minutes_between(called, c.at)
    own = sports.of(state.guide).no_show_minutes  # a sport's own wait (a match's length)
    wait = rules.no_show_minutes if own is None else own(state, c.match_id)
    require(
        waited >= wait,
        rules.no_show_rule,
        f"the {wait} minutes are not up",
        "wait_not_up",
        minutes=wait,
    )
    return (ev.NoShowReported(c.match_id, c.absent, c.at, rules.no_show_rule),)


def record_result(state: Competition, c: cmd.RecordResult) -> tuple:
    """A result from the match stream (EKML §32(1)); a bracket match cannot end drawn."""
    guide = guide_of(state)
    a, b = sides(state, c.match_id)
    require(
        c.match_id not in state.results,
        "EKML §12(3)5",
        "recorded; correct it instead",
        "recorded_correct_instead",
    )
    check_length(guide, c.result, games_for(state, c.match_id), play_all_for(state, c.match_id))
    if c.match_id not in _round_ids(state):
        require(
            c.result.a_games != c.result.b_games,
            "KUUSALU",
            "an elimination needs a winner",
            "elimination_needs_winner",
        )
    rule = sports.of(guide).result_rule
    recorded = ev.ResultRecorded(c.match_id, a, b, c.result, c.at, rule)
    return (recorded, *walkovers(evolve(state, recorded), c.at))


def _round_ids(state: Competition) -> set[str]:
    """Match ids of paired rounds (not bracket matches)."""
    return {p.match_id for r in state.rounds.values() for p in r.pairings}


def record_board(state: Competition, c: cmd.RecordBoardResult) -> tuple:
    """One board of a team match; the team result follows when all are in, or once decided
    if the ruleset stops then (EKML §29(7) plays all; NOVUS08 23.2 stops)."""
    guide = guide_of(state)
    require(guide.teams is not None, "EKML §6(3)", "not a team competition", "not_team_competition")
    a, b = sides(state, c.match_id)
    boards = dict(state.boards.get(c.match_id, {}))
    require(1 <= c.board <= guide.teams.boards, "EKML §29(3)", "no such board", "no_such_board")
    require(c.board not in boards, "EKML §12(3)5", "the board has a result", "board_has_result")
    require(
        c.match_id not in state.results,
        _team_rule(guide),
        "the team match is decided",
        "team_match_decided",
    )
    boards[c.board] = c.result
    out = [ev.BoardResultRecorded(c.match_id, c.board, c.result, c.at)]
    stop = not guide.teams.play_all and decided(guide, boards)
    if len(boards) == guide.teams.boards or stop:
        out.append(
            ev.ResultRecorded(c.match_id, a, b, team_result(boards), c.at, _team_rule(guide))
        )
    return tuple(out)


def _team_rule(guide) -> str:
    """The paragraph that says whether every board is played."""
    return "EKML §29(7)" if guide.teams.play_all else "NOVUS08 23.2"


def rule_at_time_cap(state: Competition, c: cmd.RuleAtTimeCap) -> tuple:
    """The head judge's ruling when the round time is up (guide time cap)."""
    guide = guide_of(state)
    require(
        guide.time_cap is not None, "guide time cap", "the guide sets no time cap", "no_time_cap"
    )
    a, b = sides(state, c.match_id)
    result = time_cap_ruling(guide, c.a_games, c.b_games, c.a_pucks_left, c.b_pucks_left)
    drawn = result.a_games == result.b_games
    require(
        c.match_id in _round_ids(state) or not drawn,
        "guide time cap",
        "pucks are equal: an elimination match plays on until one side pockets more",
        "elimination_plays_on",
    )
    return (ev.ResultRecorded(c.match_id, a, b, result, c.at, "guide time cap"),)


def withdrawal_forfeit(
    match_id: str, a: str, b: str, gone: str, games: int, at: str, rule: str
) -> ev.ResultRecorded:
    """An unplayed match of a withdrawn entrant, a minus for them (EKML §32(3))."""
    result: MatchResult = forfeit_result("b" if gone == a else "a", games, withdrawal=True)
    return ev.ResultRecorded(match_id, a, b, result, at, rule)
