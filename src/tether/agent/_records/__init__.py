"""The agent layer's records: what sessions store, journal and publish, and their names."""
