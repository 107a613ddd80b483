"""Yeh (2000): correlated systems, paired and randomization tests."""
