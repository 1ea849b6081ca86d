"""Command-line subcommands of `tableside`."""
