"""The tournament guide (juhend, EKML §3(4)): every setting a competition runs by."""

from typing import Any, Literal

import msgspec

Discipline = Literal[
    "mens_singles", "womens_singles", "mens_pairs", "womens_pairs", "mixed_pairs", "open_singles"
]
Ruleset = Literal["EKML", "NOVUS08", "LV", "KSI"]
FormatName = Literal[
    "round_robin", "swiss", "double_elimination", "single_elimination", "swiss_playoff"
]
TieBreak = Literal[
    "head_to_head",
    "games_ratio",
    "games_diff",
    "pucks_diff",
    "buchholz",
    "buchholz_cut1",
    "median_buchholz",
    "sonneborn_berger",
    "progressive",
    "wins",
    "board_points",
]
Sex = Literal["M", "F"]
# How a player's own unplayed round (bye, forfeit) enters Buchholz and Sonneborn–Berger:
# "draw" — a draw against oneself (koroona.ee 2003 after the older FIDE rule, RULES.md §6);
# "virtual_opponent" — FIDE's virtual opponent: one's score before that round, the round's
#   opposite result, and a draw in every later round; "face_value" — the real opponent's total
#   (a bye has none: 0).
UnplayedInBuchholz = Literal["draw", "virtual_opponent", "face_value"]
# How the opponents' own forfeits and byes count when their totals are summed into someone's
# Buchholz: "face_value" — their points as scored; "as_draws" — every unplayed round of theirs
# as a draw's points.
OpponentUnplayed = Literal["face_value", "as_draws"]
# Head to head among tied players: "all_met" — only if every tied player has met every other
# over the board (else it separates nobody); "partial" — points against whichever were met.
HeadToHead = Literal["all_met", "partial"]
# LV's/NOVUS08's silences: filled from EKML (the guide's choice, EKML §3(4)) or left (issue 35).
FillSilences = Literal["ekml", "none"]

PAIR_DISCIPLINES = frozenset({"mens_pairs", "womens_pairs", "mixed_pairs"})


