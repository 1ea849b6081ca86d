"""The federation (issue 49): the service every venue publishes to. Its read side: `ranking/`
(the season's lists; `ranking/rules/` pure, decision 0170)."""
