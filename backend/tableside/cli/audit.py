"""`tableside audit verify | export | checkpoint`: chains, signed checkpoints, offline records.

audit verify [--witness FILE|DIR ...] [--public-key K]  the whole store: every per-stream
    link, the store-wide chain, and every checkpoint (stored, the signer's log, and every
    witness): it must still be reached, name the stored global hash, and carry a good
    signature; the answer names the checks that ran (verdict.Verdict)
audit verify --stream ID                                one stream (sealed by the latest
    stored checkpoint covering it, if any)
audit verify --file F [--public-key K]                  an export, offline
audit export --stream ID [--out F]                      a stream's record, sealed
audit export --all FILE                                 the whole store, sealed, every
    checkpoint with it (what `tableside restore` builds a store from)
audit checkpoint [--print]                              sign the head if it moved
"""

from __future__ import annotations

import argparse
import sys
import uuid
from collections.abc import Sequence
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Subcommands `verify`, `export` and `checkpoint`."""
    actions = parser.add_subparsers(dest="action", required=True)
    verify = actions.add_parser("verify", help="recompute every chain (or one stream's)")
    source = verify.add_mutually_exclusive_group()
    source.add_argument("--stream", type=uuid.UUID, help="verify only this stream")
    source.add_argument("--file", type=Path, help="verify an exported JSON Lines file offline")
    verify.add_argument(
        "--checkpoint",
        type=Path,
        action="append",
        default=[],
        help="a published checkpoint (JSON from `audit checkpoint --print`) the store must reach",
    )
    verify.add_argument(
        "--witness",
        type=Path,
        action="append",
        default=[],
        help="a witness outside the database: a file of checkpoints (JSON or JSON Lines: the"
        " signer's log, `audit witness` output) or a folder of them; the store must reach each",
    )
    verify.add_argument(
        "--federation-key",
        help="the federation's public key (64 hex digits, `GET /api/federation/key`): every"
        " federation acknowledgement in a --witness must be signed by it",
    )
    verify.add_argument(
        "--receipt",
        type=Path,
        action="append",
        default=[],
        help="a match's signed receipt (its JSON, or the verify link of its QR code): the"
        " store must still hold exactly that match as receipted",
    )
    verify.add_argument(
        "--public-key",
        help="the trusted signing key: a file (PEM, hex, or a checkpoint's JSON) or 64 hex digits"
        " (default: the public half of the local key file, if there is one)",
    )
    _common(verify)
    export = actions.add_parser("export", help="write a stream's record as JSON Lines")
    what = export.add_mutually_exclusive_group(required=True)
    what.add_argument("--stream", type=uuid.UUID, help="the match's stream id")
    what.add_argument(
        "--all",
        type=Path,
        metavar="FILE",
        help="write every event of the store, both chains and every checkpoint, sealed, to FILE",
    )
    export.add_argument("--out", type=Path, help="output file (default: standard output)")
    _common(export)
    checkpoint = actions.add_parser("checkpoint", help="sign and store the store's head")
    checkpoint.add_argument(
        "--print", action="store_true", help="print the latest checkpoint as JSON"
    )
    _common(checkpoint)
    from tableside.cli import witness

    witness.add_arguments(actions)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", type=Path, help="embedded PostgreSQL data dir")
    parser.add_argument(
        "--key-file", type=Path, help="Ed25519 signing key (env TABLESIDE_KEY_FILE)"
    )


def run(args: argparse.Namespace) -> int:
    """Exit 0 if intact / written, 1 at the first problem (or nothing signed on a disputed
    record), 2 if it cannot run."""
    from tableside.db.runtime import StartupError
    from tableside.eventlog.checkpoints import CheckpointError, SigningRefused
    from tableside.eventlog.jsonl import ExportError
    from tableside.settings import Settings, SettingsError

    try:
        if args.action == "witness":
            from tableside.cli import witness

            return witness.run(args)
        settings = Settings.from_env().replace(data_dir=args.data_dir, key_file=args.key_file)
        if args.action == "verify" and args.file is not None:
            return _verify_file(args.file, _trusted_key(args, settings))
        if args.action == "verify":
            return _verify_database(args, settings)
        if args.action == "export" and args.all is not None:
            return _export_all(args.all, settings)
        if args.action == "export":
            return _export(args, settings)
        return _checkpoint(args, settings)
    except SigningRefused as exc:
        print(f"tableside: nothing signed, the record is disputed: {exc}", file=sys.stderr)
        return 1
    except (StartupError, SettingsError, CheckpointError, ExportError, OSError) as exc:
        print(f"tableside: {exc}", file=sys.stderr)
        return 2


def _verify_database(args: argparse.Namespace, settings) -> int:
    if args.receipt:
        return _verify_receipts(args, settings)
    if args.stream is not None:
        return _verify_stream(args, settings)
    import psycopg

    from tableside.eventlog.audit_source import records_from_database
    from tableside.eventlog.checkpoint_db import all_checkpoints, history_dispute
    from tableside.eventlog.verify import verify

    witnesses, acks = _witnesses(args)
    with _attached(settings) as db:
        trusted = _with_rotations(_trusted_key(args, settings), db.url)
        with psycopg.connect(db.url) as conn:
            stored = all_checkpoints(conn)
            history = history_dispute(conn, stored)
            notes = _record_notes(conn, trusted)
        logged, log_dispute = _signer_log(settings, stored, trusted)
        if logged is not None:
            witnesses.insert(0, (f"the signer's log {settings.checkpoint_log_path}", logged))
        marks = [*stored, *(cp for _, cps in witnesses for cp in cps)]
        marks += [ack for _, found in acks for ack in found]
        report = verify(records_from_database(db.url), watch={cp.position for cp in marks})
    verdict = _store_verdict(report, stored, witnesses, trusted, settings, acks, args)
    if log_dispute is not None and report.broken is None:  # the log's state first: it is
        verdict.problem = log_dispute.reason  # what every check against it rests on
    _vanished(verdict, stored, logged)
    _held_to_history(verdict, history)
    print(verdict.line(f"{report.events} events in {report.streams} streams on {db.label}"))
    for note in notes:
        print(note)
    return 0 if verdict.ok else 1


def _held_to_history(verdict, history) -> None:
    """The keys' history (schema/013), when nothing else failed: checkpoints deleted, or a
    key's newest signed head no longer yielded (#50)."""
    if verdict.ok and history is not None:
        verdict.problem = history.reason


