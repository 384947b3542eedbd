"""Inside a session's run: the journaled steps of a turn, and what they work with."""
