"""Signed match receipts: what a game's or a match's end left in the store, Ed25519 (#29).

A receipt names a match, its result in words, the match's last event there (version,
global position, the stream's chain hash) and the store-wide chain's hash at that position,
and the time the ending event was stored; the checkpoint key signs it (domain-separated from
checkpoints), so the federation's public key alone verifies it: on a phone, offline
(`pwa/js/receipt-check.js`), or against the store (`tableside audit verify --receipt`).

Every field comes from the store, the time too, and Ed25519 signs deterministically: the
receipt of an ending is the same bytes whenever it is asked for. Signed bytes (UTF-8):

    tableside-receipt/1\\n match <id>\\n end <game|match>\\n result <text>\\n
    version <n>\\n position <n>\\n match_head <hex>\\n global_head <hex>\\n time <iso>

(one `name value` per line, in that order, no trailing newline). A receipt travels as its
JSON, or base64url of that JSON in a verify page's fragment (`/verify#r=…`).
"""

from __future__ import annotations

import base64
from datetime import UTC, datetime

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from tableside.eventlog.checkpoints import CheckpointError, public_hex, trusts
from tableside.eventlog.records import RawRecord

FORMAT = "tableside-receipt/1"
ENDS = ("game", "match")


class Receipt(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One signed receipt, as served, printed in a QR code and read back (hex for bytes)."""

    match_id: str
    end: str  # "game" or "match"
    result: str
    version: int  # the match's last event at the ending
    position: int  # its global position
    match_head: str  # the match's chain hash there
    global_head: str  # the store-wide chain's hash there
    time: str  # when the ending was stored, ISO 8601 (as signed)
    public_key: str
    signature: str
    format: str = FORMAT


class Ending(msgspec.Struct, frozen=True):
    """An ending found in a match's stream: what a receipt is issued for."""

    end: str
    result: str
    record: RawRecord


def signed_bytes(receipt: Receipt) -> bytes:
    """The exact bytes a receipt's signature covers (the page rebuilds the same)."""
    lines = [
        FORMAT,
        f"match {receipt.match_id}",
        f"end {receipt.end}",
        f"result {receipt.result}",
        f"version {receipt.version}",
        f"position {receipt.position}",
        f"match_head {receipt.match_head}",
        f"global_head {receipt.global_head}",
        f"time {receipt.time}",
    ]
    return "\n".join(lines).encode()


def issue(key: Ed25519PrivateKey, match_id: str, ending: Ending) -> Receipt:
    """The receipt of one ending, signed (the same bytes every time: see the module doc)."""
    record = ending.record
    unsigned = Receipt(
        match_id=match_id,
        end=ending.end,
        result=" ".join(ending.result.split()),  # one line: the signed form is line-based
        version=record.version,
        position=record.position,
        match_head=record.hash.hex(),
        global_head=record.global_hash.hex(),
        time=_iso(record.recorded_at),
        public_key=public_hex(key),
        signature="",
    )
    signature = key.sign(signed_bytes(unsigned)).hex()
    return msgspec.structs.replace(unsigned, signature=signature)


def _iso(time: datetime) -> str:
    return time.astimezone(UTC).isoformat(timespec="microseconds")


def problem(receipt: Receipt, trusted_key: bytes | None) -> str | None:
    """Why a receipt cannot be trusted (format, key, signature), or None."""
    if receipt.format != FORMAT:
        return f"receipt format {receipt.format!r} is not {FORMAT!r}"
    if receipt.end not in ENDS:
        return f"receipt end {receipt.end!r} is neither a game's nor a match's"
    try:
        key, signature = bytes.fromhex(receipt.public_key), bytes.fromhex(receipt.signature)
    except ValueError:
        return "the receipt's key or signature is not hex"
    if trusted_key is not None and not trusts(trusted_key, key):
        return (
            f"the receipt is signed by key {key.hex()[:16]}…,"
            f" not the trusted key {trusted_key.hex()[:16]}…"
        )
    try:
        Ed25519PublicKey.from_public_bytes(key).verify(signature, signed_bytes(receipt))
    except (InvalidSignature, ValueError):
        return "the receipt's signature does not verify: it is not as the server signed it"
    return None


def encode(receipt: Receipt) -> bytes:
    """The receipt's JSON, one line."""
    return msgspec.json.encode(receipt) + b"\n"


def fragment(receipt: Receipt) -> str:
    """base64url (unpadded) of the receipt's JSON: what follows `#r=` on the verify page."""
    return base64.urlsafe_b64encode(msgspec.json.encode(receipt)).rstrip(b"=").decode()


def decode(raw: bytes) -> Receipt:
    """A receipt from its JSON, a verify link or its fragment; CheckpointError if not one."""
    text = raw.strip()
    if not text.startswith(b"{"):
        text = text.rsplit(b"r=", 1)[-1]
        try:
            text = base64.urlsafe_b64decode(text + b"=" * (-len(text) % 4))
        except ValueError:
            raise CheckpointError("not a receipt: neither JSON nor a verify link") from None
    try:
        return msgspec.json.decode(text, type=Receipt)
    except msgspec.DecodeError as exc:
        raise CheckpointError(f"not a receipt: {exc}") from None


def held_by(receipt: Receipt, records: list[RawRecord]) -> str | None:
    """Does the stored match (its records, oldest first, chain already verified) still hold
    exactly what was receipted? The first difference in words, or None."""
    at = next((r for r in records if r.version == receipt.version), None)
    if at is None:
        return (
            f"match {receipt.match_id} has no version {receipt.version} any more"
            f" (it ends at {records[-1].version if records else 0}): events were removed"
        )
    differences = [
        ("global position", str(at.position), str(receipt.position)),
        ("chain hash", at.hash.hex(), receipt.match_head),
        ("store-wide chain hash", at.global_hash.hex(), receipt.global_head),
        ("stored time", _iso(at.recorded_at), receipt.time),
    ]
    for name, found, receipted in differences:
        if found != receipted:
            return (
                f"match {receipt.match_id} version {receipt.version}: the {name} is {found},"
                f" the receipt says {receipted}: the record is not as receipted"
            )
    return None
