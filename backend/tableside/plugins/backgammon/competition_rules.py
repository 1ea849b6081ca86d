"""Backgammon competitions (KSI), backgammon's sport (`competition/rules/sports.py`, decision
0149): what a backgammon guide may say, each match's length in points, what a backgammon match
result must look like, a bye's points, the competition policy of KSI.

KSI is a code of match play; it says nothing of pairings, scoring or match lengths per round
(KSI.md §3, "not in this text"), so those are the guide's: cited `guide (backgammon)`. A match is
won or lost, never drawn (KSI 4.5: every match is played to its full length, no agreed result).
Its checks are pure, as the competition's rules are.
"""

import msgspec

from tableside.competition.rules.brackets import Bracket
from tableside.competition.rules.errors import require
from tableside.competition.rules.guide import Guide, MatchSettings, PointsScale
from tableside.competition.rules.results import MatchResult
from tableside.competition.rules.rulesets import EKML
from tableside.competition.rules.sports import Sport
from tableside.competition.rules.state import Competition, round_of
from tableside.plugins.backgammon.projections.matches import NAME as READ_MODEL

NAME = "backgammon"  # the guide's sport
BackgammonSettings = MatchSettings  # a backgammon guide's own settings (match lengths, clock)
GUIDE = "guide (backgammon)"
FULL_LENGTH = "KSI 4.5"
MAX_LENGTH = 99  # the engine's longest match (KSI 4.5 matches to N points)
SINGLES = ("open_singles", "mens_singles", "womens_singles")
_KORONA_ONLY = "a korona setting"


# A backgammon match is won or lost: 1 match point for a win, none for a loss; the ½ is only
# what a draw would be worth where a tie-break convention counts an unplayed round as one.
MATCH_POINT = PointsScale(win=1.0, draw=0.5, loss=0.0)
BACKGAMMON_DEFAULTS = {
    "ruleset": "KSI",
    "discipline": "open_singles",
    "games_per_match": 1,
    "playoff_games": 1,
    "points": MATCH_POINT,
    "tie_breaks": ("buchholz", "sonneborn_berger", "games_diff"),
}

# KSI is silent on withdrawals, forfeits and protests (KSI.md §3: "not in this text"): a
# backgammon event keeps the EKML lines as guide settings; a player who does not appear loses
# by lateness points (KSI 2.2.4: more than half the length, 5 minutes a point — 20 minutes for
# a 7-point match), which the TD records as a no-show once that time is up.
KSI = msgspec.structs.replace(
    EKML,
    name="KSI",
    withdrawal_rule=GUIDE,
    protest_minutes=None,
    protest_rule="KSI 5.2",
    no_show_minutes=20,
    no_show_rule="KSI 2.2.4",
    team_rule=GUIDE,
)


def backgammon_guide(name: str, **settings) -> Guide:
    """A backgammon guide (KSI): the match-point settings (`BACKGAMMON_DEFAULTS`) where the
    guide sets none, 7-point matches unless it names its lengths."""
    settings = {**BACKGAMMON_DEFAULTS, "settings": MatchSettings(), **settings}
    return Guide(name, sport=NAME, **settings)


def check_guide(guide: Guide) -> None:
    """A backgammon guide: KSI, one against one, no teams, nothing only korona has, lengths
    a match can have."""
    require(
        guide.ruleset == "KSI",
        "KSI 1.2.2",
        "a backgammon competition is played under KSI",
        "bg_under_ksi",
    )
    require(
        guide.discipline in SINGLES,
        GUIDE,
        "backgammon is played one against one",
        "bg_singles_only",
    )
    require(guide.teams is None, GUIDE, "no team matches in backgammon", "bg_no_teams")
    _check_korona_settings(guide)
    _check_lengths(guide.settings or MatchSettings())


def _check_korona_settings(guide: Guide) -> None:
    """What only korona has is refused with its reason, not ignored."""
    one = "a backgammon match is one match to N points: set match lengths, not games"
    require(guide.games_per_match == 1, GUIDE, f"games_per_match is 1 ({one})", "bg_one_game")
    require(guide.playoff_games == 1, GUIDE, f"playoff_games is 1 ({one})", "bg_one_game")
    require(
        not guide.play_all_games and not guide.playoff_play_all_games, GUIDE, one, "bg_one_game"
    )
    require(
        guide.time_cap is None,
        FULL_LENGTH,
        "every match is played to its full length",
        "bg_full_length",
    )
    require(
        guide.points == MATCH_POINT,
        FULL_LENGTH,
        "a match is won or lost, never drawn: 1 match point for a win, 0 for a loss",
        "bg_never_drawn",
    )
    require(
        "pucks_diff" not in guide.tie_breaks,
        GUIDE,
        f"pucks difference is {_KORONA_ONLY}",
        "bg_no_pucks",
    )


