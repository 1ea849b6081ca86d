"""The federation's remote live relay (issue 51): every venue's kept events relayed to remote
spectators over a websocket (a snapshot, then position-tagged deltas, resume with `after`),
fanned out between the federation's nodes by PostgreSQL LISTEN/NOTIFY (decision 0195)."""
