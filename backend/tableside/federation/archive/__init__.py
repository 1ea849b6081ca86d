"""The public archive (issue 49, point 4; decision 0172): the kept venue events (decision
0165) folded with the venue's own registry and folds into what the venue publishes."""
