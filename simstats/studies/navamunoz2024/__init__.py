"""Nava-Munoz et al. (2024): competitions, bootstrap CIs and corrections."""
