"""Verify before keeping (issue 49, point 3; decision 0166): each rule of `federation/judge.py`
on records chained exactly as a venue's store chains them (`eventlog/chain.py`), checkpoints
signed with a venue's key. Pure: no database, no server."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import msgspec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from tableside.eventlog import checkpoints, rotation
from tableside.eventlog.chain import GENESIS, linked
from tableside.eventlog.checkpoints import public_hex
from tableside.eventlog.records import RawRecord
from tableside.federation.judge import Held, Keep, Offer, Refusal, judge

KEY = Ed25519PrivateKey.generate()
VENUE_KEY = bytes.fromhex(public_hex(KEY))
T0 = datetime(2026, 11, 28, 10, 0, tzinfo=UTC)


def store(payloads: list[bytes], streams: int = 2, topic: str = "test.PuckPocketed"):
    """Records of `streams` streams taking turns, both chains linked as the venue's trigger."""
    ids = [uuid.UUID(int=i + 1) for i in range(streams)]
    versions = dict.fromkeys(ids, 0)
    drafts = []
    for position, payload in enumerate(payloads, 1):
        stream = ids[(position - 1) % streams]
        versions[stream] += 1
        at, command = T0 + timedelta(seconds=position), uuid.UUID(int=1000 + position)
        drafts.append(
            RawRecord(
                stream, versions[stream], position, topic, payload, at, command, "{}", b"", b""
            )
        )
    return linked(drafts)


def held_of(kept: list[RawRecord], signed: int = 0, keys=frozenset({VENUE_KEY})) -> Held:
    tips = {}
    for r in kept:
        tips[r.stream_id] = (r.version, r.hash)
    return Held(
        kept[-1].position if kept else 0,
        {r.position: r.global_hash for r in kept},
        tips,
        signed,
        keys,
    )


def offer(records: list[RawRecord], after: int, before: list[RawRecord], **more) -> Offer:
    anchor = before[after - 1].global_hash if after else GENESIS
    head = more.pop("head", records[-1].position if records else after)
    marks = more.pop("checkpoints", [])
    signed = more.pop("signed", max((c.position for c in marks), default=0))
    return Offer(after, anchor, head, records, marks, signed)


def sign_at(record: RawRecord, key: Ed25519PrivateKey = KEY):
    return checkpoints.sign(key, record.position, record.global_hash)


PAYLOADS = [b'{"player":"Mari","puck":%d}' % i for i in range(1, 9)]


def test_a_first_push_is_kept_whole_with_its_checkpoint() -> None:
    made = store(PAYLOADS)
    found = judge(offer(made, 0, made, checkpoints=[sign_at(made[5])]), held_of([]))
    assert isinstance(found, Keep)
    assert found.records == made and len(found.checkpoints) == 1
    assert found.head == (8, made[-1].global_hash)


def test_a_push_resumes_after_the_held_head_and_a_replay_keeps_nothing_new() -> None:
    made = store(PAYLOADS)
    held = held_of(made[:5])
    resumed = judge(offer(made[5:], 5, made), held)
    assert isinstance(resumed, Keep) and resumed.records == made[5:]
    replayed = judge(offer(made[2:5], 2, made), held)  # idempotent: the same again
    assert isinstance(replayed, Keep) and replayed.records == []


def test_a_push_from_beyond_the_held_head_says_where_to_resume() -> None:
    made = store(PAYLOADS)
    found = judge(offer(made[6:], 6, made), held_of(made[:3]))
    assert isinstance(found, Refusal) and (found.code, found.position) == ("federation_gap", 3)
    assert not found.fork


def test_another_head_at_a_held_position_is_a_fork() -> None:
    made = store(PAYLOADS)
    forged = store([*PAYLOADS[:2], b'{"player":"Jaan","puck":3}', *PAYLOADS[3:]])
    held = held_of(made[:6])
    at_anchor = judge(offer(forged[6:], 6, forged), held)  # the anchor differs
    assert isinstance(at_anchor, Refusal) and at_anchor.code == "federation_fork_head"
    assert at_anchor.held_hash == made[5].global_hash
    assert at_anchor.offered_hash == forged[5].global_hash and at_anchor.fork
    from_start = judge(offer(forged, 0, forged), held)  # a venue that lost its uplink state
    assert isinstance(from_start, Refusal) and from_start.code == "federation_fork_head"
    assert from_start.position == 3


