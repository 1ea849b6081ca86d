"""The competition service: competition streams in the EventStore, their matches as match
streams, and results flowing back from the match streams (see `service`, `matchflow`,
`processor`)."""
