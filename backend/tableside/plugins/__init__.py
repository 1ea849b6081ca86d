"""Each discipline's slice on the match kernel, one folder each in the same shape (decision 0075):
its match service and fold, read models (`projections/`), live feed, exports (`exports/`) and
HTTP endpoints (`http/`). The pure rules engine it drives is `tableside.disciplines.<name>`.
"""
