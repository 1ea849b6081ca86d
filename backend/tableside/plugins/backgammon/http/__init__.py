"""Backgammon's HTTP endpoints under /api/backgammon/: commands, reads, who may post what."""
