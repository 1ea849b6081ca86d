"""Minutes between two ISO-8601 instants, computed from the strings passed in (no clock)."""

from datetime import datetime


def minutes_between(start: str, end: str) -> float:
    """Minutes from `start` to `end`."""
    return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds() / 60
