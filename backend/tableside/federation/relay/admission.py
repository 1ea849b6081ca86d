"""Per-node admission of remote spectators: at most `limit` sockets on this node, at most
`per_client` from one address (a hostile network: one address cannot take a node). A socket
past either is accepted and closed at once with its code and a retry hint in seconds,
jittered so that a refused crowd does not come back at one moment (decision 0196)."""

from __future__ import annotations

import os
import random
from collections import Counter

FULL = 1013  # close code: this node is full (WebSocket "try again later"); reason: retry in
BUSY = 4429  # close code: too many sockets from this address (as the hall's feed)
RETRY = (2.0, 10.0)  # the retry hint's bounds, seconds


class Admission:
    """This node's count of remote sockets, in all and by address."""

    def __init__(self, limit: int, per_client: int) -> None:
        self.limit, self.per_client = limit, per_client
        self.open = 0
        self.clients: Counter[str] = Counter()

    @classmethod
    def from_env(cls) -> Admission:
        """TABLESIDE_FEDERATION_RELAY_SOCKETS (20000), _RELAY_PER_ADDRESS (500)."""
        env = os.environ
        return cls(
            int(env.get("TABLESIDE_FEDERATION_RELAY_SOCKETS") or 20000),
            int(env.get("TABLESIDE_FEDERATION_RELAY_PER_ADDRESS") or 500),
        )

    def admit(self, client: str) -> int:
        """0 when admitted (counted), else the close code refusing it."""
        if self.open >= self.limit:
            return FULL
        if self.clients[client] >= self.per_client:
            return BUSY
        self.open += 1
        self.clients[client] += 1
        return 0

    async def leave(self, _pool: object, client: str) -> None:
        """Give a socket's place back (the signature of the hall's `live/addresses.leave`, so
        a detached socket gives it back as the hall's does: live/detached.py)."""
        self.open -= 1
        self.clients[client] -= 1
        if self.clients[client] <= 0:
            del self.clients[client]


def retry_reason() -> str:
    """The close reason carrying a jittered retry hint: `retry in N s`."""
    return f"retry in {random.uniform(*RETRY):.1f} s"
