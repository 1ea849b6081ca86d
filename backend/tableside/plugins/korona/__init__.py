"""The korona match slice: a korona/novuss match as an event stream in the shared store.

The rules engine (`tableside.disciplines.korona`) decides what happens at the table; this
slice adds what the venue knows (which table, which competition, players called; the match
kernel's venue events, `tableside.match.events`) in the same stream, folds a stream into a
`MatchView` (`folding`), runs commands against the store (`service`), keeps its read models
(`projections/`), renders its live feed (`live_feed`), its protocol (`exports/`) and its HTTP
endpoints under /api/matches (`http/`).
"""
