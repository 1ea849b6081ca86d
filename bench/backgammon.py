"""Fold simulated backgammon matches through evolve, next to korona's fold, in the same run;
print events/s and each against a trivial fold (sum a field) over the same events.

.venv/bin/python bench/backgammon.py [--events 100000] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import rules as korona  # bench/rules.py: korona's corpus and fold
from tableside.disciplines.backgammon import fold
from tableside.disciplines.backgammon.events import Event
from tableside.disciplines.backgammon.simulate import play_match


def corpus(total: int, seed: int) -> list[list[Event]]:
    """Simulated matches to 1, 3, 5, 7, 9 and 11 points until `total` events."""
    rng, matches, count, i = random.Random(seed), [], 0, 0
    while count < total:
        events = list(play_match(rng, 1 + 2 * (i % 6)))
        matches.append(events)
        count += len(events)
        i += 1
    return matches


def fold_all(matches: list[list[Event]]) -> None:
    for events in matches:
        fold(events)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    bg = corpus(args.events, args.seed)
    kor = korona.corpus(args.events, args.seed)
    nb, nk = sum(map(len, bg)), sum(map(len, kor))
    took = time.perf_counter() - start
    print(
        f"simulated {len(bg)} backgammon matches ({nb:,} events), "
        f"{len(kor)} korona ({nk:,}) in {took:.1f} s"
    )
    bg_rate = korona.timed("backgammon fold", fold_all, bg, nb)
    bg_base = korona.timed("backgammon baseline (sum field)", korona.sum_field, bg, nb)
    k_rate = korona.timed("korona fold", korona.fold_all, kor, nk)
    k_base = korona.timed("korona baseline (sum field)", korona.sum_field, kor, nk)
    print(f"backgammon fold / baseline: 1 : {bg_base / bg_rate:.1f}")
    print(f"korona     fold / baseline: 1 : {k_base / k_rate:.1f}")
    print(f"backgammon / korona fold rate: {bg_rate / k_rate:.2f}")


if __name__ == "__main__":
    main()
