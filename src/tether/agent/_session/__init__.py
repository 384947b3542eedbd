"""What a client holds: the host, sessions, their inbox, hand-off, fork and reset."""
