"""Dror et al. (2019): Almost Stochastic Order against COS and SO."""
