"""`tableside projections rebuild [NAME ...]`: empty read models and fold them again from 0."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

# The core runner folds match streams; standings (competition streams) and backgammon
# (backgammon match streams) are consumers of their own.
CORE = ("live", "protocol", "tables", "history")
STANDINGS = "standings"
BACKGAMMON = "backgammon"
NAMES = (*CORE, STANDINGS, BACKGAMMON)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Subcommand `rebuild` with optional projection names and --data-dir."""
    actions = parser.add_subparsers(dest="action", required=True)
    rebuild = actions.add_parser("rebuild", help="rebuild read models from position 0")
    rebuild.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help=f"projections to rebuild (default: all of {', '.join(NAMES)})",
    )
    rebuild.add_argument("--data-dir", type=Path, help="embedded PostgreSQL data dir")


def run(args: argparse.Namespace) -> int:
    """Exit 0 when rebuilt, 1 when the database cannot be reached."""
    from tableside.db.runtime import StartupError, database
    from tableside.settings import Settings, SettingsError

    try:
        settings = Settings.from_env().replace(data_dir=args.data_dir)
        with database(settings, attach=True, existing=True) as db:
            # As the owner: maintenance, and a rebuild may make or swap tables.
            position = asyncio.run(_rebuild(db.migrate_url, args.names))
    except (StartupError, SettingsError, ValueError) as exc:
        print(f"tableside: {exc}", file=sys.stderr)
        return 1
    print(f"\nrebuilt {', '.join(args.names or NAMES)} up to position {position} on {db.label}")
    return 0


async def _rebuild(url: str, names: list[str]) -> int:
    import asyncpg

    from tableside.competition.projection import rebuild_standings
    from tableside.eventlog.source import head
    from tableside.plugins.backgammon.projections.matches import rebuild_backgammon
    from tableside.plugins.korona.projections.rebuild import rebuild, select
    from tableside.server.registry import build_registry

    core = [n for n in names if n not in (STANDINGS, BACKGAMMON)] if names else list(CORE)
    select(core)  # unknown names fail before anything is emptied
    pool = await asyncpg.create_pool(url, min_size=1, max_size=1)
    reader = await asyncpg.connect(url)  # the rebuild's read-ahead, beside the pool
    try:
        async with pool.acquire() as conn:
            total = await head(conn)
        registry, position = build_registry(), 0
        if core:
            position = await rebuild(pool, reader, registry, core, _bar(total))
        own = {STANDINGS: rebuild_standings, BACKGAMMON: rebuild_backgammon}
        for name, rebuild_own in own.items():
            if not names or name in names:
                position = await rebuild_own(pool, registry)
                _bar(total)(position)
        return position
    finally:
        await reader.close()
        await pool.close()


def _bar(total: int, width: int = 40):
    def show(position: int) -> None:
        done = width * position // total if total else width
        sys.stderr.write(f"\r[{'#' * done}{'.' * (width - done)}] {position}/{total} events")
        sys.stderr.flush()

    return show
