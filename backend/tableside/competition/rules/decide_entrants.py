"""Deciding on entrants: register, approve, check in (EKML §3(4), §5, §7, §8, §29)."""

import msgspec

from tableside.names import person_name, person_names, refuse_lookalike

from . import commands as cmd
from . import events as ev
from . import sports
from .entrants import Person
from .errors import CompetitionRuleError, require
from .guide import Guide, age_fits, is_pairs
from .guide_checks import check_settings
from .state import Competition
from .teams import check_team

SWISS_FORMATS = ("swiss", "swiss_playoff")


def create(state: Competition, c: cmd.CreateCompetition) -> tuple:
    """A competition starts from its guide (EKML §3)."""
    require(
        state.guide is None,
        "EKML §3(5)",
        "the competition exists; change its guide",
        "competition_exists",
    )
    check_settings(c.guide)
    check_sport(c.guide)
    return (ev.CompetitionCreated(c.guide, c.at),)


def amend_guide(state: Competition, c: cmd.AmendGuide) -> tuple:
    """A guide changed while nobody has entered under it: the TD mends a wrong setting (a
    men's event that is open) instead of making a second competition (EKML §3(5))."""
    _require_empty(state, "change the guide")
    check_settings(c.guide)
    check_sport(c.guide)
    return (ev.GuideAmended(c.guide, c.at),)


def check_sport(guide: Guide) -> None:
    """A guide fits its sport (`sports.py`): a sport registered here, and its own checks (its
    rulesets, its settings, what it has not)."""
    sports.of(guide).check_guide(guide)


def remove(state: Competition, c: cmd.RemoveCompetition) -> tuple:
    """A competition nobody entered leaves the list (its events stay in the store)."""
    _require_empty(state, "remove the competition")
    return (ev.CompetitionRemoved(c.at),)


def _require_empty(state: Competition, what: str) -> None:
    """Only a competition with no entrant may have its guide changed or be removed: those who
    entered did so under the guide as it was (EKML §3(5))."""
    guide_of(state)
    require(
        not state.entrants,
        "EKML §3(5)",
        f"entrants are registered: cannot {what}",
        "entrants_registered",
    )


def register(state: Competition, c: cmd.RegisterEntrant) -> tuple:
    """Register an entrant: discipline, age class and the window are checked."""
    guide = guide_of(state)
    require(
        c.entrant_id not in state.entrants, "EKML §8(2)", "already registered", "already_registered"
    )
    require(c.name.strip() != "", "EKML §8(2)", "an entry names its entrant", "entry_names_entrant")
    name, members, team = named(state, c.entrant_id, c.name, c.members, c.team)
    check_members(guide, members, team)
    joined = _joining_round(state, guide, c.at, c.admitted_late)
    late = c.admitted_late and joined == 1
    return (ev.EntrantRegistered(c.entrant_id, name, members, team, joined, c.at, late),)


def rename(state: Competition, c: cmd.RenameEntrant) -> tuple:
    """A typo in an entry mended without a withdrawal: the same entrant under its right name,
    its members checked as at registration (EKML §5(1), §7, §8)."""
    entrant = entrant_of(state, c.entrant_id)
    require(
        entrant.status != "withdrawn",
        "EKML §8(2)",
        "the entrant has withdrawn",
        "entrant_withdrawn",
    )
    require(c.name.strip() != "", "EKML §8(2)", "an entry names its entrant", "entry_names_entrant")
    name, members, _ = named(state, c.entrant_id, c.name, c.members, None)
    check_members(state.the_guide, members, entrant.team)
    return (ev.EntrantRenamed(c.entrant_id, name, members, c.at),)


def named(state: Competition, entrant_id: str, name: str, members: tuple, team) -> tuple:
    """The entry's names as stored (RFC 8266 §2: nothing invisible, spacing normalised), and
    none a look-alike of another entrant's in this competition (UTS #39 §4): a second "Mari
    Tamm" with a Cyrillic "а" is refused, not listed beside the first."""
    name = person_name(name, "name")
    others = [e.name for e in state.entrants.values() if e.id != entrant_id]
    refuse_lookalike(name, others, "name")
    members = tuple(  # a blank one is EKML §8(2)'s to refuse (_check_people)
        msgspec.structs.replace(m, name=person_name(m.name, "members")) if m.name.strip() else m
        for m in members
    )
    if team is not None:
        boards = person_names(team.boards, "team")
        team = msgspec.structs.replace(
            team, boards=boards, substitutes=person_names(team.substitutes, "team")
        )
    return name, members, team


def approve(state: Competition, c: cmd.ApproveEntrant) -> tuple:
    """The chief secretary approves an entry (EKML §8(2), §15(1))."""
    require(
        entrant_of(state, c.entrant_id).status == "registered",
        "EKML §15(1)",
        "not pending",
        "not_pending",
    )
    return (ev.EntrantApproved(c.entrant_id),)


