"""The `tableside` command: one entry point, each subcommand lives in its own module.

Subcommand modules are imported lazily so that `tableside simulate` never pays for
the web stack and `tableside audit verify` never imports the rules engine.
"""

from __future__ import annotations

import argparse
import importlib
import sys

# name -> (module, help). Each module exposes `add_arguments(parser)` and `run(args) -> int`.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("tableside.cli.serve", "start the server"),
    "migrate": ("tableside.cli.migrate", "apply schema/ migrations and exit"),
    "audit": ("tableside.cli.audit", "verify hash chains of stored events"),
    "simulate": ("tableside.disciplines.korona.simulate_cli", "play seeded random korona games"),
    "projections": ("tableside.cli.projections", "rebuild read models"),
    "standby": ("tableside.cli.standby", "stream a primary's store; serve once promoted"),
    "promote": ("tableside.cli.promote", "make the standby the primary"),
    "restore": ("tableside.cli.restore", "build a store from `audit export --all`, verified"),
    "keys": ("tableside.cli.keys", "rotate the signing key, on the record"),
    "staff": ("tableside.cli.staff", "make a staff account (the first head judge)"),
    "federation": ("tableside.cli.federation", "the federation service every venue pushes to"),
}


def build_parser() -> argparse.ArgumentParser:
    """Build the top-level parser with one subparser per registered subcommand."""
    parser = argparse.ArgumentParser(prog="tableside", description=__doc__.splitlines()[0])
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        sub = subparsers.add_parser(name, help=help_text)
        sub.set_defaults(_module=module_name)
        _module(module_name, sub).add_arguments(sub)
    return parser


def _module(module_name: str, sub: argparse.ArgumentParser):
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("tableside"):
            return _Unavailable(module_name)
        raise


class _Unavailable:
    """Stands in for a subcommand whose module is not part of this build yet."""

    def __init__(self, module_name: str) -> None:
        self.module_name = module_name

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("rest", nargs=argparse.REMAINDER)

    def run(self, args: argparse.Namespace) -> int:
        print(f"tableside: {self.module_name} is not available in this build", file=sys.stderr)
        return 2


def main(argv: list[str] | None = None) -> int:
    """Parse arguments and run the chosen subcommand; return its exit code."""
    args = build_parser().parse_args(argv)
    module = importlib.import_module(args._module)
    return int(module.run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
