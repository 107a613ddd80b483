"""The replication studies, one package per paper plus the noise study."""
