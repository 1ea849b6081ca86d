"""The fan-out's bounded queues (issue 17 point 1): a subscriber that falls behind is dropped."""

from __future__ import annotations

import asyncio

from tableside.live.audience import Audience


def test_a_subscriber_that_falls_behind_is_dropped_and_others_get_everything():
    async def scenario():
        audience = Audience(limit=8)
        runner = asyncio.create_task(audience.run())
        dropped = []
        slow = audience.subscribe("match:x", lambda: dropped.append("slow"))
        fast = audience.subscribe("match:x", lambda: dropped.append("fast"))
        got = []
        for k in range(1, 21):
            audience.publish(k, f"delta {k}".encode(), ["match:x", "table:1"])
            await asyncio.sleep(0)
            got += [p for p, _ in await fast.take()]
        runner.cancel()
        assert dropped == ["slow"] and slow.dropped and not slow.queue
        assert got == list(range(1, 21))
        assert audience.position == 20

    asyncio.run(scenario())
