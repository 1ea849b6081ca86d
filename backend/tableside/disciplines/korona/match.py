"""The match: creation, opening shot, the next game, the result and points (EKML §27, §31, §32)."""

from __future__ import annotations

import msgspec

from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona.batch import Batch
from tableside.disciplines.korona.commands import AssignOpeningShot, CreateMatch
from tableside.disciplines.korona.errors import RuleViolation
from tableside.disciplines.korona.pairs import rotate, seats_for_game
from tableside.disciplines.korona.rulesets import Ruleset
from tableside.disciplines.korona.rulesets_variants import ruleset_for
from tableside.disciplines.korona.state import MatchState, players
from tableside.disciplines.korona.vocabulary import other
from tableside.names import person_names, refuse_lookalike

# Each format's players a side in words (no "player(s)": the format fixes the count).
SIDE_PLAYERS = {
    1: "a singles match needs one player a side",
    2: "a pairs match needs two different players a side",
}


def create(state: MatchState, cmd: CreateMatch) -> list[ev.Event]:
    """MatchCreated, with the points scale of EKML §32(2) unless the guide sets another."""
    rs = ruleset_for(cmd.ruleset, cmd.fill_silences)
    cmd = _named(cmd)
    size = _check_creation(state, cmd, rs)
    points = cmd.points or ((4.0, 2.0, 0.0) if size == 2 else (2.0, 1.0, 0.0))
    return [
        ev.MatchCreated(
            match_id=cmd.match_id,
            ruleset=cmd.ruleset,
            fmt=cmd.fmt,
            side_a=cmd.side_a,
            side_b=cmd.side_b,
            games=cmd.games,
            play_all=cmd.play_all,
            points=points,
            at=cmd.at,
            fill_silences=cmd.fill_silences,
            opening=cmd.opening,
            rule="" if cmd.points is None else rs.cite["points"],
        )
    ]


def _named(cmd: CreateMatch) -> CreateMatch:
    """The players' names as stored (RFC 8266 §2), none a look-alike of another player's in
    the match (UTS #39 §4)."""
    side_a, side_b = person_names(cmd.side_a, "side_a"), person_names(cmd.side_b, "side_b")
    everyone = side_a + side_b
    for i, name in enumerate(everyone):
        refuse_lookalike(name, everyone[:i], "side_a" if i < len(side_a) else "side_b")
    return msgspec.structs.replace(cmd, side_a=side_a, side_b=side_b)


def _check_creation(state: MatchState, cmd: CreateMatch, rs: Ruleset) -> int:
    """The refusals of a match creation; the number of players a side."""
    if state.created:
        raise RuleViolation(
            rs.cite["match_end"], "the match already exists", "match_id", code="match_exists"
        )
    size = 2 if cmd.fmt == "pairs" else 1
    if len(cmd.side_a) != size or len(cmd.side_b) != size or set(cmd.side_a) & set(cmd.side_b):
        raise RuleViolation(
            rs.cite["pairs_rotation" if size == 2 else "side_change"],
            SIDE_PLAYERS[size],
            "side_a",
            code="pairs_side_players" if size == 2 else "singles_side_players",
        )
    if cmd.games < 1:
        raise RuleViolation(
            rs.cite["match_end"], "a match has at least one game", "games", code="no_games"
        )
    return size


def _opening_side(b: Batch, cmd: AssignOpeningShot) -> tuple[str, str]:
    _check_guides_opening(b, cmd)
    if cmd.method == "listing":
        return "A", b.cite("opening_listing")
    if cmd.method == "odd_even":
        if not b.rs.odd_even_opening:
            raise RuleViolation(
                b.cite("opening_lot"),
                "odd/even opening is NOVUS08 22.1.2 only",
                "method",
                code="odd_even_novus08_only",
            )
        return "A", b.cite("opening_odd_even")
    if cmd.method == "team":
        first = cmd.lot_winner or ("B" if b.rs.guests_open_team else "")
        if not first:
            raise RuleViolation(
                b.cite("opening_team"),
                "board I is drawn by lot",
                "lot_winner",
                code="board_one_by_lot",
            )
        return (first if cmd.board % 2 else other(first)), b.cite("opening_team")
    if not cmd.lot_winner:
        raise RuleViolation(
            b.cite("opening_lot"), "the lot (coin toss) decides", "lot_winner", code="lot_decides"
        )
    return cmd.lot_winner, b.cite("opening_lot")


