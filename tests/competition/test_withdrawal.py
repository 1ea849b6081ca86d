"""Withdrawal (EKML §32(3): at least half → results stand; NOVUS08 3.2: over 50 % → stand)."""

import pytest
from tableside.competition.rules import commands as cmd
from tableside.competition.rules.guide import Guide
from tableside.competition.rules.placings import final_placings
from tableside.competition.rules.records import records
from tableside.competition.rules.results import MatchResult

from .helpers import AT, Run

WIN = MatchResult(3, 1, a_pucks_diff=4)


def round_robin(ruleset: str, players: int, rounds_played: int) -> Run:
    """A round robin where the first `rounds_played` rounds are all won by side a."""
    run = Run(Guide("RR", format="round_robin", ruleset=ruleset))
    run.enter(players)
    run.do(cmd.MakeDraw(5, AT))
    for number in range(1, rounds_played + 1):
        for p in run.state.rounds[number].pairings:
            run.do(cmd.RecordResult(p.match_id, WIN, AT))
    return run


@pytest.mark.parametrize(
    "ruleset, players, played, stand, rule",
    [
        ("EKML", 6, 2, False, "EKML §32(3)"),  # 2 of 5 = 40 %
        ("EKML", 6, 3, True, "EKML §32(3)"),  # 3 of 5 = 60 %
        ("NOVUS08", 6, 2, False, "NOVUS08 3.2"),
        ("NOVUS08", 6, 3, True, "NOVUS08 3.2"),
        ("EKML", 5, 2, True, "EKML §32(3)"),  # 2 of 4 = 50 %: EKML keeps (at least half)
        ("NOVUS08", 5, 2, False, "NOVUS08 3.2"),  # NOVUS08: 50 % or less is annulled
    ],
    ids=[
        "ekml_32_3_40pct",
        "ekml_32_3_60pct",
        "novus08_3_2_40pct",
        "novus08_3_2_60pct",
        "ekml_32_3_half",
        "novus08_3_2_half",
    ],
)
def test_withdrawal_line(ruleset, players, played, stand, rule):
    run = round_robin(ruleset, players, 0)
    gone = run.state.order[0]
    mine = [
        p
        for n in sorted(run.state.rounds)
        for p in run.state.rounds[n].pairings
        if gone in (p.a, p.b)
    ][:played]
    for p in mine:
        run.do(cmd.RecordResult(p.match_id, WIN, AT))
    withdrew = run.do(cmd.WithdrawEntrant(gone, AT))[0]
    assert (withdrew.played, withdrew.results_stand, withdrew.rule) == (played, stand, rule)
    recs = records(run.state)
    if stand:
        total = players - 1
        kinds = [g.kind for g in recs[gone] if g.opponent]
        assert len(kinds) == total
        assert kinds.count("forfeit") == total - played
    else:
        assert gone not in recs
        assert all(g.opponent != gone for games in recs.values() for g in games)


@pytest.mark.parametrize(
    "ruleset, points",
    [("EKML", 0.0), ("NOVUS08", 2.0)],
    ids=["ekml_32_3_1_plus_keeps_points", "novus08_3_2_loss_for_them"],
)
def test_forfeit_points_for_the_opponents_of_a_withdrawn_player(ruleset, points):
    run = round_robin(ruleset, 6, 0)
    gone = run.state.order[0]
    for p in [p for n in (1, 2, 3) for p in run.state.rounds[n].pairings if gone in (p.a, p.b)]:
        run.do(cmd.RecordResult(p.match_id, WIN, AT))
    run.do(cmd.WithdrawEntrant(gone, AT))
    later = [
        g
        for games in records(run.state).values()
        for g in games
        if g.opponent == gone and g.kind == "forfeit"
    ]
    assert len(later) == 2
    assert {g.points for g in later} == {points}
    # NOVUS08 3.2: no games are counted for those forfeits.
    assert all(g.won == g.lost == 0 for g in later)


def test_ekml_32_3_annulled_entrant_is_not_placed():
    run = round_robin("EKML", 4, 0)
    gone = run.state.order[0]
    run.do(cmd.WithdrawEntrant(gone, AT))
    for n in sorted(run.state.rounds):
        for p in run.state.rounds[n].pairings:
            if p.match_id not in run.state.results:
                run.do(cmd.RecordResult(p.match_id, WIN, AT))
    placed = {e for group in final_placings(run.state) for e in group}
    assert gone not in placed and len(placed) == 3


def test_ekml_32_3_1_forfeits_are_not_played_and_the_withdrawn_is_marked():
    """Issue 34: 'W-D-L 3-1-0 (+1)' beside 'Played 4' counted a forfeit as played. Played,
    won, drawn and lost count matches played over the board; a forfeit is a plus or a minus
    only; the row of who withdrew says so (every face marks it)."""
    from tableside.competition.rules.standings import StandingsView, standings

    run = round_robin("EKML", 6, 0)
    gone = run.state.order[0]
    for p in [p for n in (1, 2, 3) for p in run.state.rounds[n].pairings if gone in (p.a, p.b)]:
        run.do(cmd.RecordResult(p.match_id, WIN, AT))
    run.do(cmd.WithdrawEntrant(gone, AT))
    for n in sorted(run.state.rounds):
        for p in run.state.rounds[n].pairings:
            if p.match_id not in run.state.results:
                run.do(cmd.RecordResult(p.match_id, WIN, AT))
    rows = {r.entrant: r for r in standings(StandingsView(run.state))}
    assert rows[gone].withdrawn and not any(r.withdrawn for e, r in rows.items() if e != gone)
    assert (rows[gone].played, rows[gone].minus) == (3, 2)
    for row in rows.values():
        assert row.won + row.drawn + row.lost == row.played
        assert row.played + row.plus + row.minus == 5
    assert sum(r.plus for r in rows.values()) == 2


@pytest.mark.parametrize(
    ("ruleset", "played", "lang", "says"),
    [
        ("EKML", 1, "et", "kõik tema tulemused on tühistatud ja teda ei paigutata (EKML §32(3))"),
        ("EKML", 3, "lv", "rezultāti paliek spēkā"),
        ("NOVUS08", 2, "en", "all their results are annulled and they are not placed (NOVUS08"),
        ("NOVUS08", 3, "en", "the results stand; the unplayed matches are lost by forfeit"),
    ],
)
def test_ekml_32_3_the_document_says_who_withdrew_when_and_how(ruleset, played, lang, says):
    """Issue 45: the competition's document (and its standings read) carries every ruling —
    when, after how much, results kept or annulled, the paragraph — and the PDF's line says it."""
    from tableside.competition.docs import competition_doc, standings_rows
    from tableside.competition.standings_pdf import withdrawal_line
    from tableside.match.exports.labels import console_words

    run = round_robin(ruleset, 6, played)
    gone = run.state.order[0]
    run.do(cmd.WithdrawEntrant(gone, "2026-11-28T14:05:00+00:00"))
    (ruled,) = competition_doc(run.state, 1, 1)["withdrew"]
    assert ruled["entrant"] == gone and ruled["name"] == run.state.entrants[gone].name
    assert ruled["at"] == "2026-11-28T14:05:00+00:00" and ruled["rule"].startswith(ruleset)
    assert (ruled["played"], ruled["total"]) == (played, 5)
    # An annulled entrant has no row to be marked on: the document's line is all that tells.
    assert (gone in {r["entrant"] for r in standings_rows(run.state)}) == ruled["results_stand"]
    line = withdrawal_line(ruled, console_words(lang), lang)
    assert line.startswith(ruled["name"]) and "28.11.2026" in line and says in line
    assert f"{played}" in line and "5" in line
