"""Seed derivation: every random draw comes from one root seed.

Streams are keyed by a tuple of labels (study, scenario, approach, model index, ...).
The key is turned into integers with a stable hash (BLAKE2b of the UTF-8 text), never
Python's salted ``hash()``, so the same key gives the same stream in every process,
whatever the chunking or the number of cores.
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import Iterable

import numpy as np

KeyPart = str | int


def key_words(key: Iterable[KeyPart]) -> list[int]:
    """Stable 32-bit words encoding ``key`` (type-tagged, so 1 and "1" differ)."""
    words: list[int] = []
    for part in key:
        if isinstance(part, bool) or not isinstance(part, (str, int, np.integer)):
            raise TypeError(f"seed key parts must be str or int, got {type(part).__name__}")
        words.extend(_part_words("i" if isinstance(part, (int, np.integer)) else "s", part))
    return words


@lru_cache(maxsize=4096)
def _part_words(tag: str, part: KeyPart) -> tuple[int, int]:
    """The two words of one key part (cached: a stream's labels repeat across its many models)."""
    digest = hashlib.blake2b(f"{tag}:{part}".encode(), digest_size=8).digest()
    return tuple(np.frombuffer(digest, dtype="<u4").tolist())


def seed_sequence(root_seed: int, *key: KeyPart) -> np.random.SeedSequence:
    """SeedSequence for the stream named by ``key`` under ``root_seed``."""
    if not isinstance(root_seed, (int, np.integer)) or root_seed < 0:
        raise ValueError(f"root_seed must be a non-negative integer, got {root_seed!r}")
    return np.random.SeedSequence(entropy=int(root_seed), spawn_key=tuple(key_words(key)))


def generator(root_seed: int, *key: KeyPart) -> np.random.Generator:
    """A fresh PCG64 generator for the stream named by ``key``."""
    return np.random.Generator(np.random.PCG64(seed_sequence(root_seed, *key)))
