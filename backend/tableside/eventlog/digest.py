"""The digest that tells a retry from a reused command_id (schema/010).

SHA-256 of a canonical encoding (msgspec JSON, keys sorted) of what a command asks for:
its kind, the stream it targets and the command itself — never transport fields (device
id, device time, the command_id itself) nor the version precondition, so a faithful retry
always has the same digest and a different command under the same id never has.
"""

from __future__ import annotations

import hashlib
from uuid import UUID

import msgspec

_encoder = msgspec.json.Encoder(order="sorted")


def command_digest(kind: str, stream_id: UUID, command: object) -> bytes:
    """32 bytes identifying `command` of `kind` aimed at `stream_id`."""
    body = {"kind": kind, "stream": str(stream_id), "command": command}
    return hashlib.sha256(_encoder.encode(body)).digest()
