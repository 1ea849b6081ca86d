"""Backgammon's read model (`matches`: the `backgammon_matches` table)."""
