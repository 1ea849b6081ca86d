"""`tableside simulate`: seeded random matches through the engine, optionally as JSON lines.

The one module in rules/ that writes a file: it opens --jsonl with the builtin `open`.
"""

from __future__ import annotations

import argparse
import contextlib
import random
from collections import Counter

import msgspec

from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona.simulate import play_match


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of the subcommand."""
    parser.add_argument("--games", type=int, default=10, help="matches to play")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ruleset", choices=("EKML", "NOVUS08", "LV"), default="EKML")
    parser.add_argument("--pairs", action="store_true", help="pairs instead of singles")
    parser.add_argument("--match-games", type=int, default=1, help="games per match")
    parser.add_argument("--jsonl", help="write every event as a JSON line to this file")


def _line(encoder: msgspec.json.Encoder, match: int, version: int, event: ev.Event) -> bytes:
    return encoder.encode({"match": match, "version": version, "event": event}) + b"\n"


def run(args: argparse.Namespace) -> int:
    """Play the matches; print a summary; return 0."""
    rng = random.Random(args.seed)
    counts: Counter[str] = Counter()
    encoder = msgspec.json.Encoder()
    out = open(args.jsonl, "wb") if args.jsonl else None  # noqa: SIM115 - closed below
    try:
        for match in range(args.games):
            events = play_match(rng, args.ruleset, args.pairs, args.match_games)
            for version, event in enumerate(events, start=1):
                counts[type(event).__name__] += 1
                if out is not None:
                    out.write(_line(encoder, match, version, event))
    finally:
        if out is not None:
            out.close()
    _summary(args, counts)
    return 0


def _summary(args: argparse.Namespace, counts: Counter[str]) -> None:
    kind = "pairs" if args.pairs else "singles"
    lines = [
        f"{args.games} matches ({args.ruleset}, {kind}, seed {args.seed}): "
        f"{sum(counts.values())} events"
    ]
    lines += [f"  {name:<22} {n}" for name, n in counts.most_common()]
    with contextlib.suppress(BrokenPipeError):  # e.g. piped into head
        print("\n".join(lines))
