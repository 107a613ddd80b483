"""simstats' benchmark: ``python -m bench`` (full, 6-9 minutes on 2 cores) or ``python -m bench --quick`` (1.5-2 minutes).

One run, on the same seeded synthetic inputs for every tool, prints and writes (``report.md``,
Markdown) six sections:

1. paired tests for 1 to 10,000 pairs (n = 5,000, B = 10,000; accuracy and binary F1), simstats
   vs deepsig's ``bootstrap_test``/``permutation_test`` and CompStats (:mod:`bench.engine`);
2. BLEU paired bootstrap and approximate randomization vs sacrebleu's ``PairedTest`` (:mod:`bench.bleu`);
3. ASO vs deepsig's ``aso`` (:mod:`bench.aso`);
4. a whole competition analysis vs CompStats (:mod:`bench.competition`);
5. the resampling kernel's GFLOP/s beside numpy's SGEMM (:mod:`bench.engine`);
6. scaling in items, resamples and systems: ``scaling.csv``, ``scaling.png``/``.pdf`` (:mod:`bench.scaling`).

Before anything is compared, simstats' and each peer's p-values (ASO: eps_min) on the benchmark
inputs are printed side by side and must agree within a stated tolerance.  The peers are installed by
``pip install -e ".[bench]"`` plus sacrebleu (in the ``test`` extra).
"""
