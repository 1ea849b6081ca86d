"""Entrants: a player, a pair (EKML §5) or a team (EKML §29), with their status."""

from typing import Annotated, Literal

import msgspec

from .guide import Sex
from .teams import Team

Status = Literal["registered", "approved", "checked_in", "withdrawn"]
FederationId = Annotated[str, msgspec.Meta(pattern=r"^[1-9][0-9]{0,11}$")]


class Person(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """A player as an entry list carries them: name, birth year, sex, club, grade (järk)."""

    name: str
    birth_year: int
    sex: Sex
    club: str = ""
    grade: str = ""
    # The federation's register id, when the TD links the player at registration (issue 49,
    # decision 0171); unset (not written at all) otherwise, so older entries read unchanged.
    federation_id: FederationId | msgspec.UnsetType = msgspec.UNSET


class Entrant(msgspec.Struct, frozen=True):
    """One entrant of a competition; `joined_round` is the first round it may be paired in."""

    id: str
    name: str
    members: tuple[Person, ...]
    team: Team | None = None
    status: Status = "registered"
    joined_round: int = 1
