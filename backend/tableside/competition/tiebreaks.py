"""Tie-breaks in the guide's order. An unplayed game (bye, forfeit, withdrawal) counts, for
tie-breaks only, as a draw against oneself (koroona.ee 2003 after FIDE; RULES.md §6)."""

from collections.abc import Callable

from .guide import Guide
from .records import Game


def _fraction(game: Game) -> float:
    """1 for a won, ½ for a drawn and 0 for a lost match; an unplayed one is a draw."""
    if game.kind != "played":
        return 0.5
    return 1.0 if game.won > game.lost else 0.5 if game.won == game.lost else 0.0


def _opponent_scores(entrant: str, games: list[Game], totals: dict[str, float]) -> list[float]:
    """Each opponent's total; an unplayed game's opponent is oneself."""
    return [totals.get(g.opponent, 0.0) if g.kind == "played" else totals[entrant] for g in games]


def buchholz(entrant, games, totals, guide) -> float:
    """Sum of the opponents' points."""
    return sum(_opponent_scores(entrant, games, totals))


def buchholz_cut1(entrant, games, totals, guide) -> float:
    """Buchholz less the weakest opponent's points."""
    scores = _opponent_scores(entrant, games, totals)
    return sum(scores) - min(scores, default=0.0)


def median_buchholz(entrant, games, totals, guide) -> float:
    """Buchholz less the strongest and the weakest opponent ("Buch-HiLo")."""
    scores = _opponent_scores(entrant, games, totals)
    if len(scores) < 3:
        return sum(scores)
    return sum(scores) - min(scores) - max(scores)


def sonneborn_berger(entrant, games, totals, guide) -> float:
    """Sum of beaten opponents' points plus half of drawn opponents' points."""
    scores = _opponent_scores(entrant, games, totals)
    return sum(s * _fraction(g) for s, g in zip(scores, games, strict=True))


def progressive(entrant, games, totals, guide) -> float:
    """Sum of the running totals after each round (unplayed rounds as draws)."""
    running, total = 0.0, 0.0
    for g in games:
        running += g.points if g.kind == "played" else _draw_points(guide)
        total += running
    return total


def _draw_points(guide: Guide) -> float:
    """A draw's match points on this guide's scale."""
    return guide.games_per_match / 2 if guide.points.per_game else guide.points.draw


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


def head_to_head(entrant: str, games: list[Game], group: set[str]) -> float:
    """Points scored against the others still tied with this entrant."""
    return sum(g.points for g in games if g.kind == "played" and g.opponent in group)


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
