"""Tie-breaks in the guide's order. How unplayed games (bye, forfeit, withdrawal) enter them
is a named guide setting, the common published conventions as choices (guide.py): by default
an unplayed game counts, for tie-breaks only, as a draw against oneself (koroona.ee 2003 after
FIDE; RULES.md §6)."""

from collections.abc import Callable

from .guide import Guide, draw_points
from .records import Game

FRACTION = {"W": 1.0, "D": 0.5, "L": 0.0}


def opponent_totals(recs: dict[str, list[Game]], guide: Guide) -> dict[str, float]:
    """Each entrant's total as it enters someone else's Buchholz: as scored, or with every
    unplayed round as a draw (guide `opponent_unplayed_in_buchholz`)."""
    as_draws = guide.opponent_unplayed_in_buchholz == "as_draws"
    return {
        e: sum(draw_points(guide) if as_draws and g.kind != "played" else g.points for g in gs)
        for e, gs in recs.items()
    }


def _fraction(game: Game, guide: Guide) -> float:
    """1 for a won, ½ for a drawn and 0 for a lost match; an unplayed one is a draw unless
    the guide takes unplayed games at face value or against a virtual opponent."""
    if game.kind != "played" and guide.unplayed_games_in_buchholz == "draw":
        return 0.5
    if game.kind == "bye":
        return 0.5
    return FRACTION[game.result]


def _opponent_scores(entrant: str, games: list[Game], totals: dict[str, float], guide) -> list:
    """Each round's opponent total; an unplayed round's opponent per the guide's setting."""
    rule = guide.unplayed_games_in_buchholz
    done = max((g.round for g in games), default=0)
    out, before = [], 0.0
    for g in sorted(games, key=lambda g: g.round):
        if g.kind == "played":
            out.append(totals.get(g.opponent, 0.0))
        elif rule == "draw":
            out.append(totals[entrant])
        elif rule == "face_value":
            out.append(totals.get(g.opponent, 0.0) if g.opponent else 0.0)
        else:
            out.append(_virtual(before, g, done, guide))
        before += g.points
    return out


def _virtual(before: float, game: Game, done: int, guide: Guide) -> float:
    """FIDE's virtual opponent: one's score before the round, what the other side scored in
    it (a bye: a draw), then a draw in each later round."""
    now = draw_points(guide) if game.kind == "bye" else game.opponent_points
    return before + now + draw_points(guide) * (done - game.round)


def buchholz(entrant, games, totals, guide) -> float:
    """Sum of the opponents' points."""
    return sum(_opponent_scores(entrant, games, totals, guide))


def buchholz_cut1(entrant, games, totals, guide) -> float:
    """Buchholz less the weakest opponent's points."""
    scores = _opponent_scores(entrant, games, totals, guide)
    return sum(scores) - min(scores, default=0.0)


def median_buchholz(entrant, games, totals, guide) -> float:
    """Buchholz less the strongest and the weakest opponent ("Buch-HiLo")."""
    scores = _opponent_scores(entrant, games, totals, guide)
    if len(scores) < 3:
        return sum(scores)
    return sum(scores) - min(scores) - max(scores)


def sonneborn_berger(entrant, games, totals, guide) -> float:
    """Sum of beaten opponents' points plus half of drawn opponents' points."""
    scores = _opponent_scores(entrant, games, totals, guide)
    ordered = sorted(games, key=lambda g: g.round)
    return sum(s * _fraction(g, guide) for s, g in zip(scores, ordered, strict=True))


def progressive(entrant, games, totals, guide) -> float:
    """Sum of the running totals after each round (unplayed rounds as draws)."""
    running, total = 0.0, 0.0
    for g in games:
        running += g.points if g.kind == "played" else draw_points(guide)
        total += running
    return total


def wins(entrant, games, totals, guide) -> float:
    """Matches won over the board (forfeit wins count as draws here)."""
    return float(sum(1 for g in games if g.kind == "played" and g.won > g.lost))


def games_ratio(entrant, games, totals, guide) -> float:
    """Share of games won among games won and lost."""
    won, lost = sum(g.won for g in games), sum(g.lost for g in games)
    return won / (won + lost) if won + lost else 0.0


def games_diff(entrant, games, totals, guide) -> float:
    """Games won less games lost."""
    return float(sum(g.won - g.lost for g in games))


def pucks_diff(entrant, games, totals, guide) -> float:
    """Pucks difference summed over the games."""
    return float(sum(g.pucks for g in games))


def board_points(entrant, games, totals, guide) -> float:
    """Team events: board points summed over the team matches (EKML §29(3))."""
    return sum(g.won * guide.points.win + g.drawn * guide.points.draw for g in games)


def head_to_head(entrant: str, recs: dict[str, list[Game]], group: set[str], guide) -> float:
    """Points scored over the board against the others still tied with this entrant; under
    the default `all_met` only when every tied player has met every other (else 0 for all)."""
    if guide.head_to_head == "all_met" and not _all_met(recs, group | {entrant}):
        return 0.0
    return sum(g.points for g in recs[entrant] if g.kind == "played" and g.opponent in group)


def _all_met(recs: dict[str, list[Game]], group: set[str]) -> bool:
    """Whether every player of the group has played every other over the board."""
    return all(group - {e} <= {g.opponent for g in recs[e] if g.kind == "played"} for e in group)


SCORERS: dict[str, Callable[..., float]] = {
    "buchholz": buchholz,
    "buchholz_cut1": buchholz_cut1,
    "median_buchholz": median_buchholz,
    "sonneborn_berger": sonneborn_berger,
    "progressive": progressive,
    "wins": wins,
    "games_ratio": games_ratio,
    "board_points": board_points,
    "games_diff": games_diff,
    "pucks_diff": pucks_diff,
}
