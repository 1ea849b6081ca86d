"""What differs between EKML, NOVUS08 and LV at the competition level: data, not copies. A
sport brings the policies of its own rulesets (`sports.Sport.policies`, registered here)."""

from fractions import Fraction

import msgspec


class RulesetPolicy(msgspec.Struct, frozen=True):
    """Per-ruleset competition settings, each with the paragraph it comes from."""

    name: str
    # Share of matches that must be played for results to stand after a withdrawal.
    withdrawal_keep_at: Fraction
    withdrawal_keep_inclusive: bool
    withdrawal_rule: str
    # Whether the opponent of a withdrawn player gets a win's points for an unplayed match.
    withdrawal_forfeit_points: bool
    protest_minutes: int | None
    protest_rule: str
    no_show_minutes: int = 2
    no_show_rule: str = "EKML §9(3)"
    # NOVUS08 3.2: two losses by not appearing put a player out of the competition.
    no_show_limit: int | None = None
    team_play_all: bool = True
    team_rule: str = "EKML §29(7)"


EKML = RulesetPolicy(
    name="EKML",
    withdrawal_keep_at=Fraction(1, 2),
    withdrawal_keep_inclusive=True,
    withdrawal_rule="EKML §32(3)",
    withdrawal_forfeit_points=False,
    protest_minutes=60,
    protest_rule="EKML §9(7)",
)

NOVUS08 = RulesetPolicy(
    name="NOVUS08",
    withdrawal_keep_at=Fraction(1, 2),
    withdrawal_keep_inclusive=False,
    withdrawal_rule="NOVUS08 3.2",
    withdrawal_forfeit_points=True,
    protest_minutes=None,
    protest_rule="NOVUS08 3.4",
    no_show_rule="NOVUS08 3.2",
    no_show_limit=2,
    team_play_all=False,
    team_rule="NOVUS08 23.2",
)

# LV rules say nothing on competitions; a Latvian event runs on the NOVUS08 lines.
LV = msgspec.structs.replace(NOVUS08, name="LV")

POLICIES = {"EKML": EKML, "NOVUS08": NOVUS08, "LV": LV}


def register_policy(policy_: RulesetPolicy) -> None:
    """A sport's ruleset policy, known by its name from now on (`sports.register`)."""
    POLICIES[policy_.name] = policy_


def policy(ruleset: str) -> RulesetPolicy:
    """The competition policy of a ruleset by name."""
    return POLICIES[ruleset]


def results_stand(policy_: RulesetPolicy, played: int, total: int) -> bool:
    """EKML §32(3): at least half → results stand; NOVUS08 3.2: more than 50 % → they stand."""
    if total == 0:
        return False
    share = Fraction(played, total)
    if policy_.withdrawal_keep_inclusive:
        return share >= policy_.withdrawal_keep_at
    return share > policy_.withdrawal_keep_at
