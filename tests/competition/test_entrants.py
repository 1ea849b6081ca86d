"""Entrants: given events, when a command, then events or a rule error (EKML §5, §7, §8, §29)."""

import pytest
from tableside.competition.rules import commands as cmd
from tableside.competition.rules import events as ev
from tableside.competition.rules.decide import decide
from tableside.competition.rules.entrants import Person
from tableside.competition.rules.errors import CompetitionRuleError
from tableside.competition.rules.evolve import fold
from tableside.competition.rules.guide import (
    AgeClass,
    Guide,
    PointsScale,
    TeamSettings,
    Window,
    ekml_age_classes,
    guide_for,
)
from tableside.competition.rules.teams import Team

AT = "2026-05-01T10:00:00+00:00"
MAN = Person("Mart", 1980, "M")
WOMAN = Person("Mari", 1985, "F")
BOY = Person("Uku", 2012, "M")
YOUTH = ekml_age_classes(2026, "M")[0]
VETERANS_W = ekml_age_classes(2026, "F")[2]
WINDOW = Window("2026-05-01T09:00:00+00:00", "2026-05-01T09:30:00+00:00")


def created(**settings) -> list:
    """A competition created with the given guide settings."""
    return [ev.CompetitionCreated(Guide("Cup", **settings), AT)]


def registered(entrant_id: str = "e1", person: Person = MAN) -> ev.EntrantRegistered:
    """An entrant registered for round 1."""
    return ev.EntrantRegistered(entrant_id, person.name, (person,), None, 1, AT)


def register(person: Person = MAN, *more: Person, at: str = AT, team=None):
    """A registration command."""
    return cmd.RegisterEntrant("e1", person.name, (person, *more), at, team)


CASES = [
    ("ekml_3_1_no_guide", [], register(), "EKML §3(1)"),
    ("ekml_5_1_singles_takes_one", created(), register(MAN, MAN), "EKML §5(1)"),
    ("ekml_5_1_pairs_take_two", created(discipline="mens_pairs"), register(MAN), "EKML §5(1)"),
    ("ekml_5_1_5_mixed_pair", created(discipline="mixed_pairs"), register(MAN, MAN), "EKML §5(1)5"),
    ("ekml_8_3_woman_in_mens_event", created(), register(WOMAN), "EKML §8(3)"),
    (  # issue 45: "Ants Oja | Ants Oja" was accepted as a pair
        "ekml_5_1_one_person_twice_is_not_a_pair",
        created(discipline="mixed_pairs"),
        register(MAN, Person(" mart ", 1980, "F")),
        "EKML §5(1)",
    ),
    (  # "Ants Oja |": a pair with a nameless second player
        "ekml_8_2_a_pair_names_both_players",
        created(discipline="mens_pairs"),
        register(MAN, Person(" ", 2000, "M")),
        "EKML §8(2)",
    ),
    (
        "ekml_5_1_man_in_womens_event",
        created(discipline="womens_singles"),
        register(MAN),
        "EKML §5(1)",
    ),
    ("ekml_7_3_too_old_for_youth", created(age_class=YOUTH), register(MAN), "EKML §7(3)"),
    (
        "ekml_7_3_too_young_for_veterans",
        created(age_class=VETERANS_W, discipline="womens_singles"),
        register(Person("Liis", 2000, "F")),
        "EKML §7(3)",
    ),
    ("ekml_3_4_9_after_the_window", created(registration=WINDOW), register(), "EKML §3(4)9"),
    ("ekml_8_2_registered_twice", [*created(), registered()], register(), "EKML §8(2)"),
    ("ekml_29_1_team_without_boards", created(teams=TeamSettings()), register(), "EKML §29(1)"),
    (
        "ekml_29_1_team_short_of_a_board",
        created(teams=TeamSettings(boards=3)),
        register(MAN, team=Team(("a", "b"))),
        "EKML §29(1)",
    ),
    (
        "ekml_29_6_too_many_substitutes",
        created(teams=TeamSettings(boards=2, substitutes=1)),
        register(MAN, team=Team(("a", "b"), ("c", "d"))),
        "EKML §29(6)",
    ),
    (
        "ekml_9_3_check_in_before_approval",
        [*created(), registered()],
        cmd.CheckInEntrant("e1", AT),
        "EKML §9(3)",
    ),
    ("ekml_8_1_unknown_entrant", created(), cmd.ApproveEntrant("nobody"), "EKML §8(1)"),
]


@pytest.mark.parametrize("given, when, rule", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_refused(given, when, rule):
    with pytest.raises(CompetitionRuleError) as err:
        decide(fold(given), when)
    assert err.value.rule == rule


ACCEPTED = [
    (
        "ekml_7_2_1_youth_up_to_18",
        created(age_class=YOUTH),
        register(BOY),
        [ev.EntrantRegistered("e1", "Uku", (BOY,), None, 1, AT)],
    ),
    (
        "ekml_8_3_woman_allowed_by_guide",
        created(women_in_mens=True),
        register(WOMAN),
        [ev.EntrantRegistered("e1", "Mari", (WOMAN,), None, 1, AT)],
    ),
    (
        "ekml_5_1_5_mixed_pair",
        created(discipline="mixed_pairs"),
        register(MAN, WOMAN),
        [ev.EntrantRegistered("e1", "Mart", (MAN, WOMAN), None, 1, AT)],
    ),
    (
        "ekml_3_4_9_inside_the_window",
        created(registration=WINDOW),
        register(at="2026-05-01T09:10:00+00:00"),
        [ev.EntrantRegistered("e1", "Mart", (MAN,), None, 1, "2026-05-01T09:10:00+00:00")],
    ),
    (
        "ekml_8_2_approve",
        [*created(), registered()],
        cmd.ApproveEntrant("e1"),
        [ev.EntrantApproved("e1")],
    ),
]


@pytest.mark.parametrize(
    "given, when, then", [c[1:] for c in ACCEPTED], ids=[c[0] for c in ACCEPTED]
)
def test_accepted(given, when, then):
    assert list(decide(fold(given), when)) == then


def test_age_classes_by_birth_year_per_event():
    # A guide's own class: women veterans over 55 (koroona.ee guides), by birth year only.
    over_55 = AgeClass("W55", born_to=2026 - 56, sex="F")
    state = fold(created(age_class=over_55, discipline="womens_singles"))
    old = Person("Asta", 1960, "F")
    assert decide(state, register(old))
    with pytest.raises(CompetitionRuleError):
        decide(state, register(Person("Eve", 1971, "F")))


def test_veterans_default_bounds():
    men, women = ekml_age_classes(2026, "M")[2], ekml_age_classes(2026, "F")[2]
    # Over 40 men: born 1985 or earlier; over 35 women: born 1990 or earlier (EKML §7(2)3).
    assert (men.born_to, women.born_to) == (1985, 1990)


def test_ekml_32_2_2_pairs_default_to_four_two_nil():
    assert guide_for("Pairs", "mixed_pairs").points == PointsScale(4.0, 2.0, 0.0)
    assert guide_for("Singles").points == PointsScale(2.0, 1.0, 0.0)
    assert guide_for("Per game", "mens_pairs", points=PointsScale(per_game=True)).points.per_game
