"""The live feed: `/live` websockets, the hub that follows the log, channels, resume, snapshots."""
