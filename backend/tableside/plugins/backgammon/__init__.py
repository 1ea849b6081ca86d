"""The backgammon match slice: a KSI match as an event stream in the shared store, over HTTP.

`stream` folds a stream with the pure engine (`tableside.disciplines.backgammon`);
`discipline` and `commanding` answer the discipline port's command questions (the match
kernel's routes serve its commands under /api/backgammon/matches, decision 0214);
`http.routes.BACKGAMMON_ROUTES` are its own reads (the board, the legal plays, `.mat`);
`projections/`, `live_feed` and `exports/` as korona's slice has them. The events share the
one store, chain, audit history and verification with korona's; korona's slice
(`tableside.plugins.korona`) ignores them.
"""
