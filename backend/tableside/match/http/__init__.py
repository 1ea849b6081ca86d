"""The match's HTTP face: judge commands, reads, exports, audit and spectator routes."""
