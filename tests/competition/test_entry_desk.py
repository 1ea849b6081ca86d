"""Pairs registered in the time a guide gives (issue 34): an entry list checked whole before
anything is registered (every bad line named), a typo renamed without a withdrawal, a late
pair admitted by the head judge before the draw, and the draw made before the guide's time
when the head judge says so."""

import msgspec
import pytest
from tableside.competition.rules import commands as cmd
from tableside.competition.rules.entrants import Person
from tableside.competition.rules.entry_check import check_entries
from tableside.competition.rules.errors import CompetitionRuleError
from tableside.competition.rules.guide import Guide, Window, pairs_scale

from .helpers import AT, Run

MIXED = Guide("Segapaarid", discipline="mixed_pairs", format="double_elimination",
              games_per_match=1, points=pairs_scale())  # fmt: skip
MENS = Guide("Meeste üksik", format="round_robin", games_per_match=1)


def entry(i: int, *people: tuple[str, str]) -> cmd.RegisterEntrant:
    members = tuple(Person(name, 1990, sex) for name, sex in people)
    return cmd.RegisterEntrant(f"e{i:02d}", " / ".join(m.name for m in members), members, AT)


def test_ekml_8_3_an_entry_list_is_checked_whole_and_every_bad_line_named():
    run = Run(MENS)
    lines = (
        entry(1, ("Jaan Tamm", "M")),
        entry(2, ("Mari Mets", "F")),
        entry(3, ("Peeter Puu", "M")),
        entry(1, ("Jaan Tamm", "M")),  # the same id again: the first counts for it
        entry(5, ("Kati Kask", "F")),
        entry(6, ("Toomas Org", "M")),
    )
    verdicts = check_entries(run.state, lines)
    assert [v.ok for v in verdicts] == [True, False, True, False, False, True]
    assert [(v.line, v.rule) for v in verdicts if not v.ok] == [
        (2, "EKML §8(3)"), (4, "EKML §8(2)"), (5, "EKML §8(3)")
    ]  # fmt: skip
    assert run.state.entrants == {}  # nothing registered by a check


def test_ekml_5_1_5_a_mixed_pair_is_a_man_and_a_woman():
    run = Run(MIXED)
    verdicts = check_entries(
        run.state,
        (entry(1, ("Jaan Tamm", "M"), ("Mari Tamm", "F")), entry(2, ("A", "M"), ("B", "M"))),
    )
    assert [(v.ok, v.rule) for v in verdicts] == [(True, ""), (False, "EKML §5(1)5")]


def test_ekml_8_2_a_typo_is_renamed_without_a_withdrawal():
    run = Run(MIXED)
    run.do(entry(1, ("Jaan Tam", "M"), ("Mari Tamm", "F")))
    fixed = (Person("Jaan Tamm", 1990, "M"), Person("Mari Tamm", 1990, "F"))
    (renamed,) = run.do(cmd.RenameEntrant("e01", "Jaan Tamm / Mari Tamm", fixed, AT))
    assert renamed.rule == "EKML §8(2)"
    assert run.state.entrants["e01"].name == "Jaan Tamm / Mari Tamm"
    assert run.state.entrants["e01"].status == "registered" and not run.state.withdrawals
    with pytest.raises(CompetitionRuleError) as err:
        run.do(cmd.RenameEntrant("e01", "Jaan Tamm / Mart Tamm", fixed[:1] * 2, AT))
    assert err.value.rule == "EKML §5(1)5"


def test_ekml_3_4_9_a_late_pair_is_admitted_by_the_head_judge_before_the_draw():
    window = Window("2026-05-01T09:00:00+00:00", "2026-05-01T09:10:00+00:00")
    run = Run(msgspec.structs.replace(MIXED, registration=window))
    late = entry(1, ("Jaan Tamm", "M"), ("Mari Tamm", "F"))
    with pytest.raises(CompetitionRuleError) as err:
        run.do(late)
    assert err.value.rule == "EKML §3(4)9"
    (registered,) = run.do(msgspec.structs.replace(late, admitted_late=True))
    assert registered.admitted_late


def test_ekml_3_4_11_the_head_judge_draws_before_the_guides_draw_time():
    run = Run(msgspec.structs.replace(MENS, draw_at="2026-05-01T11:00:00+00:00"))
    run.enter(4)
    with pytest.raises(CompetitionRuleError) as err:
        run.do(cmd.MakeDraw(1, AT))
    assert err.value.rule == "EKML §3(4)11"
    made = run.do(cmd.MakeDraw(1, AT, early=True))[0]
    assert made.early and run.state.order


def test_ekml_3_5_a_guide_is_mended_while_nobody_has_entered():
    """Issue 34: 'a men's event' refused a woman and the guide could not change, even with no
    entrant; now it can until the first entry, and not after."""
    run = Run(MENS)
    with pytest.raises(CompetitionRuleError):
        run.do(entry(1, ("Mari Mets", "F")))
    run.do(cmd.AmendGuide(msgspec.structs.replace(MENS, women_in_mens=True), AT))
    assert run.state.guide.women_in_mens
    run.do(entry(1, ("Mari Mets", "F")))
    with pytest.raises(CompetitionRuleError) as err:
        run.do(cmd.AmendGuide(MENS, AT))
    assert err.value.rule == "EKML §3(5)"
    with pytest.raises(CompetitionRuleError):
        run.do(cmd.RemoveCompetition(AT))


def test_ekml_3_5_an_empty_competition_is_removed_and_takes_nothing_more():
    run = Run(MENS)
    run.do(cmd.RemoveCompetition(AT))
    assert run.state.removed
    with pytest.raises(CompetitionRuleError) as err:
        run.do(entry(1, ("Jaan Tamm", "M")))
    assert "removed" in err.value.message
