"""Korona's HTTP endpoints: commands, judge state, reads, the protocol PDF."""
