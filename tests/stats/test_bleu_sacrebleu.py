"""BLEU as a metric of summed statistics, and sacrebleu's paired-bootstrap p-value convention,
checked against sacrebleu itself (pinned in the test extra)."""
import json

import numpy as np
import pandas as pd
import pytest

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

from simstats.cli import main
from simstats.io.checks import InputError
from simstats.compare import Comparisons, compare_systems
from simstats.stats import metrics
from simstats.stats.bootstrap import bootstrap_score_matrix, paired_bootstrap

REFS = ["the cat sat on the mat .", "a dog barked at the mailman this morning .", "it is raining in london again .",
        "we will meet at noon tomorrow near the station .", "the quick brown fox jumps over the lazy dog .",
        "she sells sea shells by the sea shore ."]
SECOND_REFS = ["there is a cat on the mat .", "this morning a dog barked at the postman .", "london has rain again .",
               "we meet tomorrow at noon by the station .", "a fast brown fox jumped over a lazy dog .",
               "she sells shells on the seashore ."]
HYPOTHESES = {
    "close": ["the cat sat on a mat .", "a dog barked at the postman this morning .", "it rains in london again .",
              "we will meet at noon tomorrow at the station .", "the quick brown fox jumped over the lazy dog .",
              "she sells shells by the sea shore ."],
    "short": ["cat on the mat .", "the dog barked .", "raining in london .", "we meet at noon .", "quick fox .",
              "sea shells ."],
    "long": ["well , the cat sat on the mat , it did , all day .",
             "a dog barked and barked at the mailman this morning and then again .",
             "it is raining in london again , as it always is .",
             "we will meet at noon tomorrow near the station , or later .",
             "the quick brown fox jumps over the lazy dog again and again .",
             "she sells sea shells by the sea shore every day ."],
    # no 4-gram matches anywhere: "exp" smoothing decides the score
    "no_4gram_match": ["cat the sat mat on .", "dog a at barked mailman .", "raining is it london .",
                       "noon we meet will .", "fox the quick jumps brown .", "sea she shells sells ."],
    # at most three words: total_4 = 0, so sacrebleu's BLEU is 0
    "too_short": ["cat .", "dog barked .", "rain .", "we meet .", "fox .", "shells ."],
    "unrelated": ["completely different words here", "nothing matches", "zzz", "qqq www", "xx yy zz", "ok"],
    "empty": ["", "", "", "", "", ""],
}


def sentence_statistics(hypotheses, references):
    """Per-sentence statistics (items, 10) in simstats' bleu column order, from sacrebleu."""
    return np.array(BLEU()._extract_corpus_statistics(hypotheses, references), dtype=float)


def test_column_names_follow_sacrebleu_statistics():
    assert metrics.bleu.statistics == ("sys_len", "ref_len", "correct_1", "correct_2", "correct_3", "correct_4",
                                       "total_1", "total_2", "total_3", "total_4")
    assert metrics.STATISTICS["bleu"] == metrics.bleu.statistics
    # the same numbers per sentence as sentence_score's sys_len, ref_len, counts and totals
    bleu = BLEU()
    rows = sentence_statistics(HYPOTHESES["close"], [REFS])
    for hyp, ref, row in zip(HYPOTHESES["close"], REFS, rows):
        s = bleu.sentence_score(hyp, [ref])
        assert list(row) == [s.sys_len, s.ref_len, *s.counts, *s.totals]


@pytest.mark.parametrize("name", list(HYPOTHESES))
@pytest.mark.parametrize("references", [[REFS], [REFS, SECOND_REFS]], ids=["one_ref", "two_refs"])
def test_corpus_bleu_equals_sacrebleu(name, references):
    hyps = HYPOTHESES[name]
    expected = sacrebleu.corpus_bleu(hyps, references).score
    rows = sentence_statistics(hyps, references)
    sums = rows.sum(axis=0)
    assert metrics.bleu(sums) == pytest.approx(expected, abs=1e-9)
    by_name = metrics.metric_from_sums("bleu", dict(zip(metrics.bleu.statistics, sums)))
    assert by_name == pytest.approx(expected, abs=1e-9)
    # and per sentence (sacrebleu's corpus BLEU of one sentence, effective_order off)
    for hyp, row, *refs in zip(hyps, rows, *references):
        assert metrics.bleu(row) == pytest.approx(sacrebleu.corpus_bleu([hyp], [[r] for r in refs]).score, abs=1e-9)


