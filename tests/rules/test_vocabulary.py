"""The stored names are stable: every event and command is tagged with its own class name."""

from __future__ import annotations

import msgspec
from tableside.disciplines.korona import COMMAND_TYPES, EVENT_TYPES, decode_command
from tableside.disciplines.korona.commands import RecordStroke, StrokeFacts


def _tag(kind: type) -> str:
    return msgspec.inspect.type_info(kind).tag


def test_event_tags_are_the_class_names_and_unique() -> None:
    tags = [_tag(t) for t in EVENT_TYPES]
    assert tags == [t.__name__ for t in EVENT_TYPES]
    assert len(set(tags)) == len(tags)


def test_command_tags_are_the_class_names() -> None:
    assert [_tag(t) for t in COMMAND_TYPES] == [t.__name__ for t in COMMAND_TYPES]


def test_a_json_command_decodes_to_its_struct() -> None:
    raw = b'{"type":"RecordStroke","player":"ann","facts":{"kind":"bank_side","own_pocketed":1}}'
    assert decode_command(raw) == RecordStroke(
        player="ann", facts=StrokeFacts(kind="bank_side", own_pocketed=1)
    )


def test_a_bad_json_command_is_rejected_by_the_decoder() -> None:
    try:
        decode_command(b'{"type":"RecordStroke","player":"ann","facts":{"kind":"sideways"}}')
    except msgspec.ValidationError as error:
        assert "kind" in str(error)
    else:
        raise AssertionError("expected a validation error")
