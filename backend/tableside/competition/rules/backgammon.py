"""Backgammon competitions (KSI): what a backgammon guide may say, each match's length in
points, and what a backgammon match result must look like.

KSI is a code of match play; it says nothing of pairings, scoring or match lengths per round
(KSI.md §3, "not in this text"), so those are the guide's: cited `guide (backgammon)`. A match is
won or lost, never drawn (KSI 4.5: every match is played to its full length, no agreed result).
"""

from .brackets import Bracket
from .errors import require
from .guide import MATCH_POINT, BackgammonSettings, Guide, is_backgammon
from .state import Competition, round_of

GUIDE = "guide (backgammon)"
FULL_LENGTH = "KSI 4.5"
MAX_LENGTH = 99  # the engine's longest match (KSI 4.5 matches to N points)
SINGLES = ("open_singles", "mens_singles", "womens_singles")
_KORONA_ONLY = "a korona setting"


def check_guide(guide: Guide) -> None:
    """A guide fits its sport: backgammon settings only in a backgammon guide, KSI only there."""
    if not is_backgammon(guide):
        require(
            guide.backgammon is None,
            GUIDE,
            "match lengths belong to a backgammon guide",
            "bg_lengths_in_bg_guide",
        )
        require(
            guide.ruleset != "KSI",
            GUIDE,
            "KSI rules are backgammon's: set sport",
            "ksi_is_backgammon",
        )
        require(
            guide.discipline != "open_singles",
            "EKML §5(1)",
            "korona has no open singles",
            "korona_no_open_singles",
        )
        return
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
    _check_lengths(guide.backgammon or BackgammonSettings())


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


def _check_lengths(settings: BackgammonSettings) -> None:
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
    settings = state.guide.backgammon or BackgammonSettings()
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