def _record_notes(conn, trusted) -> list[str]:
    """What the record says of itself: every accepted dispute and key declared lost (#50)."""
    from tableside.eventlog.record_notes import notes

    return notes(conn, trusted)


def _signer_log(settings, stored: list, trusted: bytes | None = None):
    """(the log's checkpoints or None where there is no log here, why it is no evidence):
    a log is expected beside the signing key once the store holds checkpoints (#41)."""
    from tableside.eventlog import standing
    from tableside.eventlog.checkpoints import read_log

    path = settings.checkpoint_log_path
    if path is None:
        return None, None
    logged, reading = read_log(path, trusted)
    expected = settings.signing_key_path.is_file()
    found = standing.log_problem(path, reading, logged, stored, expected=expected)
    return (logged if reading.exists else None), found


def _vanished(verdict, stored: list, logged: list | None) -> None:
    """Stored checkpoints the log holds and the store does not, when nothing else failed."""
    from tableside.eventlog.standing import vanished

    found = vanished(stored, logged or []) if verdict.ok else None
    verdict.problem = found.reason if found else verdict.problem


def _verify_receipts(args: argparse.Namespace, settings) -> int:
    """Each receipt: its signature, the match's chain in the store, and the stored match
    still as receipted (the same event, chain hash, store-wide hash and time there)."""
    from tableside.eventlog import receipts
    from tableside.eventlog.audit_source import records_from_database
    from tableside.eventlog.verdict import Verdict
    from tableside.eventlog.verify import verify

    failed = 0
    with _attached(settings) as db:
        trusted = _with_rotations(_trusted_key(args, settings), db.url)
        for path in args.receipt:
            receipt = receipts.decode(path.read_bytes())
            verdict = Verdict(problem=receipts.problem(receipt, trusted))
            records = []
            if verdict.ok:
                records = list(records_from_database(db.url, uuid.UUID(receipt.match_id)))
                report = verify(records, dense_positions=False)
                verdict.problem = report.broken.describe() if report.broken else None
            if verdict.ok:
                verdict.problem = receipts.held_by(receipt, records)
            _receipt_checks(verdict, receipt, trusted)
            failed += not verdict.ok
            subject = f"match {receipt.match_id} as receipted on {db.label}"
            print(f"{path}: {verdict.line(subject)}")
    return 1 if failed else 0


def _receipt_checks(verdict, receipt, trusted) -> None:
    verdict.ran.append(
        f"the receipt's signature against key {trusted.hex()[:16]}…"
        if trusted is not None
        else "the receipt's signature against its own key only (give --public-key)"
    )
    if trusted is None:
        verdict.missing.append("signature unchecked")
    verdict.ran.append("the match's chain in the store")
    verdict.ran.append(
        f"version {receipt.version} at position {receipt.position}: chain hash,"
        " store-wide hash and time as receipted"
    )


