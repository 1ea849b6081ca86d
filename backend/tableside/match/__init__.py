"""Matches as a service: venue events around the rules engine, folding, command handling.

The rules engine (`tableside.disciplines.korona`) decides what happens at the table; this
package adds what the venue knows (which table, which competition, players called) as its
own events in the same stream, folds a stream into a `MatchView`, and runs commands against
the store.
"""