def test_bleu_of_arrays_equals_compute_bleu_on_every_branch():
    """Random sums with zero matches, zero totals, sys_len 0 and short outputs: one vectorised call."""
    rng = np.random.default_rng(5)
    total = rng.integers(0, 30, size=(4000, 4))
    total[rng.random(4000) < 0.1, 2:] = 0                         # short hypotheses: no 3- and 4-grams
    correct = np.minimum(total, rng.integers(0, 12, size=(4000, 4)))
    correct[rng.random((4000, 4)) < 0.3] = 0                      # unmatched orders: "exp" smoothing
    correct[rng.random(4000) < 0.05] = 0                          # nothing matches
    sys_len = total[:, 0].copy()
    sys_len[rng.random(4000) < 0.02] = 0
    ref_len = rng.integers(0, 40, 4000)
    sums = np.column_stack([sys_len, ref_len, correct, total]).astype(float)
    ours = metrics.bleu(sums)
    theirs = [BLEU.compute_bleu(list(c), list(t), int(s), int(r), smooth_method="exp").score
              for s, r, c, t in zip(sys_len, ref_len, correct, total)]
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-9)
    assert (ours == 0).sum() > 100 and (ours > 0).sum() > 1000      # both branches exercised


WORDS = ("the a cat dog sat ran on under mat house river quickly slowly red green big small old new man woman "
         "child saw took gave book letter city road tree near far and but with from").split()


def corpus(seed, n=60, rates=(0.3, 0.33, 0.36)):
    """References and systems that edit them at the given rates (system 0: the baseline)."""
    rng = np.random.default_rng(seed)
    refs, systems = [], [[] for _ in rates]
    for _ in range(n):
        ref = list(rng.choice(WORDS, rng.integers(3, 16)))
        refs.append(" ".join(ref) + " .")
        for out, rate in zip(systems, rates):
            hyp = [w if rng.random() > rate else str(rng.choice(WORDS)) for w in ref if rng.random() > rate / 3]
            out.append(" ".join(hyp) + " .")
    systems.append(list(systems[0]))                    # a copy of the baseline
    return refs, systems


def sacrebleu_paired_bs(refs, systems, n_samples=1000):
    """sacrebleu's paired bootstrap p-values of systems[1:] against systems[0] (SACREBLEU_SEED's seed)."""
    named = [(f"s{i}", hyps) for i, hyps in enumerate(systems)]
    _, scores = PairedTest(named, {"BLEU": BLEU()}, references=[refs], test_type="bs", n_samples=n_samples)()
    return np.array([r.p_value for r in scores["BLEU"][1:]]), np.array([r.score for r in scores["BLEU"]])


@pytest.mark.parametrize("corpus_seed, sacrebleu_seed", [(0, 12345), (1, 12345), (2, 7), (3, 2024)])
def test_sacrebleu_convention_reproduces_sacrebleu_paired_bs(monkeypatch, corpus_seed, sacrebleu_seed):
    """Same statistics and the same resamples (a fresh generator with sacrebleu's seed draws the
    indices sacrebleu's rng.choice draws): exactly sacrebleu's p-values, not within a tolerance."""
    monkeypatch.setenv("SACREBLEU_SEED", str(sacrebleu_seed))
    refs, systems = corpus(corpus_seed)
    expected, scores = sacrebleu_paired_bs(refs, systems)
    stats = np.stack([sentence_statistics(h, [refs]) for h in systems])
    pairs = [(0, i) for i in range(1, len(systems))]
    res = paired_bootstrap(stats, metrics.bleu, pairs, n_resamples=1000, pvalue_method="sacrebleu", rng=sacrebleu_seed)
    np.testing.assert_array_equal(res.pvalue, expected)
    np.testing.assert_allclose(res.scores[:, 0], scores[0], rtol=0, atol=1e-9)
    np.testing.assert_allclose(res.scores[:, 1], scores[1:], rtol=0, atol=1e-9)
    # sacrebleu's strict ">" gives identical systems the smallest p-value, 1 / (B + 1), not 1
    assert res.pvalue[-1] == expected[-1] == 1 / 1001
    assert 0.001 < expected[:-1].max()               # not all at the floor: the counts are compared


def test_same_resamples_as_sacrebleu_choice():
    """The bootstrap's replicates are BLEU on sacrebleu's rng.choice(n, (B, n)) resamples."""
    refs, systems = corpus(4, n=40)
    stats = np.stack([sentence_statistics(h, [refs]) for h in systems[:2]])
    _, values = bootstrap_score_matrix(stats, metrics.bleu, n_resamples=200, rng=np.random.default_rng(12345))
    idx = np.random.default_rng(12345).choice(40, size=(200, 40), replace=True)
    expected = [[BLEU.compute_bleu(*np.split(s[i].sum(0), [2, 6])[1:], *s[i].sum(0)[:2].astype(int),
                                   smooth_method="exp").score for s in stats] for i in idx]
    np.testing.assert_allclose(values, expected, rtol=0, atol=1e-9)


