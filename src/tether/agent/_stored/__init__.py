"""A session's data in the stores: transcripts, lines, mail, labels, retention and erasure."""
