"""Section 2: BLEU significance tests, simstats vs sacrebleu's own (``sacrebleu.significance.PairedTest``).

A synthetic corpus (references of random words; systems that substitute and drop words at
rates around 30 %); sacrebleu's default BLEU.  Both tools get the same per-sentence statistics
(sacrebleu's ``BLEU._extract_corpus_statistics``, with the references cached once): sacrebleu's
``PairedTest`` runs on a BLEU whose statistics extraction returns the precomputed statistics, so
its time is that of the test itself; the extraction, which both need, is timed once per system and
reported apart.  Each pair is (baseline, system k) as in ``sacrebleu --paired-bs/--paired-ar``:

* paired bootstrap, 1,000 resamples (sacrebleu's default): simstats ``paired_bootstrap(...,
  pvalue_method="sacrebleu", rng=SACREBLEU_SEED)`` draws sacrebleu's resamples, so the p-values are
  sacrebleu's to the last digit; both also give confidence intervals (sacrebleu per system, simstats
  of the difference);
* approximate randomization, 10,000 shuffles (sacrebleu's default): simstats
  ``randomization_test`` (two-sided, p = (c + 1)/(B + 1); other random numbers).
"""
from __future__ import annotations

import os

import numpy as np

from simstats.stats.bootstrap import paired_bootstrap
from simstats.stats.metrics import get_metric
from simstats.stats.randomization import randomization_test

from .common import (TOLERANCE_RULE, PValueCheck, Report, Settings, best_of, fmt_s, fmt_x, repeat_rule, timed)
from .inputs import BLEU_BASE_RATE, bleu_corpus

SEED = 2024


def sacrebleu_seed() -> int:
    """The seed sacrebleu's PairedTest uses (environment SACREBLEU_SEED, default 12345)."""
    seed = os.environ.get("SACREBLEU_SEED", "12345")
    if seed.lower() == "none":
        raise SystemExit("SACREBLEU_SEED=None makes sacrebleu unseeded; unset it for the benchmark")
    return int(seed)


def precomputed_bleu(references, table):
    """sacrebleu's BLEU with the references cached, whose statistics extraction looks up ``table``
    (id of a hypotheses list -> its statistics, as sacrebleu's own extraction returned them)."""
    from sacrebleu.metrics import BLEU

    class PrecomputedBLEU(BLEU):
        def _extract_corpus_statistics(self, hypotheses, references):
            return table[id(hypotheses)]

    return PrecomputedBLEU(references=[references])


def sacrebleu_test(test: str, systems, metric, n_pairs: int, n_resamples: int):
    """(seconds, p-values of systems 1..n_pairs against system 0) of sacrebleu's PairedTest."""
    from sacrebleu.significance import PairedTest

    named = [("baseline", systems[0])] + [(f"s{k}", systems[k]) for k in range(1, n_pairs + 1)]
    seconds, (_, scores) = timed(lambda: PairedTest(named, {"BLEU": metric}, references=None, test_type=test,
                                                    n_samples=n_resamples)())
    return seconds, np.array([r.p_value for r in scores["BLEU"][1:]])


def simstats_test(test: str, stats: np.ndarray, n_pairs: int, n_resamples: int, seed: int):
    bleu = get_metric("bleu")
    pairs = [(k, 0) for k in range(1, n_pairs + 1)]
    if test == "bs":
        return paired_bootstrap(stats[:n_pairs + 1], bleu, pairs, n_resamples=n_resamples, pvalue_method="sacrebleu",
                                confidence_level=0.95, rng=seed)
    return randomization_test(stats[:n_pairs + 1], bleu, pairs, n_resamples=n_resamples, rng=seed)