def test_sacrebleu_convention_is_two_sided_only():
    stats = np.stack([sentence_statistics(HYPOTHESES[k], [REFS]) for k in ("close", "short")])
    with pytest.raises(ValueError, match="two-sided"):
        paired_bootstrap(stats, metrics.bleu, alternative="greater", pvalue_method="sacrebleu", rng=0)
    with pytest.raises(InputError, match="two-sided"):
        compare_systems(["a", "b"], stats, metrics.bleu, comparisons=Comparisons(alternative="greater"),
                        pvalue_method="sacrebleu")
    with pytest.raises(InputError, match="--test bootstrap"):
        compare_systems(["a", "b"], stats, metrics.bleu, test="randomization", pvalue_method="sacrebleu")
    from simstats.stats.approaches import approach_bootstrap
    with pytest.raises(ValueError, match="pvalue_method must be one of"):
        approach_bootstrap(np.concatenate([stats, stats]), metrics.bleu, ["a", "b", "a", "b"], [0, 0, 1, 1],
                           pvalue_method="sacrebleu", rng=0)


def long_statistics(systems, refs):
    """simstats compare --statistics input: rows system, item, then bleu's ten columns."""
    frames = []
    for i, hyps in enumerate(systems):
        frame = pd.DataFrame(sentence_statistics(hyps, [refs]).astype(int), columns=list(metrics.bleu.statistics))
        frame.insert(0, "item", np.arange(len(hyps)))
        frame.insert(0, "system", f"s{i}")
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def test_cli_compare_bleu_with_sacrebleu_pvalues(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)   # sacrebleu's default seed, 12345
    refs, systems = corpus(1)
    expected, scores = sacrebleu_paired_bs(refs, systems)
    path = tmp_path / "bleu_stats.csv"
    long_statistics(systems, refs).to_csv(path, index=False)
    code = main(["compare", str(path), "--statistics", "--metric", "bleu", "--pvalue-method", "sacrebleu", "--reference",
                 "s0", "--seed", "12345", "--n-resamples", "1000", "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["settings"]["pvalue_method"] == "sacrebleu" and "sacrebleu p-value" in out["settings"]["test"]
    rows = {r["system"]: r for r in out["rows"]}
    np.testing.assert_array_equal([rows[f"s{i}"]["pvalue"] for i in range(1, len(systems))], expected)
    np.testing.assert_allclose([rows[f"s{i}"]["score"] for i in range(len(systems))], scores, atol=1e-9)
    # errors name the flags
    assert main(["compare", str(path), "--statistics", "--metric", "bleu", "--pvalue-method", "sacrebleu",
                 "--alternative", "greater", "--reference", "s0"]) == 2
    assert "--pvalue-method sacrebleu is two-sided" in capsys.readouterr().err
    assert main(["compare", str(path), "--statistics", "--metric", "chrf"]) == 2
    assert "not available for --statistics input (accuracy, recall, precision, f1, mae, bleu)" in \
        capsys.readouterr().err


def test_cli_pvalue_conventions_on_predictions(tmp_path, capsys):
    """--pvalue shift is the bootstrap's default; percentile and sacrebleu name themselves in the header (and, for
    accuracy, whose default test is the adjusted Wald, select the bootstrap)."""
    rng = np.random.default_rng(0)
    gold = rng.integers(0, 2, 300)
    table = pd.DataFrame({"y": gold, "A": np.where(rng.random(300) < 0.8, gold, 1 - gold),
                          "B": np.where(rng.random(300) < 0.75, gold, 1 - gold)})
    path = tmp_path / "preds.csv"
    table.to_csv(path, index=False)
    outputs = {}
    for pvalue in (None, "shift", "percentile", "sacrebleu"):
        extra = ["--test", "bootstrap"] if pvalue is None else ["--pvalue-method", pvalue]
        assert main(["compare", str(path), "--n-resamples", "500", "--format", "json", *extra]) == 0
        outputs[pvalue] = json.loads(capsys.readouterr().out)
    assert outputs[None] == outputs["shift"]
    for pvalue in ("percentile", "sacrebleu"):
        assert f"({pvalue} p-value" in outputs[pvalue]["settings"]["test"]
