"""Team matches on tables (EKML §29(2), §17(3)): a team match is called to a block of
tables, board k of each team's lineup on the k-th table; call-next seats team matches on
consecutive free tables; a held table anywhere in the block refuses the call."""

import pytest
from tableside.competition.rules import commands as cmd
from tableside.competition.rules import events as ev
from tableside.competition.rules.errors import CompetitionRuleError
from tableside.competition.rules.guide import Guide
from tableside.competition.rules.results import MatchResult
from tableside.competition.rules.team_calls import block_for, free_blocks, held_tables

from .helpers import AT, Run
from .test_teams import team_event

A_WINS, B_WINS = MatchResult(3, 1), MatchResult(1, 3)


def _board_players(run, match_id: str, board: int) -> tuple[str, str]:
    """Board k's players from the registered lineups of the match's two teams."""
    pairing = next(p for p in run.state.rounds[1].pairings if p.match_id == match_id)
    teams = run.state.entrants
    return teams[pairing.a].team.boards[board - 1], teams[pairing.b].team.boards[board - 1]


def test_ekml_29_2_a_team_match_takes_a_block_board_k_on_the_kth_table():
    run = team_event(play_all=True)
    (called,) = run.do(cmd.CallMatch("R1-1", 4, AT))
    assert called.rule == "EKML §29(2)" and called.table == 4
    assert [(b.board, b.table) for b in called.boards] == [(1, 4), (2, 5), (3, 6)]
    for b in called.boards:
        assert (b.a, b.b) == _board_players(run, "R1-1", b.board)
    assert held_tables(run.state) == {4, 5, 6}


def test_the_td_may_list_the_tables_board_one_first():
    run = team_event(play_all=True)
    (called,) = run.do(cmd.CallMatch("R1-1", 7, AT, tables=(7, 2, 9)))
    assert [b.table for b in called.boards] == [7, 2, 9]


@pytest.mark.parametrize(
    ("table", "tables", "words"),
    [
        (1, (1, 2), "takes 3 tables"),
        (1, (2, 1, 3), "board I's"),
        (1, (1, 1, 2), "a table of its own"),
        (0, (), "numbered from 1"),
        (9998, (), "numbered from 1 to 9999"),
    ],
)
def test_ekml_29_2_a_block_that_does_not_fit_is_refused(table, tables, words):
    run = team_event(play_all=True)
    with pytest.raises(CompetitionRuleError) as err:
        run.do(cmd.CallMatch("R1-1", table, AT, tables=tables))
    assert err.value.rule in ("EKML §29(2)", "EKML §17(3)") and words in err.value.message


def test_ekml_17_3_a_block_overlapping_a_called_team_match_is_refused():
    run = team_event(play_all=True)
    run.do(cmd.CallMatch("R1-1", 1, AT))
    with pytest.raises(CompetitionRuleError) as err:
        run.do(cmd.CallMatch("R1-2", 3, AT))
    assert err.value.rule == "EKML §17(3)" and "table 3 is busy" in err.value.message
    run.do(cmd.CallMatch("R1-2", 4, AT))
    assert held_tables(run.state) == {1, 2, 3, 4, 5, 6}


def test_call_next_seats_team_matches_on_consecutive_free_tables():
    run = team_event(play_all=True)
    out = run.do(cmd.CallNextMatches((1, 2, 4, 5, 6, 8, 9, 10), AT))
    assert [[b.table for b in e.boards] for e in out] == [[4, 5, 6], [8, 9, 10]]
    assert all(isinstance(e, ev.MatchCalled) and e.rule == "EKML §29(2)" for e in out)


def test_a_team_match_frees_its_block_when_its_result_is_in():
    run = team_event(play_all=True)
    run.do(cmd.CallMatch("R1-1", 1, AT))
    for board in (1, 2, 3):
        run.do(cmd.RecordBoardResult("R1-1", board, A_WINS, AT))
    assert "R1-1" in run.state.results and held_tables(run.state) == set()


def test_only_a_team_match_takes_several_tables():
    guide = Guide("Singles", format="round_robin")
    assert block_for(guide, 3, ()) == (3,)
    with pytest.raises(CompetitionRuleError) as err:
        block_for(guide, 3, (3, 4))
    assert err.value.rule == "EKML §29(2)"


@pytest.mark.parametrize(
    ("free", "size", "blocks"),
    [
        ((1, 2, 3, 4, 5, 6), 3, [(1, 2, 3), (4, 5, 6)]),
        ((5, 1, 2, 4, 6), 3, [(4, 5, 6)]),
        ((1, 2, 4, 5), 3, []),
        ((3, 3, 4), 2, [(3, 4)]),
    ],
)
def test_free_blocks_are_runs_of_consecutive_tables(free, size, blocks):
    assert free_blocks(free, size) == blocks