def _witnesses(args: argparse.Namespace) -> tuple[list[tuple[str, list]], list[tuple[str, list]]]:
    """(name, checkpoints) of every witness given (--checkpoint and --witness), and (name,
    acknowledgements) of those holding the federation's (issue 49)."""
    from tableside.eventlog.federation_ack import read_witness

    read = [(f"witness {path}", read_witness(path)) for path in [*args.checkpoint, *args.witness]]
    marks = [(name, cps) for name, (cps, acks) in read if cps or not acks]
    return marks, [(name, acks) for name, (_, acks) in read if acks]


def _store_verdict(
    report, stored: list, witnesses: list, trusted, settings, acks: Sequence = (), args=None
):
    """Chains, stored checkpoints, witnesses, signatures: which ran, and the first problem."""
    from tableside.eventlog.verdict import Verdict, check_marks

    verdict = Verdict()
    if report.broken is not None:
        verdict.problem = report.broken.describe()
        return verdict
    verdict.ran.append("per-stream and store-wide chains")
    verdict.problem = check_marks(report, stored, trusted, name="stored checkpoint") or next(
        (p for name, cps in witnesses if (p := check_marks(report, cps, trusted, name=name))),
        None,
    )
    verdict.ran.append(f"{len(stored)} checkpoints reached (stored)")
    verdict.ran.extend(f"{name}: {len(cps)} checkpoints reached" for name, cps in witnesses)
    if acks:
        _federation(verdict, report, acks, getattr(args, "federation_key", None))
    _qualify(verdict, report, stored, [*witnesses, *acks], trusted, settings)
    return verdict


def _federation(verdict, report, acks: Sequence, pinned: str | None) -> None:
    """The federation's acknowledgements (issue 49): the store must still reach each with
    the head it acknowledged, each signed by the federation (`--federation-key`, else the
    key each names: then it proves only that the file is self-consistent)."""
    from tableside.eventlog import federation_ack
    from tableside.eventlog.verdict import held_to

    key = bytes.fromhex(pinned) if pinned else None
    for name, found in acks:
        for ack in found:
            wrong = held_to(ack, report) or federation_ack.problem(ack, key)
            if wrong and verdict.problem is None:
                verdict.problem = f"{name}: the federation's acknowledgement: {wrong}"
        verdict.ran.append(f"{name}: {len(found)} federation acknowledgements reached")
    if key is None:
        verdict.missing.append("federation key unchecked")


def _qualify(verdict, report, stored: list, witnesses: list, trusted, settings) -> None:
    """Say what could not be checked: no witness outside the database, no trusted key."""
    if not witnesses and report.events:
        log = settings.checkpoint_log_path
        where = "is off" if log is None else f"is not at {log}"
        verdict.missing.append("unwitnessed")
        verdict.ran.append(f"no witness outside the database (the signer's log {where})")
    if not stored and not witnesses and report.events:
        verdict.missing.append("unsigned")
    if trusted is not None:
        verdict.ran.append(f"signatures against key {trusted.hex()[:16]}…")
    elif stored or witnesses:
        verdict.missing.append("signatures unchecked")
        verdict.ran.append("signatures against their own keys only (give --public-key)")


def _verify_stream(args: argparse.Namespace, settings) -> int:
    """One stream, sealed by the newest signed checkpoint covering it, stored or in the
    signer's log (#41), whose log must be whole too."""
    import psycopg

    from tableside.eventlog.audit_source import records_from_database
    from tableside.eventlog.checkpoint_db import all_checkpoints, history_dispute, seal_with
    from tableside.eventlog.jsonl import export_lines, verify_sealed
    from tableside.eventlog.standing import newest_covering
    from tableside.eventlog.verdict import record_verdict

    with _attached(settings) as db:
        trusted = _with_rotations(_trusted_key(args, settings), db.url)
        records = list(records_from_database(db.url, args.stream))
        with psycopg.connect(db.url) as conn:
            stored = all_checkpoints(conn)
            history = history_dispute(conn, stored)
            logged, log_dispute = _signer_log(settings, stored, trusted)
            end = records[-1].position if records else 0
            sealed = seal_with(conn, newest_covering([*stored, *(logged or [])], end), records)
    trusted = trusted if sealed else None
    report = verify_sealed(export_lines(records, args.stream, sealed), trusted)
    verdict = record_verdict(report, trusted)
    if log_dispute is not None:
        verdict.problem = log_dispute.reason
    _vanished(verdict, stored, logged)
    _held_to_history(verdict, history)
    print(verdict.line(f"{report.events} events of stream {args.stream} on {db.label}"))
    return 0 if verdict.ok else 1


