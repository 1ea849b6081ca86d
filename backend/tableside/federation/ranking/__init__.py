"""The season's ranking lists (issue 49, point 6): `rules/` computes them (pure), the
projection feeds it the finished competitions of the kept venue events (decision 0170)."""
