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
    return np.random.SeedSequence(entropy=_checked_root(root_seed), spawn_key=tuple(key_words(key)))


def _checked_root(root_seed) -> int:
    if isinstance(root_seed, bool) or not isinstance(root_seed, (int, np.integer)) or root_seed < 0:
        raise ValueError(f"root_seed must be a non-negative integer, got {root_seed!r}")
    return int(root_seed)


#: numpy's SeedSequence pool size (words), to which it pads the root's words before a spawn key.
POOL_SIZE = 4


def _root_words(root_seed: int) -> list[int]:
    """The root seed as numpy's SeedSequence reads an integer: 32-bit words, least significant first."""
    words = [root_seed & 0xFFFFFFFF]
    root_seed >>= 32
    while root_seed:
        words.append(root_seed & 0xFFFFFFFF)
        root_seed >>= 32
    return words


def generator(root_seed: int, *key: KeyPart) -> np.random.Generator:
    """A fresh PCG64 generator for the stream named by ``key``: the stream of
    ``Generator(PCG64(seed_sequence(root_seed, *key)))``, and the same children from ``spawn``.

    numpy's SeedSequence hashes the words of its entropy and then of its spawn key, the entropy padded with
    zeros to the pool size (4 words) when a spawn key follows.  Given those words assembled as one uint32
    array it hashes the same words, with no spawn key to add (its children then extend that array with
    their index, as the keyed sequence's children extend its key): the same pool, state and streams,
    twice as fast to make (about 8 instead of 17 us), which matters where every simulated model has its own
    streams (tests/sim/test_seeding.py)."""
    words = _root_words(_checked_root(root_seed))
    words += [0] * (POOL_SIZE - len(words))
    words += key_words(key)
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(np.array(words, dtype=np.uint32))))

