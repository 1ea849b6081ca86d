"""Verify before keeping (issue 49, point 3): what a push offers against what the federation
holds of that venue. No I/O: `keeping.py` reads what is held, asks here, writes the answer.

In this order, the first that fails decides (decision 0166; §5's record gone back is checked
second, so a venue whose record went back is told so, not only that its anchor differs; its
lost signed heads after §4, so a rewrite is named by the head it changed):
1. resume: the offer starts at or before the held head (`federation_gap` otherwise);
2. the anchor (the venue's store-wide hash at `after`) is the held one there: another head
   at a held position is a fork (`federation_fork_head`);
3. every link: positions dense from `after`, each event's hash over its own fields, each
   store-wide hash chained to the one before (`verify_segment`) (`federation_broken_chain`,
   422: not kept, not an alarm: nothing was held there);
4. every held position offered again: the same store-wide hash (`federation_fork_head`);
   then each new event the next version of its stream after the kept tip, with that tip's
   hash as `prev_hash` (`federation_broken_chain`);
5. the venue's head not behind the held head (`federation_fork_went_back`), and its newest
   signed head not behind the newest kept (`federation_fork_lost_heads`);
6. every checkpoint signed by a key of the venue's (the enrolled key, then each rotation the
   record carries, signed by the key before: `eventlog/rotation.py`) and naming the hash
   the chain has at its position (`federation_bad_checkpoint`, 422; at a held position with
   another head: `federation_fork_head`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from uuid import UUID

import msgspec

from tableside.eventlog import rotation
from tableside.eventlog.chain import GENESIS
from tableside.eventlog.checkpoints import Checkpoint, Trusted, problem
from tableside.eventlog.records import RawRecord
from tableside.eventlog.verify import verify_segment

ROTATION_TYPE = "KeyRotated"


@dataclass(frozen=True)
class Held:
    """What the federation keeps of one venue, as far as this offer needs it."""

    position: int  # the newest kept event's position (0: nothing kept)
    hashes: dict[int, bytes]  # kept store-wide hash at the positions the offer touches
    tips: dict[UUID, tuple[int, bytes]]  # kept (version, hash) of the offer's new streams
    signed_position: int  # the newest kept checkpoint's position (0: none)
    keys: frozenset[bytes]  # the venue's keys (enrolled, rotations followed)


@dataclass(frozen=True)
class Offer:
    """One push: the venue's events after `after`, its head, its checkpoints."""

    after: int
    anchor: bytes  # the venue's store-wide hash at `after` (32 zero bytes at 0)
    head: int  # the venue's head position as it says
    records: list[RawRecord]
    checkpoints: list[Checkpoint]
    signed_position: int  # the venue's newest stored checkpoint (0: none)


@dataclass(frozen=True)
class Refusal:
    """Why an offer is not kept: a code (its words in codes.<lang>.json), its HTTP status,
    the rule it enforces, and for a fork what was held and what was offered there."""

    code: str
    status: int
    detail: str
    position: int
    held_hash: bytes | None = None
    offered_hash: bytes | None = None

    @property
    def fork(self) -> bool:
        """A fork is kept as an alarm; any other refusal is only answered."""
        return self.code.startswith("federation_fork")


@dataclass(frozen=True)
class Keep:
    """What to keep: the new events, the new checkpoints, keys the record rotated to."""

    records: list[RawRecord]
    checkpoints: list[Checkpoint]
    keys: list[bytes] = field(default_factory=list)
    head: tuple[int, bytes] = (0, GENESIS)


def touched(offer: Offer, held_position: int) -> set[int]:
    """The held positions whose kept hash the judgement needs."""
    positions = {offer.after} | {r.position for r in offer.records if r.position <= held_position}
    positions |= {c.position for c in offer.checkpoints if c.position <= held_position}
    return {p for p in positions if p >= 1}


def judge(offer: Offer, held: Held) -> Keep | Refusal:
    """Keep, or the first refusal (the module's list)."""
    refused = _gap(offer, held) or _went_back(offer, held) or _anchor(offer, held)
    refused = refused or _links(offer) or _overlap(offer, held) or _lost_heads(offer, held)
    refused = refused or _follows(offer, held)
    if refused is not None:
        return refused
    new = [r for r in offer.records if r.position > held.position]
    keys, refused = _rotations(new, held.keys)
    if refused is not None:
        return refused
    head = _head(offer, held)
    marks, refused = _checkpoints(offer, held, keys, head)
    return refused or Keep(new, marks, sorted(keys - held.keys), head)


def _gap(offer: Offer, held: Held) -> Refusal | None:
    """§1: start within what is held."""
    if offer.after > held.position:
        return Refusal(
            "federation_gap",
            409,
            f"the federation holds this venue up to position {held.position}; send from there,"
            f" not from {offer.after}",
            held.position,
        )
    return None


def _anchor(offer: Offer, held: Held) -> Refusal | None:
    """§2: from the same head as held there."""
    kept = held.hashes.get(offer.after, GENESIS) if offer.after else GENESIS
    if offer.anchor != kept:
        return _fork_at(offer.after, kept, offer.anchor)
    return None


