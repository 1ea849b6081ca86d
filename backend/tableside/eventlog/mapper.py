"""The eventsourcing library's Mapper, for frozen msgspec events named by the registry."""

from __future__ import annotations

from typing import Any

import msgspec
from eventsourcing.persistence import Mapper, StoredEvent, Transcoder

from tableside.eventlog.records import Envelope
from tableside.eventlog.registry import EventRegistry


class MsgspecTranscoder(Transcoder):
    """JSON via msgspec, for anything the library itself asks us to serialise."""

    def encode(self, obj: Any) -> bytes:
        """Encode any msgspec-supported object."""
        return msgspec.json.encode(obj)

    def decode(self, data: bytes) -> Any:
        """Decode to builtins."""
        return msgspec.json.decode(data)


class EventMapper(Mapper):
    """Stores the registry's stable name as `topic`, so moving a module never breaks reads."""

    def __init__(self, registry: EventRegistry) -> None:
        super().__init__(transcoder=MsgspecTranscoder())
        self.registry = registry

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        """Envelope → the library's StoredEvent (no originator fields inside the payload)."""
        name, payload = self.registry.encode(domain_event.event)
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=name,
            state=payload,
        )

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        """The library's StoredEvent → Envelope; unknown names raise UnknownEventType."""
        return Envelope(
            originator_id=stored_event.originator_id,  # type: ignore[arg-type]
            originator_version=stored_event.originator_version,
            event=self.registry.decode(stored_event.topic, stored_event.state),
        )
