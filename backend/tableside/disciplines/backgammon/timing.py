"""Time rules as pure functions: lateness, pauses, the Bronstein clock (KSI 2.2, 3.5, 4.3)."""

from __future__ import annotations


def lateness_points(minutes: int) -> int:
    """1 penalty point at 5 minutes late, 1 more for every further 5 (KSI 2.2.4)."""
    return max(0, minutes) // 5


def loses_on_penalty(received: int, length: int) -> bool:
    """Penalty points exceeding half the match length lose the match (KSI 2.2.4)."""
    return 2 * received > length