class AgeClass(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """An age class by birth year only (EKML §7(3)); None leaves a bound open."""

    name: str
    born_from: int | None = None
    born_to: int | None = None
    sex: Sex | None = None


class PointsScale(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """Match points for a win, draw and loss (EKML §32(2)), or one point per game won."""

    win: float = 2.0
    draw: float = 1.0
    loss: float = 0.0
    per_game: bool = False


class TimeCap(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """A round time cap in minutes; the head judge then rules from the pucks left."""

    minutes: int
    play_on_if_equal: bool = False


class Window(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """A registration window as ISO-8601 instants (compared as strings, UTC)."""

    opens: str
    closes: str


class TeamSettings(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """Team matches (EKML §29): boards, substitutes, and whether every board is played."""

    boards: int = 3
    substitutes: int = 2
    play_all: bool = True


class MatchSettings(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The guide's settings of a sport whose matches are played to a number of points (its
    sport checks them: `sports.Sport.check_guide`): the match length in points
    per round (round 1 first, the last one repeating; brackets by their round), the final's
    own length (0: as its round), whether matches are clocked and whether lateness penalty
    points are credited to the opponent's score."""

    lengths: tuple[int, ...] = (7,)
    final_length: int = 0
    clock: bool = False
    penalty_to_score: bool = True
    # How a clock (and a baffle box) is used, as the announcement says: "optional" (both
    # players agree), "preferred" (a player may demand one), "mandatory" (every match); ""
    # for the clock: as `clock` says (mandatory when set). The sport names its paragraphs.
    clock_use: Literal["", "optional", "preferred", "mandatory"] = ""
    baffle_box: Literal["optional", "preferred", "mandatory"] = "optional"


class Guide(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """A competition's guide (juhend); it may not contradict the regulations (EKML §3(2))."""

    name: str
    discipline: Discipline = "mens_singles"
    ruleset: Ruleset = "EKML"
    format: FormatName = "swiss"
    rounds: int = 7
    games_per_match: int = 4
    play_all_games: bool = False
    points: PointsScale = PointsScale()
    tie_breaks: tuple[TieBreak, ...] = ("buchholz", "sonneborn_berger", "games_ratio")
    age_class: AgeClass | None = None
    event_year: int = 2026
    time_cap: TimeCap | None = None
    registration: Window | None = None
    draw_at: str | None = None
    late_entry: bool = True
    women_in_mens: bool = False
    teams: TeamSettings | None = None
    playoff_size: int = 4
    playoff_games: int = 5
    consolation: bool = True
    last_chance: bool = False  # single elimination from 16: the consolation's first-round losers
    playoff_play_all_games: bool = False
    unplayed_games_in_buchholz: UnplayedInBuchholz = "draw"
    opponent_unplayed_in_buchholz: OpponentUnplayed = "face_value"
    head_to_head: HeadToHead = "all_met"
    # The game the competition is of: a registered sport's name (`sports.py`; "": the house's
    # first) and that sport's own settings (before decision 0149 under the sport's name: read
    # so by `upcast`).
    sport: str = ""
    settings: MatchSettings | None = None
    fill_silences: FillSilences = "ekml"  # carried into each match of LV/NOVUS08 (CreateMatch)
    # The opening shot by lot (coin toss) in every match, a round robin's too (KUUSALU); else
    # EKML §31(1): a round robin's first-listed opens, every other format draws lots.
    opening_by_lot: bool = False


def upcast(raw: Any) -> Any:
    """A guide's JSON as written before decision 0149, read as today's: its sport's own
    settings were kept under the sport's name, and are its `settings` now (stored events are
    never rewritten; an API client of then is still understood). Anything else as it is."""
    if not isinstance(raw, dict):
        return raw
    sport = raw.get("sport")
    if not isinstance(sport, str) or sport not in raw or sport in Guide.__struct_fields__:
        return raw
    if "settings" in raw:
        return raw  # both: refused for the unknown field, as any other
    return {("settings" if k == sport else k): v for k, v in raw.items()}


def draw_points(guide: Guide) -> float:
    """A drawn match's points on this guide's scale (EKML §32(2)); on a one-point-per-game
    scale that is half the games of a match (a 4-game match: 2)."""
    return guide.games_per_match / 2 if guide.points.per_game else guide.points.draw


def ekml_age_classes(event_year: int, sex: Sex) -> tuple[AgeClass, ...]:
    """EKML §7(2) defaults: youth 11–15 applied up to 18 (2002 decision), main, veterans."""
    veteran_age = 40 if sex == "M" else 35
    return (
        AgeClass("youth", born_from=event_year - 18, born_to=event_year - 11, sex=sex),
        AgeClass("main", sex=sex),
        AgeClass("veterans", born_to=event_year - veteran_age - 1, sex=sex),
    )


def age_fits(age_class: AgeClass, birth_year: int, sex: Sex) -> bool:
    """Whether a birth year (and sex) falls in an age class (EKML §7(3))."""
    if age_class.sex is not None and age_class.sex != sex:
        return False
    if age_class.born_from is not None and birth_year < age_class.born_from:
        return False
    return age_class.born_to is None or birth_year <= age_class.born_to


def is_pairs(guide: Guide) -> bool:
    """Whether the discipline is played in pairs (EKML §5(1) 3–5)."""
    return guide.discipline in PAIR_DISCIPLINES


def pairs_scale() -> PointsScale:
    """EKML §32(2)2: pairs score 4 / 2 / 0."""
    return PointsScale(win=4.0, draw=2.0, loss=0.0)


def guide_for(name: str, discipline: Discipline = "mens_singles", **settings) -> Guide:
    """A guide with the regulations' defaults for its discipline: pairs score 4 / 2 / 0
    (EKML §32(2)2) unless the guide sets its own scale (§32(2) note 2)."""
    if discipline in PAIR_DISCIPLINES and "points" not in settings:
        settings["points"] = pairs_scale()
    return Guide(name, discipline=discipline, **settings)
