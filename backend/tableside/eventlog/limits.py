"""What one event may carry: the bounds the database holds every append to (schema 046,
issue 46), the API's own (`web.guards`: the largest body, an imported file of 2 MiB, makes an
event of at most twice that), and one append's events in all (schema 014, #50).
`tests/eventlog/test_append_bounds.py` keeps the migrations' numbers equal to these."""

from __future__ import annotations

EVENT_STATE_BYTES = 4 * 1024 * 1024  # an event's JSON
EVENT_META_BYTES = 16 * 1024  # who and where: a few fields of at most 200 characters
EVENT_TYPE_BYTES = 200  # a registered type's name
APPEND_STATE_BYTES = 2 * EVENT_STATE_BYTES  # every event of one append, in all (schema 014)
REFUSED = "TS413"  # the SQLSTATE of an event past them