def _export(args: argparse.Namespace, settings) -> int:
    import psycopg

    from tableside.eventlog.audit_source import records_from_database
    from tableside.eventlog.checkpoint_db import seal
    from tableside.eventlog.jsonl import export_lines
    from tableside.eventlog.standing_db import signer_for

    # Only the server's own key may sign: a key made here would sign checkpoints that
    # `audit verify` with the server's key then refuses.
    with _attached(settings) as db:
        key = signer_for(db.url, settings.signing_key_path, settings.checkpoint_log_path)
        records = list(records_from_database(db.url, args.stream))
        if not records:
            print(f"tableside: stream {args.stream} has no events", file=sys.stderr)
            return 2
        with psycopg.connect(db.url, autocommit=True) as conn:
            sealed = seal(conn, key, records)
    if sealed is None:
        print(
            "tableside: no checkpoint covers this record yet and there is no key at"
            f" {settings.signing_key_path}:"
            " exported without a seal (sign one where the server's key is:"
            " `tableside audit checkpoint`)",
            file=sys.stderr,
        )
    lines = export_lines(records, args.stream, sealed)
    out = args.out.open("wb") if args.out else sys.stdout.buffer
    with out:
        out.writelines(lines)
    return 0


def _export_all(path: Path, settings) -> int:
    from tableside.eventlog.standing_db import signer_for
    from tableside.eventlog.whole_store import export_store, unsealed_after

    with _attached(settings) as db:
        key = signer_for(db.url, settings.signing_key_path, settings.checkpoint_log_path)
        lines = export_store(db.url, key)
        header = _header(lines[0])
        later = unsealed_after(db.url, header.checkpoint.position)
    with path.open("wb") as out:
        out.writelines(lines)
    print(
        f"wrote {header.events} events and {len(header.checkpoints)} checkpoints to {path},"
        f" sealed at position {header.checkpoint.position}"
        f" (head {header.checkpoint.short_hash})"
    )
    if later:
        print(
            f"tableside: {later} events were appended after the seal and are not in the file"
            + ("" if key else f" (no key at {settings.signing_key_path} to sign them)"),
            file=sys.stderr,
        )
    return 0


def _header(line: bytes):
    """The header of an export line list."""
    import msgspec

    from tableside.eventlog.jsonl import Header

    return msgspec.json.decode(line, type=Header)


def _checkpoint(args: argparse.Namespace, settings) -> int:
    import psycopg

    from tableside.eventlog import checkpoints
    from tableside.eventlog.checkpoint_db import latest_checkpoint, take
    from tableside.eventlog.standing_db import signer_for

    path, log = settings.signing_key_path, settings.checkpoint_log_path
    with _attached(settings) as db:
        key = signer_for(db.url, path, log) or checkpoints.load_signer(path, log)  # made here
        with psycopg.connect(db.url, autocommit=True) as conn:
            made = take(conn, key)
            latest = made or latest_checkpoint(conn)
    if latest is None:
        print("tableside: the store is empty; nothing to sign", file=sys.stderr)
        return 2
    if args.print:
        sys.stdout.buffer.write(checkpoints.encode(latest))
    else:
        what = "signed" if made else "unchanged since"
        print(
            f"checkpoint {what}: position {latest.position}, head {latest.short_hash},"
            f" {latest.time.isoformat()}, key {latest.public_key}"
        )
    return 0


def _verify_file(path: Path, trusted: bytes | None) -> int:
    from tableside.eventlog.jsonl import verify_sealed
    from tableside.eventlog.verdict import record_verdict

    with path.open("rb") as lines:
        report = verify_sealed(lines, trusted)
    verdict = record_verdict(report, trusted)
    print(verdict.line(f"{report.events} events in {path}"))
    return 0 if verdict.ok else 1


def _trusted_key(args: argparse.Namespace, settings) -> bytes | None:
    from tableside.eventlog.checkpoints import public_hex, read_public_key

    if args.public_key:
        return read_public_key(args.public_key)
    if args.file is None and settings.signing_key_path.is_file():
        from tableside.eventlog.checkpoints import load_or_create_key

        return bytes.fromhex(public_hex(load_or_create_key(settings.signing_key_path)))
    return None


def _with_rotations(trusted: bytes | None, url: str):
    """The trusted key and the keys it replaced, as the store's rotations say (#41)."""
    from tableside.eventlog.key_identity import trusted_in

    return trusted_in(url, trusted) if trusted is not None else None


def _attached(settings):
    from tableside.db.runtime import database

    return database(settings, attach=True, existing=True)
