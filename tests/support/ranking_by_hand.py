"""Decision 0170's rating worked by hand: Weng & Lin (2011) Algorithm 4 for two sides of one
player each, written out from the paper's formulas (not the library), every parameter as the
decision names it. The tests compare the federation's lists with it."""

from __future__ import annotations

import math

MU, SIGMA, BETA, TAU, KAPPA = 25.0, 25.0 / 3, 25.0 / 6, 25.0 / 300, 0.0001


def hand_match(a: tuple[float, float], b: tuple[float, float], winner: str):
    """σ² += τ²; c² = σa² + σb² + 2β²; p_i = e^(μi/c) / Σ over the sides ranked no better
    than i; Ω_i = σi²/c (1[i won] − p_i over the winner's set); Δ_i = γ σi²/c² p(1−p) summed
    over the same sets, γ = σi/c; μ' = μ + Ω, σ' = σ √max(1 − Δ, κ). A draw ranks both
    first: each set counts half (A_q = 2), so Ω is 0 for equal μ."""
    if winner == "b":
        new_b, new_a = hand_match(b, a, "a")
        return new_a, new_b
    (mua, sa), (mub, sb) = a, b
    sa2, sb2 = sa * sa + TAU * TAU, sb * sb + TAU * TAU
    c = math.sqrt(sa2 + sb2 + 2 * BETA * BETA)
    ea, eb = math.exp(mua / c), math.exp(mub / c)
    pa, pb = ea / (ea + eb), eb / (ea + eb)
    if winner == "draw":
        omega_a = sa2 / c * ((1 - pa) / 2 - pa / 2)
        omega_b = sb2 / c * ((1 - pb) / 2 - pb / 2)
    else:  # the winner's set holds both sides, the loser's only itself
        omega_a, omega_b = sa2 / c * (1 - pa), -sb2 / c * pb
    return _after(mua, sa2, omega_a, pa, c), _after(mub, sb2, omega_b, pb, c)


def _after(mu: float, s2: float, omega: float, p: float, c: float) -> tuple[float, float]:
    delta = math.sqrt(s2) / c * s2 / c**2 * p * (1 - p)
    return mu + omega, math.sqrt(s2) * math.sqrt(max(1 - delta, KAPPA))


def hand_ratings(matches) -> dict[str, tuple[float, float]]:
    """(player a, player b, winner) in the order played → each player's (μ, σ)."""
    ratings: dict[str, tuple[float, float]] = {}
    for a, b, winner in matches:
        fresh = (MU, SIGMA)
        ratings[a], ratings[b] = hand_match(ratings.get(a, fresh), ratings.get(b, fresh), winner)
    return ratings
