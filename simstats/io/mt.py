"""Translations: per-sentence BLEU statistics from hypothesis and reference files, through sacrebleu's public API.

Corpus BLEU is a function of statistics summed over sentences (hypothesis and reference lengths,
matched and total n-grams for n = 1..4), so a paired bootstrap over sentences needs each sentence's
statistics.  :func:`bleu_statistics` takes them from sacrebleu's own ``BLEU.sentence_score`` (its
public ``sys_len``, ``ref_len``, ``counts`` and ``totals``), with sacrebleu's tokenisation and
options; summed, they give sacrebleu's ``corpus_score`` exactly.  Install ``simstats[mt]`` (or
sacrebleu).  chrF's and TER's per-sentence statistics are not public in sacrebleu, so only BLEU is
read here.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from simstats.io.checks import InputError
from simstats.stats.metrics import STATISTICS

__all__ = ["bleu_statistics", "read_translations"]

INSTALL = "pip install 'simstats[mt]' (or pip install sacrebleu)"


def _bleu(**options):
    try:
        from sacrebleu.metrics import BLEU
    except ImportError:
        raise InputError(f"BLEU statistics come from sacrebleu, which is not installed: {INSTALL}") from None
    return BLEU(effective_order=True, **options)


def bleu_statistics(hypotheses, references, **options) -> np.ndarray:
    """Per-sentence BLEU statistics, in the columns of ``STATISTICS["bleu"]``.

    Parameters
    ----------
    hypotheses : sequence of str
        One system's translations, one per sentence.
    references : sequence of str, or sequence of sequences of str
        One reference per sentence, or several reference streams (each one string per sentence).
    **options
        sacrebleu ``BLEU`` options (``tokenize``, ``lowercase``, ...); its defaults otherwise.
        ``effective_order`` is set: it changes only sentence scores, never the statistics.

    Returns
    -------
    numpy.ndarray
        (sentences, 10) integers: hypothesis length, reference length, matched n-grams and total
        n-grams for n = 1..4, as sacrebleu counts them.

    Raises
    ------
    simstats.io.checks.InputError
        sacrebleu missing, or a reference stream of another length than the hypotheses.

    Examples
    --------
    >>> from sacrebleu.metrics import BLEU
    >>> from simstats.stats.metrics import bleu
    >>> hyps = ["the cat sat on the mat", "a dog ran", "hello there world"]
    >>> refs = ["the cat sat on a mat", "the dog ran away", "hello world"]
    >>> stats = bleu_statistics(hyps, refs)
    >>> stats[0].tolist()
    [6, 6, 5, 3, 2, 1, 6, 5, 4, 3]
    >>> round(float(bleu(stats.sum(axis=0))), 6) == round(BLEU().corpus_score(hyps, [refs]).score, 6)
    True
    """
    hypotheses = list(hypotheses)
    streams = [list(references)] if references and isinstance(list(references)[0], str) else [list(r) for r in
                                                                                              references]
    for k, stream in enumerate(streams):
        if len(stream) != len(hypotheses):
            raise InputError(f"reference stream {k + 1} has {len(stream)} sentences, the hypotheses {len(hypotheses)}")
    scorer = _bleu(**options)
    out = np.empty((len(hypotheses), len(STATISTICS["bleu"])), dtype=np.int64)
    for i, hyp in enumerate(hypotheses):
        score = scorer.sentence_score(hyp, [stream[i] for stream in streams])
        out[i] = [score.sys_len, score.ref_len, *score.counts, *score.totals]
    return out


def read_lines(path) -> list[str]:
    """A text file's lines (one sentence per line), without their line ends."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"--from mt: {path} not found")
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as err:
        raise InputError(f"--from mt: {path} is not UTF-8 text ({err.reason} at byte {err.start})") from None


def read_translations(hypothesis_files, reference_files, **options) -> tuple[list[str], np.ndarray]:
    """Systems' names (the files' stems) and their (systems, sentences, 10) BLEU statistics.

    Parameters
    ----------
    hypothesis_files : sequence of paths
        One file per system, one translation per line.
    reference_files : sequence of paths
        One or more reference files, one sentence per line.
    **options
        sacrebleu ``BLEU`` options.

    Returns
    -------
    names : list of str
    stats : numpy.ndarray

    Raises
    ------
    simstats.io.checks.InputError
        A missing or non-UTF-8 file, files of different lengths (both named), repeated names.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "ref.txt").write_text("the cat sat\\na dog ran\\n")
    >>> _ = (folder / "sys_a.txt").write_text("the cat sat\\na dog runs\\n")
    >>> names, stats = read_translations([folder / "sys_a.txt"], [folder / "ref.txt"])
    >>> names, stats.shape
    (['sys_a'], (1, 2, 10))
    """
    references = [read_lines(p) for p in reference_files]
    if not references:
        raise InputError("--from mt needs the reference file(s): --references FILE")
    names, stats = [], []
    for path in hypothesis_files:
        lines = read_lines(path)
        name = Path(path).stem
        if name in names:
            raise InputError(f"--from mt: two hypothesis files are named {name!r}")
        for ref_path, ref in zip(reference_files, references):
            if len(ref) != len(lines):
                raise InputError(f"--from mt: {path} has {len(lines)} lines and {ref_path} {len(ref)}; a translation "
                                 "file has one line per reference sentence")
        names.append(name)
        stats.append(bleu_statistics(lines, references, **options))
    return names, np.stack(stats)
