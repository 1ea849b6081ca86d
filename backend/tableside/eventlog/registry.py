"""Event types by stable name: the name stored with each event is its msgspec tag. A type with
an `upcast` (a function of the stored JSON value) is read through it: a field renamed since an
event was stored is read as today's (stored events are never rewritten)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec


class UnknownEventType(LookupError):
    """A stored or given event type is not registered; the message names it."""

    def __init__(self, name: str) -> None:
        super().__init__(f"unknown event type {name!r}: register it with the store's registry")
        self.name = name


class EventRegistry:
    """Maps stable type names to frozen, tagged msgspec Struct types and back."""

    def __init__(self, *types: type[msgspec.Struct]) -> None:
        self._types: dict[str, type[msgspec.Struct]] = {}
        self._names: dict[type[msgspec.Struct], str] = {}
        self._decoders: dict[str, Callable[[bytes], Any]] = {}
        self._encoder = msgspec.json.Encoder()
        self.register(*types)

    def register(self, *types: type[msgspec.Struct]) -> None:
        """Register event types under their tag; the same name for two types is an error."""
        for event_type in types:
            name = _tag_of(event_type)
            known = self._types.get(name)
            if known is not None and known is not event_type:
                raise ValueError(f"event type name {name!r} is taken by {known.__qualname__}")
            self._types[name] = event_type
            self._names[event_type] = name
            self._decoders[name] = _decoder(event_type)

    def name_of(self, event: msgspec.Struct) -> str:
        """The stable name of an event instance's type."""
        try:
            return self._names[type(event)]
        except KeyError:
            raise UnknownEventType(type(event).__qualname__) from None

    def encode(self, event: msgspec.Struct) -> tuple[str, bytes]:
        """Return (stable name, JSON payload bytes)."""
        return self.name_of(event), self._encoder.encode(event)

    def decode(self, name: str, payload: bytes) -> msgspec.Struct:
        """Rebuild an event from its stored name and payload."""
        try:
            decoder = self._decoders[name]
        except KeyError:
            raise UnknownEventType(name) from None
        return decoder(payload)

    def __contains__(self, name: object) -> bool:
        return name in self._types

    def names(self) -> list[str]:
        """All registered names, sorted."""
        return sorted(self._types)


def _decoder(event_type: type[msgspec.Struct]) -> Callable[[bytes], Any]:
    """The payload's decoder: straight to the type, or through its `upcast`."""
    upcast = getattr(event_type, "upcast", None)
    if upcast is None:
        return msgspec.json.Decoder(event_type).decode
    return lambda payload: msgspec.convert(upcast(msgspec.json.decode(payload)), event_type)


def _tag_of(event_type: type) -> str:
    if not (isinstance(event_type, type) and issubclass(event_type, msgspec.Struct)):
        raise TypeError(f"{event_type!r} is not a msgspec Struct type")
    config = event_type.__struct_config__
    if not config.frozen:
        raise TypeError(f"{event_type.__qualname__} must be declared frozen=True")
    if not isinstance(config.tag, str):
        raise TypeError(f'{event_type.__qualname__} needs a string tag, e.g. tag="Name"')
    return config.tag
