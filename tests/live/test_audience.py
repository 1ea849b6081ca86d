"""The fan-out's bounded queues (issue 17 point 1): a subscriber that falls behind is dropped."""

from __future__ import annotations

import asyncio

from tableside.live.audience import Audience, Group
from tableside.live.channels import DOCUMENT
from tableside.live.direct import text_frame


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


def test_a_group_gives_a_caught_up_socket_only_what_its_catch_up_did_not_send():
    """A direct subscriber whose catch-up read the store past the hub gets the rest of a
    group, frames made once; documents always; its last position moves to the group's end."""
    group = Group()
    for position, text in ((4, b"d4"), (DOCUMENT, b"doc"), (5, b"d5"), (6, b"d6")):
        group.add(position, text, text_frame(text))
    framed, texts, last = group.after(3)
    assert texts == [b"d4", b"doc", b"d5", b"d6"] and last == 6
    assert framed == b"".join(text_frame(t) for t in texts)
    framed, texts, last = group.after(5)
    assert texts == [b"doc", b"d6"] and framed == text_frame(b"doc") + text_frame(b"d6")
    assert last == 6
    assert group.after(9)[1:] == ([b"doc"], 9)
