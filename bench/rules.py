"""Fold 1,000,000 simulated korona events through evolve; print events/s against a baseline.

.venv/bin/python bench/rules.py [--events 1000000] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import time

from tableside.disciplines.korona import fold
from tableside.disciplines.korona.events import Event
from tableside.disciplines.korona.simulate import play_match


def corpus(total: int, seed: int) -> list[list[Event]]:
    """Simulated matches (singles and pairs, all three rulesets) until `total` events."""
    rng, matches, count, i = random.Random(seed), [], 0, 0
    while count < total:
        events = list(play_match(rng, ("EKML", "NOVUS08", "LV")[i % 3], i % 2 == 1, 1 + i % 4))
        matches.append(events)
        count += len(events)
        i += 1
    return matches


def timed(label: str, fn, matches: list[list[Event]], n: int) -> float:
    start = time.perf_counter()
    fn(matches)
    rate = n / (time.perf_counter() - start)
    print(f"{label:<32} {rate:>12,.0f} events/s")
    return rate


def fold_all(matches: list[list[Event]]) -> None:
    for events in matches:
        fold(events)


def sum_field(matches: list[list[Event]]) -> None:
    total = 0
    for events in matches:
        for event in events:
            total += len(event.rule)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    matches = corpus(args.events, args.seed)
    n = sum(map(len, matches))
    print(f"simulated {len(matches)} matches, {n:,} events in {time.perf_counter() - start:.1f} s")
    rate = timed("fold (evolve every event)", fold_all, matches, n)
    base = timed("baseline (sum a field)", sum_field, matches, n)
    print(
        f"fold / baseline: 1 : {base / rate:.1f}   target >= 200,000 events/s: "
        f"{'met' if rate >= 200_000 else 'MISSED'}"
    )


if __name__ == "__main__":
    main()