@pytest.mark.parametrize(("tables", "bad"), [((0, 1), 0), ((5, 10_000), 10_000), ((-3,), -3)])
def test_ekml_17_3_calls_name_the_halls_tables_only(tables, bad):
    run = team_event(play_all=True)
    with pytest.raises(CompetitionRuleError) as err:
        run.do(cmd.CallNextMatches(tables, AT))
    assert err.value.rule == "EKML §17(3)" and "numbered" in err.value.message
    with pytest.raises(CompetitionRuleError):
        block_for(Guide("Singles", format="round_robin"), bad, ())


def test_ekml_29_6_an_absent_board_player_is_replaced_by_a_substitute_on_that_board():
    run = team_event(play_all=True)
    pairing = run.state.rounds[1].pairings[0]
    team_a = run.state.entrants[pairing.a].team
    missing = team_a.boards[1]
    (called,) = run.do(cmd.CallMatch(pairing.match_id, 1, AT, absent=(missing,)))
    assert [b.a for b in called.boards] == [
        team_a.boards[0],
        team_a.substitutes[0],
        team_a.boards[2],
    ]
    assert [b.b for b in called.boards] == list(run.state.entrants[pairing.b].team.boards)


@pytest.mark.parametrize(
    ("absent", "words"),
    [(("Nobody",), "plays for neither team"), (("first", "second"), "no substitute left")],
)
def test_ekml_29_6_absentees_must_be_the_teams_and_substitutes_must_last(absent, words):
    run = team_event(play_all=True)
    pairing = run.state.rounds[1].pairings[0]
    boards = run.state.entrants[pairing.a].team.boards
    names = {"first": boards[0], "second": boards[1]}
    with pytest.raises(CompetitionRuleError) as err:
        run.do(
            cmd.CallMatch(pairing.match_id, 1, AT, absent=tuple(names.get(a, a) for a in absent))
        )
    assert err.value.rule == "EKML §29(6)" and words in err.value.message


def test_a_singles_match_has_no_substitutes():
    run = Run(Guide("Singles", format="round_robin"))
    run.enter(2)
    run.do(cmd.MakeDraw(1, AT))
    with pytest.raises(CompetitionRuleError) as err:
        run.do(cmd.CallMatch("R1-1", 1, AT, absent=("Player p01",)))
    assert err.value.rule == "EKML §29(6)"


def _boards_in(run, results) -> None:
    for board, result in enumerate(results, 1):
        run.do(cmd.RecordBoardResult("R1-1", board, result, AT))


def test_ekml_12_3_5_a_corrected_board_corrects_the_team_result_it_changes():
    run = team_event(play_all=True)
    _boards_in(run, (A_WINS, A_WINS, B_WINS))
    assert run.state.results["R1-1"].result.a_games == 2
    out = run.do(cmd.CorrectBoardResult("R1-1", 2, B_WINS, "protocol corrected", AT))
    assert [type(e).__name__ for e in out] == ["BoardResultCorrected", "ResultCorrected"]
    assert out[0].rule == "EKML §12(3)5" and out[0].board == 2
    fixed = run.state.results["R1-1"].result
    assert (fixed.a_games, fixed.b_games) == (1, 2) and run.state.boards["R1-1"][2] == B_WINS


def test_a_board_corrected_before_the_team_result_only_changes_that_board():
    run = team_event(play_all=True)
    _boards_in(run, (A_WINS,))
    out = run.do(cmd.CorrectBoardResult("R1-1", 1, B_WINS, "protocol corrected", AT))
    assert [type(e).__name__ for e in out] == ["BoardResultCorrected"]
    assert "R1-1" not in run.state.results
    assert run.state.boards["R1-1"] == {1: B_WINS}


def test_a_correction_that_leaves_the_team_result_as_it_is_corrects_the_board_only():
    run = team_event(play_all=True)
    _boards_in(run, (A_WINS, A_WINS, B_WINS))
    out = run.do(cmd.CorrectBoardResult("R1-1", 1, MatchResult(4, 0), "pucks", AT))
    assert [type(e).__name__ for e in out] == ["BoardResultCorrected"]


def test_ekml_12_3_5_a_board_without_a_result_cannot_be_corrected():
    run = team_event(play_all=True)
    with pytest.raises(CompetitionRuleError) as err:
        run.do(cmd.CorrectBoardResult("R1-1", 1, A_WINS, "nothing to correct", AT))
    assert err.value.rule == "EKML §12(3)5"