def _check_lengths(settings: MatchSettings) -> None:
    """Lengths from 1 to the engine's longest, at least one (KSI 4.5: matches to N points)."""
    lengths = (*settings.lengths, *((settings.final_length,) if settings.final_length else ()))
    require(
        bool(settings.lengths),
        GUIDE,
        "name the match length of round 1 at least",
        "bg_round_one_length",
    )
    require(
        all(1 <= n <= MAX_LENGTH for n in lengths),
        FULL_LENGTH,
        f"a match is 1 to {MAX_LENGTH} points",
        "bg_length_range",
        most=MAX_LENGTH,
    )


def match_length(state: Competition, match_id: str) -> int:
    """Points to win a match: the final's own length, else its round's (the last named
    length repeats); a play-off after a Swiss counts its rounds on after the Swiss's."""
    settings = state.guide.settings or MatchSettings()
    if settings.final_length and match_id in finals(state):
        return settings.final_length
    number = _round(state, match_id)
    return settings.lengths[min(number, len(settings.lengths)) - 1]


def finals(state: Competition) -> set[str]:
    """The matches deciding first place: a bracket's or play-off's last round, grand finals."""
    out = set()
    for bracket in (state.bracket, state.playoff):
        if bracket is not None:
            out |= _finals_of(bracket)
    return out


def _finals_of(bracket: Bracket) -> set[str]:
    """The final of one bracket (GF1 and its replay GF2 in a double elimination)."""
    main = [m for m in bracket.matches if m.stage in ("W", "P")]
    last = max((m.round for m in main), default=0)
    grand = {m.id for m in bracket.matches if m.stage == "GF"}
    return grand or {m.id for m in main if m.round == last}


def _round(state: Competition, match_id: str) -> int:
    """A match's round: paired rounds by id, bracket matches by their bracket round."""
    if state.playoff is not None:
        found = next((m for m in state.playoff.matches if m.id == match_id), None)
        if found is not None:
            return state.guide.rounds + found.round
    if state.bracket is not None:
        found = next((m for m in state.bracket.matches if m.id == match_id), None)
        if found is not None:
            return found.round
    return round_of(match_id)


def no_show_minutes(state: Competition, match_id: str) -> int:
    """When an absent player has lost: penalty points of 1 per 5 minutes (KSI 2.2.4) exceed
    half the match length — 20 minutes for 7 points, 30 for 11."""
    return 5 * (match_length(state, match_id) // 2 + 1)


def check_result(result: MatchResult) -> None:
    """A backgammon result names one winner (the match is its one "game"), no drawn games and
    no pucks; the winner's score may be the lower when the match ended otherwise than on the
    board (a flag, KSI 4.3.3; lateness, KSI 2.2.4; expulsion, KSI 1.2.4, 1.7.3 or 1.2.3.2)."""
    won = (result.a_games, result.b_games)
    require(
        sorted(won) == [0, 1] and not result.drawn_games,
        "KSI 4.5",
        "one winner, no draw",
        "one_winner_no_draw",
    )
    require(
        result.a_pucks_diff == 0,
        GUIDE,
        "pucks are a korona setting",
        "pucks_korona_only",
    )
    if result.score is not None:
        require(
            min(result.score) >= 0, "KSI 4.7", "a score is never negative", "score_not_negative"
        )


def bye_points(guide: Guide) -> float:
    """A backgammon match has no draw: its Swiss bye is a win's match point (guide
    (backgammon), docs/decisions/)."""
    return guide.points.win


SPORT = Sport(
    name=NAME,
    check_guide=check_guide,
    check_result=check_result,
    no_show_minutes=no_show_minutes,
    result_rule="KSI 4.6",
    move_rule="KSI 1.1",  # the rules are silent on tables: the TD judges (decision 0207)
    smallest_bracket=2,  # a KSI bracket is sized to its entrants: 8 players, 8 places
    bye_points=bye_points,
    policies={"KSI": KSI},
    read_model=READ_MODEL,  # the hall reads it to know a table a backgammon match holds
    absent_fields=frozenset({"drawn_games", "a_pucks_diff", "pucks_diff", "drawn"}),
    counts_points=True,  # a match to N points (KSI 4.5): its points in the games columns
)
