"""The backgammon match slice: a KSI match as an event stream in the shared store, over HTTP.

`service.BackgammonService` folds a stream with the pure engine
(`tableside.disciplines.backgammon`) and appends what it decides; `http.routes.BACKGAMMON_ROUTES`
are the endpoints under /api/backgammon/; `projections/`, `live_feed` and `exports/` as
korona's slice has them. The events share the one store, chain, audit history and
verification with korona's; korona's slice (`tableside.plugins.korona`) ignores them.
"""