def _check_guides_opening(b: Batch, cmd: AssignOpeningShot) -> None:
    """The guide decided how this match opens (EKML §31(1)): a round robin's first-listed,
    or the lot (coin toss); the other way is refused."""
    wanted = b.state.opening
    if wanted and cmd.method in ("listing", "lot") and cmd.method != wanted:
        raise RuleViolation(
            b.cite("opening_listing" if wanted == "listing" else "opening_lot"),
            f"this match's guide opens by {wanted}",
            "method",
            code="opening_by_listing" if wanted == "listing" else "opening_by_lot",
        )


def _seats(b: Batch, side: str, cmd: AssignOpeningShot) -> tuple[str, ...]:
    mine, theirs = players(b.state, side), players(b.state, other(side))
    if not b.pairs:
        return (mine[0], theirs[0])
    opener = cmd.opener or mine[0]
    first = cmd.opponent_first or theirs[0]
    if opener not in mine or first not in theirs:
        raise RuleViolation(
            b.cite("opening_pairs"),
            "opener or opponent not in the right pair",
            "opener",
            code="opener_not_in_pair",
        )
    partner = next(p for p in mine if p != opener)
    return (opener, first, partner, next(p for p in theirs if p != first))


def assign_opening(state: MatchState, cmd: AssignOpeningShot) -> list[ev.Event]:
    """Who opens game 1 and the seating; game 1 is set up (EKML §31, §19(1))."""
    b = Batch(state)
    if not state.created or state.protocol_seats:
        raise RuleViolation(
            b.cite("opening_lot"),
            "opening shot is assigned once, after creation",
            code="opening_assigned_once",
        )
    side, rule = _opening_side(b, cmd)
    seats = _seats(b, side, cmd)
    b.emit(ev.OpeningShotAssigned(method=cmd.method, side=side, seats=seats, rule=rule))
    b.emit(ev.GameSetUp(game_no=1, seats=seats, opener=seats[0], rule=b.cite("setup")))
    return b.events


def decided(state: MatchState) -> bool:
    """Someone has won more than half the games (EKML §32(1)), or all games are played."""
    if state.games_played >= state.games:
        return True
    return not state.play_all and max(state.won) * 2 > state.games


def end_match(
    b: Batch, reason: str, rule: str, winner: str | None = None, forfeit: bool = False
) -> None:
    """MatchEnded with the games score and points (EKML §32(1)-(2))."""
    a, bb = b.state.won
    if winner is None:
        winner = "A" if a > bb else "B" if bb > a else ""
    win, draw, loss = b.state.points
    pts = (draw, draw) if not winner else (win, loss) if winner == "A" else (loss, win)
    b.emit(
        ev.MatchEnded(
            winner=winner,
            games_a=a,
            games_b=bb,
            points_a=pts[0],
            points_b=pts[1],
            reason=reason,
            forfeit=forfeit,
            rule=f"{rule}, {b.cite('points')}",
        )
    )


def after_game(b: Batch) -> None:
    """After a game counts: end the match or set up the next game with the players moved."""
    if decided(b.state):
        end_match(b, "games", b.cite("match_end"))
        return
    game_no = b.state.games_played + 1
    seats = seats_for_game(b.state.protocol_seats, game_no)
    key = "pairs_rotation" if b.pairs else "side_change"
    b.emit(ev.GameSetUp(game_no=game_no, seats=seats, opener=seats[0], rule=b.cite(key)))


def replay(b: Batch, rule: str, swap: bool, opener: str = "") -> None:
    """Set the annulled game up again: same seats, or sides and opening swapped (8+8)."""
    g = b.state.game
    seats = g.seats
    if swap and not (b.pairs and b.rs.pairs_replay_keeps_seats):
        seats = rotate(seats)
        opener = seats[0]
    b.emit(
        ev.GameSetUp(
            game_no=g.game_no, seats=seats, opener=opener or g.opener, replay=True, rule=rule
        )
    )
