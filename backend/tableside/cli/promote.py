"""`tableside promote --data-dir DIR`: the standby there becomes the primary; the
`tableside standby` process that runs it then serves. Do it only once the old primary is
gone for good: it must not serve again on its old data (rebuild it as a standby)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--data-dir."""
    parser.add_argument("--data-dir", type=Path, help="the standby's data dir")


def run(args: argparse.Namespace) -> int:
    """Exit 0 once promoted, 1 when there is no standby running there."""
    import psycopg

    from tableside.db.embedded import running_url
    from tableside.db.replication import ReplicationError, promote
    from tableside.settings import Settings

    data_dir = Settings.from_env().replace(data_dir=args.data_dir).data_dir
    url = running_url(data_dir)
    if url is None:
        print(
            f"tableside: no standby is running in {data_dir} (`tableside standby`)", file=sys.stderr
        )
        return 1
    try:
        if not promote(url):
            print(f"tableside: the server in {data_dir} is a primary already", file=sys.stderr)
            return 1
    except (ReplicationError, psycopg.Error) as exc:
        print(f"tableside: {exc}", file=sys.stderr)
        return 1
    print(f"promoted: {data_dir} is the primary; its `tableside standby` process serves now")
    return 0
