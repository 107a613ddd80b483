"""The examples shipped inside the package (``simstats examples``): each is what its README says it is, and
the derived ones are re-derived here from the real data they come from, byte for byte."""
from pathlib import Path

import pandas as pd

from simstats.cli.examples import EXAMPLES, example_path

ROOT = Path(__file__).resolve().parents[2]
IBM = ROOT / "resources" / "realdata" / "ibm_model_recycling_20_seeds"
#: The ten tasks of the suite example (accuracy tasks of GLUE and SuperGLUE in the IBM runs).
SUITE_TASKS = ("boolq", "cb", "cola", "copa", "mrpc", "qnli", "rte", "sst2", "wic", "wnli")


def derived_suite_runs() -> str:
    """model, task, seed, score of the 6 base models on SUITE_TASKS: each task's 20 runs in file order (seed 0-19),
    the accuracy column as the file spells it."""
    rows = ["model,task,seed,score"]
    for path in sorted(IBM.glob("models_results_*_pretrain.csv")):
        model = path.name[len("models_results_"):-len("_pretrain.csv")]
        table = pd.read_csv(path, sep="\t", dtype=str)
        for task in SUITE_TASKS:
            runs = table[table["dataset name"] == task].accuracy.tolist()
            assert len(runs) == 20
            rows += [f"{model},{task},{seed},{score}" for seed, score in enumerate(runs)]
    return "\n".join(rows) + "\n"


def derived_rte_scores() -> str:
    """system, seed, score: each base model's 20 runs on rte, as derived_suite_runs reads them."""
    rows = [line.split(",", 1)[1] for line in derived_suite_runs().splitlines()[1:] if line.split(",")[1] == "rte"]
    models = [line.split(",")[0] for line in derived_suite_runs().splitlines()[1:] if line.split(",")[1] == "rte"]
    return "system,seed,score\n" + "".join(f"{m},{r.split(',', 1)[1]}\n" for m, r in zip(models, rows))


def test_the_suite_examples_are_derived_from_the_ibm_runs():
    assert example_path("suite").read_text() == derived_suite_runs()
    assert example_path("compare-scores").read_text() == derived_rte_scores()


def test_the_copied_examples_are_the_repository_files():
    assert example_path("compare").read_bytes() == (ROOT / "resources/realdata/compstats_competition_data.csv").read_bytes()
    assert example_path("fit").read_bytes() == (ROOT / "tests/data/fit/sklearn_digits_runs.csv.gz").read_bytes()
    assert example_path("config").read_bytes() == (ROOT / "config/config.yaml").read_bytes()


def test_every_example_exists_and_has_a_command():
    assert set(EXAMPLES) == {"compare", "plan", "suite", "compare-scores", "competition", "fit", "config"}
    for name, example in EXAMPLES.items():
        assert example_path(name).is_file(), name
        assert example.command.startswith("simstats ") and "{path}" in example.command
