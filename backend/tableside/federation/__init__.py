"""The federation (issue 49): the service every venue publishes to. Its read side: `archive/`
(the kept venue events folded into what the venue publishes, decision 0172), `register/`
(players across events, decision 0171), `ranking/` (the season's lists; `ranking/rules/`
pure, decision 0170), `public/` (the public Router and face, decision 0174)."""
