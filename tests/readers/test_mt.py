"""Per-sentence BLEU statistics through sacrebleu's public API (simstats.io.mt)."""
import numpy as np
import pytest

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import BLEU  # noqa: E402

from simstats.compare import InputError  # noqa: E402
from simstats.io.mt import bleu_statistics, read_translations  # noqa: E402
from simstats.stats.metrics import bleu  # noqa: E402


def sentences(seed: int, n: int = 200):
    rng = np.random.default_rng(seed)
    words = "the a cat dog sat ran on mat house big small red , .".split()
    refs = [" ".join(rng.choice(words, size=rng.integers(1, 14))) for _ in range(n)]
    hyps = [" ".join(w if rng.random() < 0.7 else rng.choice(words) for w in r.split()) for r in refs]
    return hyps, refs


@pytest.mark.parametrize("options", [{}, {"tokenize": "char"}, {"lowercase": True}])
def test_sentence_statistics_sum_to_sacrebleu_corpus_bleu(options):
    hyps, refs = sentences(1)
    other = [r[::-1] for r in refs]
    for streams in ([refs], [refs, other]):
        stats = bleu_statistics(hyps, streams if len(streams) > 1 else streams[0], **options)
        assert stats.shape == (200, 10) and stats.dtype.kind == "i"
        expected = BLEU(**options).corpus_score(hyps, streams).score
        assert float(bleu(stats.sum(axis=0))) == pytest.approx(expected, abs=1e-9)


def test_files_give_the_same_statistics_and_errors_name_the_file(tmp_path):
    hyps, refs = sentences(2, 50)
    (tmp_path / "ref.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    (tmp_path / "sys_a.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (tmp_path / "sys_b.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    names, stats = read_translations([tmp_path / "sys_a.txt", tmp_path / "sys_b.txt"], [tmp_path / "ref.txt"])
    assert names == ["sys_a", "sys_b"]
    np.testing.assert_array_equal(stats[0], bleu_statistics(hyps, refs))
    assert float(bleu(stats[1].sum(axis=0))) == pytest.approx(100.0)
    (tmp_path / "short.txt").write_text("\n".join(hyps[:-1]) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"short.txt has 49 lines and .*ref.txt 50"):
        read_translations([tmp_path / "short.txt"], [tmp_path / "ref.txt"])
    with pytest.raises(InputError, match="not found"):
        read_translations([tmp_path / "none.txt"], [tmp_path / "ref.txt"])


def test_lm_eval_corpus_bleu_is_lm_evals_own(capsys):
    """compare --from lm-eval --score bleu: each model's BLEU equals the corpus BLEU lm-eval reported."""
    import io
    import json
    from pathlib import Path

    import pandas as pd
    from conftest import run_cli

    runs = Path(__file__).resolve().parents[1] / "data/harness/lm_eval/runs"
    code, out, err = run_cli(capsys, "compare", "--from", "lm-eval", str(runs), "--task", "toy_mt", "--score", "bleu",
                             "--format", "csv", "--n-resamples", "500")
    assert code == 0, err
    table = pd.read_csv(io.StringIO(out)).set_index("system")
    for results in runs.glob("*/results_*.json"):
        header = json.loads(results.read_text())
        assert table.loc[header["model_name"], "score"] == pytest.approx(header["results"]["toy_mt"]["bleu,none"],
                                                                          abs=1e-9)
    assert set(table.test) == {"paired bootstrap (shift p-value, (c + 1)/(B + 1), resampling items)"}


def test_compare_from_mt_files(tmp_path, capsys):
    import io

    import pandas as pd
    from conftest import run_cli

    hyps, refs = sentences(3, 80)
    (tmp_path / "ref.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("\n".join(h.replace("cat", "dog") for h in hyps) + "\n", encoding="utf-8")
    code, out, err = run_cli(capsys, "compare", "--from", "mt", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"),
                             "--references", str(tmp_path / "ref.txt"), "--format", "csv", "--n-resamples", "300")
    assert code == 0, err
    table = pd.read_csv(io.StringIO(out)).set_index("system")
    for name, lines in (("a", hyps), ("b", [h.replace("cat", "dog") for h in hyps])):
        assert table.loc[name, "score"] == pytest.approx(BLEU().corpus_score(lines, [refs]).score, abs=1e-9)
    code, _, err = run_cli(capsys, "compare", "--from", "mt", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"))
    assert code == 2 and err == "simstats: error: --from mt needs --references FILE (the reference translations)\n"