def _fork_at(position: int, held: bytes, offered: bytes) -> Refusal:
    return Refusal(
        "federation_fork_head",
        409,
        f"the venue shows another head at position {position}, which the federation"
        f" witnessed as {held.hex()[:16]}…: the new branch is refused, the held record kept",
        position,
        held,
        offered,
    )


def _links(offer: Offer) -> Refusal | None:
    """§3: every link of the offer, from its anchor."""
    broken = verify_segment(offer.records, offer.after, offer.anchor)
    if broken is None:
        return None
    return Refusal("federation_broken_chain", 422, broken.describe(), broken.position)


def _follows(offer: Offer, held: Held) -> Refusal | None:
    """§3: each new event the next of its stream after the kept tip."""
    tips = dict(held.tips)
    for record in offer.records:
        if record.position <= held.position:
            continue
        version, tip = tips.get(record.stream_id, (0, GENESIS))
        if record.version != version + 1 or record.prev_hash != tip:
            return Refusal(
                "federation_broken_chain",
                422,
                f"stream {record.stream_id} version {record.version} (position"
                f" {record.position}) does not follow version {version} of its stream",
                record.position,
            )
        tips[record.stream_id] = (record.version, record.hash)
    return None


def _overlap(offer: Offer, held: Held) -> Refusal | None:
    """§4: a held position offered again must carry the held head."""
    for record in offer.records:
        if record.position > held.position:
            break
        kept = held.hashes.get(record.position)
        if kept is not None and kept != record.global_hash:
            return _fork_at(record.position, kept, record.global_hash)
    return None


def _went_back(offer: Offer, held: Held) -> Refusal | None:
    """§5: no witnessed event may vanish from the venue."""
    if offer.head < held.position:
        return Refusal(
            "federation_fork_went_back",
            409,
            f"the venue's record ends at position {offer.head}, but the federation witnessed"
            f" it up to position {held.position}: events were removed",
            held.position,
            held.hashes.get(held.position),
        )
    return None


def _lost_heads(offer: Offer, held: Held) -> Refusal | None:
    """§5: no signed head the federation keeps may vanish from the venue."""
    if offer.signed_position < held.signed_position:
        return Refusal(
            "federation_fork_lost_heads",
            409,
            f"the venue's newest signed head is at position {offer.signed_position}, but the"
            f" federation keeps one signed at position {held.signed_position}: signed heads"
            " were lost",
            held.signed_position,
        )
    return None


def _rotations(new: list[RawRecord], keys: frozenset[bytes]) -> tuple[frozenset, Refusal | None]:
    """The keys the record rotated to (#41: each rotation signed by the key it retires,
    which must already be the venue's)."""
    held = set(keys)
    for record in new:
        if record.type_name != ROTATION_TYPE:
            continue
        try:
            rotated = msgspec.json.decode(record.payload, type=rotation.KeyRotated)
            old, fresh = bytes.fromhex(rotated.old_key), bytes.fromhex(rotated.new_key)
        except (msgspec.DecodeError, ValueError):
            rotated, old, fresh = None, b"", b""
        if rotated is None or old not in held or not rotation.holds(rotated):
            return frozenset(held), Refusal(
                "federation_bad_rotation",
                422,
                f"the key rotation at position {record.position} is not signed by a key of"
                " this venue's",
                record.position,
            )
        held.add(fresh)
    return frozenset(held), None


def _head(offer: Offer, held: Held) -> tuple[int, bytes]:
    if offer.records and offer.records[-1].position >= held.position:
        return offer.records[-1].position, offer.records[-1].global_hash
    return held.position, held.hashes.get(held.position, GENESIS)


def _checkpoints(
    offer: Offer, held: Held, keys: frozenset[bytes], head: tuple[int, bytes]
) -> tuple[list[Checkpoint], Refusal | None]:
    """§6: each checkpoint by a venue key, naming the chain's hash at its position."""
    chain = {**held.hashes, **{r.position: r.global_hash for r in offer.records}}
    kept = []
    for checkpoint in offer.checkpoints:
        if checkpoint.position > head[0]:
            continue  # signed after this batch's events: it comes again with them
        trusted = Trusted(next(iter(keys)), frozenset(keys)) if keys else None
        wrong = problem(checkpoint, trusted) if trusted is not None else "no key enrolled"
        if wrong is not None:
            return [], Refusal("federation_bad_checkpoint", 422, wrong, checkpoint.position)
        there = chain.get(checkpoint.position)
        named = bytes.fromhex(checkpoint.head_hash)
        if there is not None and there != named:
            if checkpoint.position <= held.position:
                return [], _fork_at(checkpoint.position, there, named)
            return [], Refusal(
                "federation_bad_checkpoint",
                422,
                f"the checkpoint at position {checkpoint.position} names a head the pushed"
                " chain does not have there",
                checkpoint.position,
            )
        if there is not None:
            kept.append(checkpoint)
    return kept, None