def check_in(state: Competition, c: cmd.CheckInEntrant) -> tuple:
    """An approved entrant reports ready before the start (EKML §9(3))."""
    status = entrant_of(state, c.entrant_id).status
    require(
        status == "approved",
        "EKML §9(3)",
        f"cannot check in while {status}",
        "check_in_needs_approval",
    )
    return (ev.EntrantCheckedIn(c.entrant_id, c.at),)


def set_table_count(state: Competition, c: cmd.SetTableCount) -> tuple:
    """The hall's tables for this competition, while it runs (EKML §12(2)6: not after)."""
    guide_of(state)
    return (ev.TableCountSet(c.count, c.at),)


def guide_of(state: Competition) -> Guide:
    """The guide, or a rule error if the competition was never set up."""
    if state.guide is None:
        raise CompetitionRuleError("EKML §3(1)", "no competition without a guide", code="no_guide")
    require(
        not state.finished, "EKML §12(2)6", "the competition is finished", "competition_finished"
    )
    require(not state.removed, "EKML §3(5)", "the competition was removed", "competition_removed")
    return state.guide


def entrant_of(state: Competition, entrant_id: str):
    """One entrant, or a rule error."""
    guide_of(state)
    entrant = state.entrants.get(entrant_id)
    if entrant is None:
        raise CompetitionRuleError(
            "EKML §8(1)",
            f"{entrant_id} is not on the entry list",
            code="not_on_entry_list",
            params={"entrant": entrant_id},
        )
    return entrant


def check_members(guide: Guide, members: tuple[Person, ...], team) -> None:
    """Member count and sex by discipline (EKML §5(1), §8(3)); age class (EKML §7)."""
    if guide.teams is not None:
        require(
            team is not None, "EKML §29(1)", "a team entry lists its boards", "team_lists_boards"
        )
        check_team(guide, team)
    else:
        size = 2 if is_pairs(guide) else 1
        require(
            len(members) == size,
            "EKML §5(1)",
            f"{guide.discipline} takes {size}",
            "entry_size",
            size=size,
        )
        _check_sexes(guide, [m.sex for m in members])
        _check_people(members)
    for person in members:
        if guide.age_class is not None:
            fits = age_fits(guide.age_class, person.birth_year, person.sex)
            require(
                fits,
                "EKML §7(3)",
                f"{person.name} is not in {guide.age_class.name}",
                "not_in_age_class",
                name=person.name,
                age_class=guide.age_class.name,
            )


def _check_people(members: tuple[Person, ...]) -> None:
    """Every player named (EKML §8(2)); a pair is two people, not one named twice (EKML
    §5(1): pairs are played by two players; issue 45: "Ants Oja | Ants Oja" was a pair)."""
    names = [" ".join(m.name.split()).casefold() for m in members]
    require(all(names), "EKML §8(2)", "an entry names its entrant", "entry_names_entrant")
    twice = len(set(names)) != len(names)
    require(not twice, "EKML §5(1)", "one person named twice", "person_named_twice")


def _check_sexes(guide: Guide, sexes: list[str]) -> None:
    """Women may exceptionally play men's events (EKML §8(3)); mixed pairs are one of each."""
    d = guide.discipline
    if d == "mixed_pairs":
        require(
            sorted(sexes) == ["F", "M"],
            "EKML §5(1)5",
            "a mixed pair is a man and a woman",
            "mixed_pair",
        )
    elif d == "open_singles":
        return  # an open event is open to all (its sport's guide)
    elif d.startswith("womens"):
        require(set(sexes) == {"F"}, "EKML §5(1)", "a women's event", "womens_event")
    else:
        require(
            guide.women_in_mens or set(sexes) == {"M"}, "EKML §8(3)", "a men's event", "mens_event"
        )


def _joining_round(state: Competition, guide: Guide, at: str, admitted: bool = False) -> int:
    """Before the draw: within the window (EKML §3(4)9), or after it closed when the head
    judge admits the entry (EKML §12(2): the draw is still theirs to make); after the draw,
    Swiss late entry only."""
    drawn = bool(state.order or state.bracket)
    if not drawn:
        window = guide.registration
        inside = window is None or window.opens <= at <= window.closes
        late = admitted and window is not None and at > window.closes
        require(
            inside or late, "EKML §3(4)9", "outside the registration window", "outside_registration"
        )
        return 1
    late_ok = guide.format in SWISS_FORMATS and guide.late_entry and not state.playoff
    require(
        late_ok,
        "EKML §3(4)9",
        "the draw is made; this format takes no late entries",
        "no_late_entries",
    )
    return state.current_round + 1
