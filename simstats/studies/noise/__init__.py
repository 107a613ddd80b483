"""Noise study: the noise model's scenarios against their closed forms."""
