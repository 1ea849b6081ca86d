"""What the match slice refuses whatever the discipline: a stream that is no match."""

from __future__ import annotations


class MatchNotFound(LookupError):
    """No match stream with this id."""
