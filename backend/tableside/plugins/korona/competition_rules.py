"""Korona and novus competitions (EKML, NOVUS08, LV), korona's sport
(`competition/rules/sports.py`, decision 0149): what a korona guide may not say, and how its
matches open. Every other default of a sport is the house's regulations' (EKML), korona's own.
Pure, as the competition's rules are."""

from tableside.competition.rules.errors import require
from tableside.competition.rules.guide import Guide
from tableside.competition.rules.sports import Sport

NAME = "korona"  # the guide's sport


def check_guide(guide: Guide) -> None:
    """A korona guide: no match lengths, no KSI, no open singles (EKML §5(1))."""
    require(
        guide.settings is None,
        "guide (backgammon)",
        "match lengths belong to a backgammon guide",
        "bg_lengths_in_bg_guide",
    )
    require(
        guide.ruleset != "KSI",
        "guide (backgammon)",
        "KSI rules are backgammon's: set sport",
        "ksi_is_backgammon",
    )
    require(
        guide.discipline != "open_singles",
        "EKML §5(1)",
        "korona has no open singles",
        "korona_no_open_singles",
    )


def opening_rule(guide: Guide) -> str:
    """How a match of this guide opens (EKML §31(1)): "listing" — a round robin's first-listed
    player opens; "lot" — the lot (coin toss) decides; "" — a team's boards (EKML §29, the
    table's own draw for board I)."""
    if guide.teams is not None:
        return ""
    return "listing" if guide.format == "round_robin" and not guide.opening_by_lot else "lot"


SPORT = Sport(name=NAME, check_guide=check_guide)
