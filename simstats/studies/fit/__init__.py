"""Fitting the noise model to runs (``simstats fit``), validated by simulation: runs simulated from known
parameters in regimes taken from real data are fitted back, and each parameter's interval is judged by how
often it holds the truth."""
