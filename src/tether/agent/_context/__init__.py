"""What the model is given beyond the transcript: state, dynamic instructions, compaction."""
