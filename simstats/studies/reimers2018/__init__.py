"""Reimers & Gurevych (2018): Evaluations 1-4, Tables 1-5, Figure 4."""
