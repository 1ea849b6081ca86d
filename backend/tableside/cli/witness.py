"""`tableside audit witness --url URL --out DIR`: keep a running server's signed checkpoints
on another machine, as a Certificate Transparency monitor keeps a log's heads (#29).

Every `--every` minutes, `--times` times (a bounded loop), it reads `URL/api/checkpoints/latest`,
checks the signature (against `--public-key` when given, else the key the checkpoint names),
and keeps each new checkpoint as one JSON file in DIR. A server that goes back (a position
below one kept, or another head at a kept position) is reported and the run fails: the
owner rewrote the store. `tableside audit verify --witness DIR` later holds the store to them.
"""

from __future__ import annotations

import argparse
import sys
import time
import urllib.request
from pathlib import Path

_ROUTE = "/api/checkpoints/latest"
_TIMEOUT = 10  # seconds per request


def add_arguments(actions) -> None:
    """The `witness` subcommand of `tableside audit`."""
    witness = actions.add_parser("witness", help="mirror a server's signed checkpoints")
    witness.add_argument("--url", required=True, help="the server, e.g. http://hall:8000")
    witness.add_argument("--out", type=Path, required=True, help="folder to keep them in")
    witness.add_argument("--every", type=float, default=5.0, help="minutes between reads")
    witness.add_argument("--times", type=int, default=1, help="reads before it stops (≥ 1)")
    witness.add_argument("--public-key", help="the trusted signing key (file or 64 hex digits)")


def run(args: argparse.Namespace) -> int:
    """Exit 0 when every read was kept or already known, 1 when the server went back or
    served a badly signed checkpoint, 2 when it could not run."""
    from tableside.eventlog.checkpoints import read_public_key

    if not args.url.startswith(("http://", "https://")):
        print(f"tableside: --url must be an http(s) URL, not {args.url!r}", file=sys.stderr)
        return 2
    trusted = read_public_key(args.public_key) if args.public_key else None
    args.out.mkdir(parents=True, exist_ok=True)
    for n in range(max(args.times, 1)):
        if n:
            time.sleep(args.every * 60)
        problem = _read_once(args.url.rstrip("/") + _ROUTE, args.out, trusted)
        if problem:
            print(f"tableside: {args.url}: {problem}", file=sys.stderr)
            return 1
    return 0


def _read_once(url: str, out: Path, trusted: bytes | None) -> str | None:
    from tableside.eventlog import checkpoints

    with urllib.request.urlopen(url, timeout=_TIMEOUT) as answer:
        if answer.status == 204:  # a new store: nothing signed yet, nothing to hold it to
            print(f"no checkpoint signed yet at {url}")
            return None
        seen = checkpoints.read_published(answer.read())
    problem = checkpoints.problem(seen, trusted)
    if problem:
        return problem
    kept = checkpoints.read_witness(out) if any(out.iterdir()) else []
    for earlier in kept:
        if earlier.position > seen.position:
            return f"serves position {seen.position}, but signed position {earlier.position} before"
        if earlier.position == seen.position and earlier.head_hash != seen.head_hash:
            return f"serves another head at position {seen.position} than it signed before"
    if seen not in kept:
        path = out / f"checkpoint-{seen.position:012d}-{seen.signature[:8]}.json"
        path.write_bytes(checkpoints.encode(seen))
        print(f"kept checkpoint at position {seen.position} ({seen.short_hash}) in {path}")
    return None
