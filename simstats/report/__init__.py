"""The replication report over all studies."""
