"""The venue's uplink to its federation (issue 49, point 2): enrol once, then push the store
in batches from the last acknowledged position, in a thread of its own with its own
connection (a judge's tap never waits on it), backing off while the federation cannot be
reached; the federation's signed acknowledgements are kept as a witness file, and what the
uplink saw last (witnessed, offline, a fork refused) is read by `/health` and the console."""
