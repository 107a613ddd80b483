"""Paper-agnostic significance tests, metrics and corrections (imports nothing else of simstats)."""