def run(settings: Settings, report: Report) -> dict:
    from sacrebleu.metrics import BLEU

    n_sent, pairs = settings.bleu_sentences, settings.bleu_pairs
    measured = tuple(p for p in settings.bleu_measured_pairs if p <= max(pairs))
    seed = sacrebleu_seed()
    report.heading("2. BLEU: simstats vs sacrebleu's paired bootstrap and approximate randomization")
    refs, systems = bleu_corpus(n_sent, 1 + max(pairs), SEED)
    seconds, plain = timed(lambda: BLEU(references=[refs]))
    cache_s = seconds
    table, stats = {}, []
    seconds, _ = timed(lambda: [table.__setitem__(id(h), plain._extract_corpus_statistics(h, None)) for h in systems])
    extract_s = seconds / len(systems)
    stats = np.stack([np.asarray(table[id(h)], dtype=np.float64) for h in systems])
    metric = precomputed_bleu(refs, table)
    bleu = get_metric("bleu")
    # like with like: simstats' BLEU of the summed statistics is sacrebleu's corpus BLEU
    for k in (0, 1):
        theirs = BLEU().corpus_score(systems[k], [refs]).score
        if abs(float(bleu(stats[k].sum(axis=0))) - theirs) > 1e-9:
            raise SystemExit(f"BLEU of system {k}: simstats {float(bleu(stats[k].sum(axis=0)))} vs sacrebleu {theirs}")
    scores = bleu(stats.sum(axis=1))
    report.line(f"Corpus: {n_sent:,} sentences, 1 baseline + {max(pairs)} systems (edit rates "
                f"{BLEU_BASE_RATE:.2f} ± 0.015; corpus BLEU {scores.min():.1f}–{scores.max():.1f}, baseline "
                f"{scores[0]:.2f}; simstats' BLEU of summed statistics = sacrebleu's corpus_score to 1e-9). "
                f"Sentence statistics (sacrebleu, shared by both tools): {fmt_s(extract_s)} per system "
                f"({fmt_s(cache_s)} once to cache the references). sacrebleu's PairedTest is timed on the "
                "precomputed statistics (its test only) for "
                + " and ".join(f"{p}" for p in measured) + " pair(s); larger numbers of pairs are extrapolated as "
                f"t({measured[0]}) + (P − {measured[0]})·(t({measured[-1]}) − t({measured[0]}))/"
                f"({measured[-1]} − {measured[0]}) (a fixed part for the baseline, the rest per pair). "
                f"simstats: all pairs in one call, {repeat_rule(settings)}.")
    report.line()
    resamples = {"bs": settings.bleu_bs_resamples, "ar": settings.bleu_ar_resamples}
    names = {"bs": "paired bootstrap", "ar": "approximate randomization"}
    out, rows = {}, []
    check = PValueCheck()
    identical = {}
    for test in ("bs", "ar"):
        b = resamples[test]
        sacre = {p: sacrebleu_test(test, systems, metric, p, b) for p in measured}
        theirs_p = sacre[measured[-1]][1]
        ours_p = simstats_test(test, stats, measured[-1], b, seed).pvalue
        if not np.array_equal(sacre[measured[0]][1], theirs_p[:measured[0]]):
            raise SystemExit(f"sacrebleu {test}: the first pair's p-value depends on the number of pairs")
        identical[test] = bool(np.array_equal(ours_p, theirs_p))
        for k, (a, t) in enumerate(zip(ours_p, theirs_p), start=1):
            check.add(f"{names[test]} (B = {b:,}), baseline vs s{k}", float(a), float(t), b, b)
        t_first, t_last = sacre[measured[0]][0], sacre[measured[-1]][0]
        per_pair = (t_last - t_first) / (measured[-1] - measured[0]) if len(measured) > 1 else t_first
        for p in pairs:
            if p in sacre:
                theirs_s, how = sacre[p][0], "measured"
            else:
                theirs_s, how = t_first + (p - measured[0]) * per_pair, "extrapolated"
            ours_s, runs, _ = best_of(lambda: simstats_test(test, stats, p, b, seed), settings)  # noqa: B023
            shared = (p + 1) * extract_s
            out[(test, p)] = (ours_s, theirs_s)
            rows.append((names[test], f"{b:,}", p, fmt_s(ours_s), runs, fmt_s(theirs_s), how, fmt_x(theirs_s / ours_s),
                         fmt_s(shared), fmt_x((theirs_s + shared) / (ours_s + shared))))
    report.line("p-values (sacrebleu's from its measured runs; checked before the ratios are reported). "
                + TOLERANCE_RULE + ". Paired bootstrap p-values identical to sacrebleu's: "
                + ("yes" if identical["bs"] else "**no**") + " (same resamples by design); approximate "
                "randomization identical: " + ("yes" if identical["ar"] else "no") + " (other random numbers).")
    report.line()
    check.report(report, peer_label="sacrebleu")
    check.enforce()
    report.table(["test", "B", "pairs", "simstats", "runs", "sacrebleu", "sacrebleu time", "sacrebleu / simstats",
                  "+ statistics (both)", "end to end"], rows)
    report.line("\"+ statistics\": sacrebleu's sentence-statistics extraction of the baseline and the systems, which "
                "both tools need; \"end to end\" = (sacrebleu + statistics) / (simstats + statistics).")
    report.line()
    return out
