"""Simulation: scenarios, the instance-level and score-level noise generators, seeding."""