def test_a_venue_whose_record_went_back_is_a_fork() -> None:
    made = store(PAYLOADS)
    found = judge(offer([], 4, made, head=4), held_of(made[:6]))
    assert isinstance(found, Refusal) and found.code == "federation_fork_went_back"
    # as the uplink sends it: from the acknowledged position, which its store no longer has
    cut = Offer(6, GENESIS, 4, [], [], 0)
    found = judge(cut, held_of(made[:6]))
    assert isinstance(found, Refusal) and found.code == "federation_fork_went_back"
    assert found.held_hash == made[5].global_hash and found.fork


def test_a_venue_that_lost_signed_heads_is_a_fork() -> None:
    made = store(PAYLOADS)
    found = judge(offer(made[6:], 6, made, signed=0), held_of(made[:6], signed=5))
    assert isinstance(found, Refusal) and found.code == "federation_fork_lost_heads"


def test_a_broken_link_is_refused_and_nothing_kept() -> None:
    made = store(PAYLOADS)
    edited = [*made[:4], msgspec.structs.replace(made[4], payload=b'{"player":"X","puck":5}')]
    found = judge(offer([*edited, *made[5:]], 0, made), held_of([]))
    assert isinstance(found, Refusal) and found.code == "federation_broken_chain"
    assert found.status == 422 and not found.fork


def test_a_checkpoint_by_a_stranger_or_naming_another_head_is_refused() -> None:
    made = store(PAYLOADS)
    stranger = sign_at(made[3], Ed25519PrivateKey.generate())
    found = judge(offer(made, 0, made, checkpoints=[stranger]), held_of([]))
    assert isinstance(found, Refusal) and found.code == "federation_bad_checkpoint"
    wrong = checkpoints.sign(KEY, 4, made[2].global_hash)
    found = judge(offer(made, 0, made, checkpoints=[wrong]), held_of([]))
    assert isinstance(found, Refusal) and found.code == "federation_bad_checkpoint"


def test_a_signed_head_at_a_held_position_other_than_held_is_a_fork() -> None:
    made = store(PAYLOADS)
    other = checkpoints.sign(KEY, 4, made[2].global_hash)
    found = judge(offer(made[6:], 6, made, checkpoints=[other]), held_of(made[:6]))
    assert isinstance(found, Refusal) and found.code == "federation_fork_head"


def test_a_key_rotation_signed_by_the_venues_key_is_followed() -> None:
    fresh = Ed25519PrivateKey.generate()
    turned = msgspec.json.encode(rotation.rotate(KEY, fresh))
    made = store([*PAYLOADS[:3], turned, *PAYLOADS[3:5]], topic="test.PuckPocketed")
    made[3] = _retyped(made, 3)
    made = _relinked(made)
    found = judge(offer(made, 0, made, checkpoints=[sign_at(made[5], fresh)]), held_of([]))
    assert isinstance(found, Keep), found
    assert found.keys == [bytes.fromhex(public_hex(fresh))] and len(found.checkpoints) == 1


def test_a_key_rotation_not_signed_by_a_venue_key_is_refused() -> None:
    stranger, fresh = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    turned = msgspec.json.encode(rotation.rotate(stranger, fresh))
    made = store([*PAYLOADS[:3], turned])
    made[3] = _retyped(made, 3)
    made = _relinked(made)
    found = judge(offer(made, 0, made), held_of([]))
    assert isinstance(found, Refusal) and found.code == "federation_bad_rotation"


def _retyped(made: list[RawRecord], i: int) -> RawRecord:
    return msgspec.structs.replace(made[i], type_name="KeyRotated")


def _relinked(made: list[RawRecord]) -> list[RawRecord]:
    """Both chains again over the records as they are now."""
    return linked(made)
