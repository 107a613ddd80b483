import hashlib

import numpy as np
import pytest

from simstats.sim.seeding import generator, key_words, seed_sequence


def test_same_key_same_stream_and_different_keys_differ():
    a = generator(7, "noise", "iid", "A", 3).standard_normal(5)
    b = generator(7, "noise", "iid", "A", 3).standard_normal(5)
    c = generator(7, "noise", "iid", "A", 4).standard_normal(5)
    d = generator(8, "noise", "iid", "A", 3).standard_normal(5)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c) and not np.array_equal(a, d)


def test_int_and_str_parts_are_distinguished():
    assert key_words([1]) != key_words(["1"])


def test_key_is_stable_across_processes():
    # BLAKE2b of "s:noise" -> fixed words; a change here would silently change every result.

    expected = np.frombuffer(hashlib.blake2b(b"s:noise", digest_size=8).digest(), "<u4").tolist()
    assert key_words(["noise"]) == expected
    assert seed_sequence(1, "noise").spawn_key == tuple(expected)


@pytest.mark.parametrize("bad", [-1, 1.5, "3"])
def test_root_seed_must_be_non_negative_int(bad):
    with pytest.raises(ValueError):
        seed_sequence(bad, "x")


def test_key_words_match_the_digest_of_every_part_cached_or_not():
    # the per-part cache must give each part's own BLAKE2b words, for numpy and Python ints alike
    key = ("noise", "ner", 7, np.int64(7), "7", 2**40, np.int32(-3))
    expected = []
    for part in key:
        tag = "i" if isinstance(part, (int, np.integer)) else "s"
        expected += np.frombuffer(hashlib.blake2b(f"{tag}:{part}".encode(), digest_size=8).digest(), "<u4").tolist()
    for _ in range(2):                      # the second pass reads the cache
        assert key_words(key) == expected
    with pytest.raises(TypeError):
        key_words([True])


@pytest.mark.parametrize("root", [0, 1, 20181031, 2**32 - 1, 2**32, 2**64 + 5, 2**130 + 7, np.int64(99)])
@pytest.mark.parametrize("key", [(), ("noise",), ("noise", "ner", "A", "errors", "dev", 0, 1234), (2**40, "x", -3)])
def test_generator_is_the_keyed_seed_sequence_stream_and_spawns_the_same_children(root, key):
    ours = generator(root, *key)
    keyed = np.random.Generator(np.random.PCG64(seed_sequence(root, *key)))
    assert ours.bit_generator.state == keyed.bit_generator.state
    for a, b in zip(ours.spawn(3), keyed.spawn(3)):
        assert a.bit_generator.state == b.bit_generator.state
        for c, d in zip(a.spawn(2), b.spawn(2)):          # grandchildren too
            assert c.bit_generator.state == d.bit_generator.state
    assert np.array_equal(ours.standard_normal(7, dtype=np.float32), keyed.standard_normal(7, dtype=np.float32))


@pytest.mark.parametrize("bad", [-1, 1.5, "3", True])
def test_generator_checks_the_root_seed(bad):
    with pytest.raises(ValueError):
        generator(bad, "x")
