"""The uplink's back-off is bounded (issue 49, point 2; decision 0167): while the federation
cannot be reached each failed round waits about twice as long as the one before (with
jitter, 50–100 %), never longer than `backoff_max`, and says so in its status; the judge's
side never calls it (it runs in its own thread: tests/federation/test_push.py)."""

from __future__ import annotations

import json

from support.harness import free_port
from tableside.uplink.pusher import Pusher


def test_an_unreachable_federation_backs_off_exponentially_up_to_the_bound(tmp_path) -> None:
    nobody = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    pusher = Pusher("postgresql:///unused", nobody, tmp_path, "00" * 32, code="fe_x", backoff_max=8)
    delays = []
    for _ in range(7):
        pusher.next_try = 0.0  # the round is due now
        pusher.step()
        seen = json.loads((tmp_path / "status.json").read_bytes())
        assert seen["state"] == "offline" and "ConnectError" in seen["detail"], seen
        delays.append(seen["retry_in"])
    bounds = [min(8, 2**i) for i in range(7)]
    assert all(b / 2 - 0.1 <= d <= b + 0.1 for d, b in zip(delays, bounds, strict=True)), delays
    assert max(delays) <= 8
    assert not (tmp_path / "credential.json").exists()  # nothing enrolled, nothing half-written
