"""The korona match slice: a korona/novuss match as an event stream in the shared store.

The rules engine (`tableside.disciplines.korona`) decides what happens at the table; this
slice adds what the venue knows (which table, which competition, players called; the match
kernel's venue events, `tableside.match.events`) in the same stream, folds a stream into a
`MatchView` (`folding`), answers the discipline port's command questions (`discipline`,
`commanding`: the match kernel's routes serve its commands at /api/matches, decision 0214),
keeps its read models (`projections/`), renders its live feed (`live_feed`), its protocol
(`exports/`) and its own reads over HTTP (`http/`).
"""
