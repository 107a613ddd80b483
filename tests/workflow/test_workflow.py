"""The Snakemake workflow end to end: dry run, lint, bad config, a tiny real run twice."""
import io
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.workflow


def copy_workflow(dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    for name in ("Snakefile", "workflow", "config", "profiles", ".test", "resources"):
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("results", "figures", "__pycache__"))
        else:
            shutil.copy(src, dest / name)
    return dest


def snakemake(workdir: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "snakemake", *args], cwd=workdir, capture_output=True, text=True,
                          timeout=900)


def job_counts(dry_run_output: str) -> dict[str, int]:
    lines = dry_run_output.splitlines()
    start = lines.index("Job stats:") + 3
    counts = {}
    for line in lines[start:]:
        parts = line.split()
        if len(parts) != 2 or parts[0] == "total":
            break
        counts[parts[0]] = int(parts[1])
    return counts


def test_default_dry_run_and_lint(tmp_path):
    wd = copy_workflow(tmp_path)
    dry = snakemake(wd, "-n")
    assert dry.returncode == 0, dry.stderr
    counts = job_counts(dry.stdout + dry.stderr)
    n_scen = len(yaml.safe_load((ROOT / "config/config.yaml").read_text())["scenarios"])
    assert counts["summarise_noise"] == n_scen and "plot_noise" not in counts   # the summary job draws the figure
    lint = snakemake(wd, "--lint")
    assert lint.returncode == 0, lint.stdout + lint.stderr
    assert "Congratulations" in lint.stdout + lint.stderr


def without_defaults(node, schema, root_schema, path=()):
    """``node`` without the optional fields that state their schema default (a scenario's parts,
    which depend on its metric and family, are kept); returns the dotted paths removed."""
    def resolve(s):
        while "$ref" in s:
            s = root_schema["$defs"][s["$ref"].rsplit("/", 1)[-1]]
        return s

    schema, removed = resolve(schema), []
    if not isinstance(node, dict) or path[:1] == ("scenarios",):
        return removed
    props, extra = schema.get("properties", {}), schema.get("additionalProperties")
    for key in list(node):
        sub = resolve(props[key]) if key in props else extra if isinstance(extra, dict) else None
        if sub is None:
            continue
        if key in props and "default" in sub and key not in schema.get("required", []) and node[key] == sub["default"]:
            del node[key]
            removed.append(".".join(path + (key,)))
        else:
            removed += without_defaults(node[key], sub, root_schema, path + (key,))
    return removed


def planned_jobs(dry_run_output: str) -> list[str]:
    """The planned jobs of a dry run: rule, wildcards and outputs of each, sorted."""
    jobs, current = [], None
    for line in dry_run_output.splitlines():
        if line.startswith(("rule ", "localrule ")):
            current = [line.strip()]
            jobs.append(current)
        elif current is not None and line.strip().startswith(("output:", "wildcards:")):
            current.append(line.strip())
    return sorted(" | ".join(job) for job in jobs)


def test_the_workflow_reads_the_defaults_from_its_one_schema_application(tmp_path):
    """common.smk applies the schema once (validate_config) and the rules read only its parsed settings: a
    config/config.yaml without the fields that merely state their default plans the very same jobs."""
    from simstats.config import config_schema
    from simstats.sim.schema import load_schema

    schema = {**config_schema(), "$defs": load_schema()["$defs"]}
    full = copy_workflow(tmp_path / "full")
    lean = copy_workflow(tmp_path / "lean")
    config = yaml.safe_load((ROOT / "config/config.yaml").read_text())
    removed = without_defaults(config, schema, schema)
    assert {"dror.alpha_aso", "noise.n_resamples", "yeh.recall", "reimers.power.target", "results_dir"} <= set(removed)
    (lean / "config/config.yaml").write_text(yaml.safe_dump(config))
    plans = []
    for wd in (full, lean):
        dry = snakemake(wd, "-n")
        assert dry.returncode == 0, dry.stderr[-2000:]
        plans.append(planned_jobs(dry.stdout + dry.stderr))
    assert len(plans[0]) > 50 and plans[0] == plans[1]
    text = "\n".join(path.read_text() for path in [ROOT / "Snakefile", *sorted((ROOT / "workflow/rules").glob("*.smk"))])
    assert "validate(config" not in text.replace("validate_config(config", "")   # no second application


BAD_CONFIGS = [
    ({"scenarios": {"iid": {"sigma_e": -1, "replace": True}}}, "scenarios.iid.sigma_e"),
    ({"scenarios": {"iid": {"metric": "bleu", "replace": True}}}, "scenarios.iid.metric"),
    ({"scenarios": {"iid": {"sigma_e": 0.5}}}, "bad.yaml: scenario 'iid' has the name of a built-in scenario"),
    ({"competition": {"populations": {"vaxxstance_basque": {"class_probs": [0.5, 0.5, 0.5]}}}},
     "competition.populations.vaxxstance_basque.class_probs"),
    ({"yeh": {"differences": {"recall": [0.02, 0.04]}}}, "yeh.differences.recall"),
    ({"reimers": {"chunk_size": 700}}, "reimers.chunk_size"),
    ({"reimers": {"exclude": ["nope"]}}, "reimers.exclude"),
    ({"approaches": {"seeds": [1]}}, "approaches.seeds"),
    ({"dror": {"size_power": {"scenarios": ["nope"]}}}, "dror.size_power.scenarios"),
]


def merged(base: dict, extra: dict) -> dict:
    """Snakemake's --configfile merge: nested mappings updated field by field."""
    out = dict(base)
    for key, value in extra.items():
        out[key] = merged(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


@pytest.mark.parametrize("patch, field", BAD_CONFIGS)
def test_invalid_config_is_rejected_with_one_line_naming_the_field(tmp_path, patch, field):
    """What common.smk runs before any job (checked in-process; the wiring once below)."""
    from simstats.config import check_configfile_overrides, validate_config
    from simstats.sim.scenario import ScenarioError

    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(patch))
    base = yaml.safe_load((ROOT / "config/config.yaml").read_text())
    with pytest.raises(ScenarioError) as err:
        check_configfile_overrides([str(bad)], str(ROOT / "config/config.yaml"))
        validate_config(merged(base, patch))
    message = str(err.value).replace(str(tmp_path) + "/", "")
    assert field in message and "\n" not in message


def test_invalid_config_stops_snakemake_before_any_job(tmp_path):
    """The wiring: the one-line message, a non-zero exit and nothing written, for one bad field and a collision."""
    wd = copy_workflow(tmp_path)
    for patch, field in (BAD_CONFIGS[0], BAD_CONFIGS[2]):
        (wd / "bad.yaml").write_text(yaml.safe_dump(patch))
        run = snakemake(wd, "--cores", "1", "--configfile", "bad.yaml")
        assert run.returncode != 0
        err_lines = [line for line in (run.stdout + run.stderr).splitlines() if field in line]
        assert len(err_lines) == 1 and err_lines[0].startswith("simstats: invalid configuration:")
        assert not (wd / "results").exists()


def files_of(root: Path) -> dict[str, bytes]:
    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_file() and "/chunks/" not in rel and "logs/" not in rel and "benchmarks/" not in rel:
            out[rel] = path.read_bytes()
    return out


def assert_same_files(got: dict[str, bytes], expected: dict[str, bytes]) -> None:
    """Equal file sets with equal bytes; a failure names the files instead of dumping their bytes."""
    assert sorted(got) == sorted(expected)
    assert [name for name in expected if got[name] != expected[name]] == []


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory) -> Path:
    """The tiny run (.test/config.yaml, --cores 2), made once and shared by the tests that compare with it."""
    one = copy_workflow(tmp_path_factory.mktemp("reference"))
    run = snakemake(one, "--cores", "2", "--configfile", ".test/config.yaml")
    assert run.returncode == 0, run.stderr[-3000:]
    return one


def test_tiny_run_writes_every_output_and_the_report(reference_run):
    one = reference_run
    results = files_of(one / ".test/results")
    figures = files_of(one / ".test/figures")
    for scen in ("iid", "clustered", "failure_tail", "tempeval3_events"):
        assert f"noise/{scen}/scores.parquet" in results and f"noise/{scen}/summary.csv" in results
        assert f"noise/{scen}_dev_vs_test.png" in figures and f"noise/{scen}_dev_vs_test.pdf" in figures
    assert "noise/summary.md" in results
    for name in ("competition/table5_check.csv", "competition/study/summary.md", "competition/basque/basque_report.md",
                 "competition/spanish/check.csv",
                 "yeh/size_power.md", "yeh/sd_ratio.csv", "yeh/clusters.md", "yeh/squad_summary.md", "yeh/example.md",
                 "dror/real_data_cases.md", "dror/real_data.parquet", "dror/synthetic_cases.md", "dror/noise_analyses.md", "dror/size_power.md", "dror/paper_cases.md",
                 "competition/compstats/check.csv", "reimers/tables.md", "reimers/tables.csv",
                 "reimers/calibration.md", "reimers/realdata.md", "reimers/power_runs_needed.csv",
                 "reimers/tempeval3_events/comparisons.parquet", "REPORT.md", "fidelity.csv", "fidelity.md",
                 "dror/conventions.csv", "approaches/validation.md", "approaches/which_test.csv",
                 "harness/validation.md", "harness/validation.csv", "suite/validation.md", "suite/validation.csv",
                 "fit/validation.md", "fit/validation.csv", "trust/iid.md", "trust/clustered.md",
                 "trust/clustered/summary.csv",
                 "reimers/iid/summary.parquet"):
        assert name in results
    report = results["REPORT.md"].decode()
    for section in ("## Reimers & Gurevych (2018)", "## Yeh (2000)", "## Nava-Muñoz et al. (2024)",
                    "## Dror et al. (2019)", "## Validation against known truth", "### Misses", "**Summary.**"):
        assert section in report
    # the tiny run's ledger keeps its contract: every miss explained by a note or said to be unexplained
    ledger = pd.read_csv(io.BytesIO(results["fidelity.csv"]), keep_default_na=False, na_values=[""])
    missed = ledger[ledger.verdict == "misses"]
    assert (missed.explanation.str.match(r"note \d+$") | (missed.explanation == "unexplained")).all()
    assert report.count("misses are **unexplained**") + report.count("miss is **unexplained**") <= 1
    assert "](../figures/reimers/figure4.png)" in report
    for fig in ("competition/study_fwer", "competition/study_truth", "competition/basque_intervals", "competition/spanish_bootstrap",
                "competition/compstats_bootstrap", "yeh/size", "yeh/power", "yeh/clusters", "yeh/squad", "yeh/sd_ratio",
                "dror/real_data_eps", "dror/synthetic_eps", "dror/noise_eps", "dror/size_power", "reimers/figure4",
                "reimers/dev_vs_test", "reimers/power", "reimers/calibration", "approaches/validation",
                "harness/validation", "suite/validation", "fit/validation", "trust/iid", "trust/clustered"):
        assert f"{fig}.png" in figures and f"{fig}.pdf" in figures

    # the HTML report bundles every table and figure
    rep = snakemake(one, "--report", "report.html", "--configfile", ".test/config.yaml")
    assert rep.returncode == 0, rep.stderr[-2000:]
    assert (one / "report.html").stat().st_size > 100_000
    assert "Duplicate explicit target name" not in rep.stdout + rep.stderr
    assert "Warning" not in rep.stdout + rep.stderr, (rep.stdout + rep.stderr)[-2000:]

    # nothing left to do; adding a scenario reruns only its jobs plus the aggregation
    again = snakemake(one, "-n", "--configfile", ".test/config.yaml")
    assert "Nothing to be done" in again.stdout + again.stderr
    extended = yaml.safe_load((one / ".test/config.yaml").read_text())
    extended["noise"]["scenarios"].append("extra")
    extended["scenarios"] = {"extra": {"metric": "accuracy", "target": 0.7, "dev": {"items": 300},
                                       "test": {"items": 300}, "sigma_seed": 0.01}}
    (one / "extended.yaml").write_text(yaml.safe_dump(extended))
    dry = snakemake(one, "-n", "--configfile", "extended.yaml")
    assert dry.returncode == 0, dry.stderr
    assert job_counts(dry.stdout + dry.stderr) == {
        "simulate_noise_chunk": 1, "summarise_noise": 1, "noise_table": 1, "replication_report": 1,
        "all": 1}


def readme_example_scenario() -> dict:
    """The scenario of the README's "Adding a scenario" section, exactly as printed there."""
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## Adding a scenario"):]
    block = section[section.index("```yaml") + len("```yaml"):section.index("```", section.index("```yaml") + 7)]
    return yaml.safe_load(block)


def jobs_of_scenario(dry_run_output: str, scenario: str) -> dict[str, int]:
    """Rule name -> number of planned jobs whose wildcards name the scenario."""
    counts, rule = {}, None
    for line in dry_run_output.splitlines():
        if line.startswith("rule ") or line.startswith("localrule "):
            rule = line.split()[1].rstrip(":")
        elif (line.strip().startswith("wildcards:")
              and f"scenario={scenario}" in line.split(":", 1)[1].replace(" ", "").split(",")):
            counts[rule] = counts.get(rule, 0) + 1
    return counts


def test_the_readme_example_scenario_gets_the_evaluations(tmp_path):
    """Adding the README's scenario schedules its noise study, its Reimers evaluations and its trust page; exclude
    opts out."""
    wd = copy_workflow(tmp_path)
    example = readme_example_scenario()
    (name, _), = example.items()
    (wd / "example.yaml").write_text(yaml.safe_dump({"scenarios": example}))
    dry = snakemake(wd, "-n", "--configfile", "example.yaml")
    assert dry.returncode == 0, dry.stderr[-2000:]
    counts = jobs_of_scenario(dry.stdout + dry.stderr, name)
    settings = yaml.safe_load((ROOT / "config/config.yaml").read_text())
    n_reimers_chunks = -(-settings["reimers"]["n_models"] // settings["reimers"]["chunk_size"])
    # the noise study reads its models from the Reimers chunks (the same models): no noise chunk of its own
    assert counts == {"summarise_noise": 1, "simulate_reimers_chunk": n_reimers_chunks, "summarise_reimers": 1,
                      "simulate_trust": 1, "trust_page": 1}
    (wd / "opt_out.yaml").write_text(yaml.safe_dump({"scenarios": example, "reimers": {"exclude": [name]},
                                                     "trust": {"exclude": [name]}}))
    dry = snakemake(wd, "-n", "--configfile", "opt_out.yaml")
    assert dry.returncode == 0, dry.stderr[-2000:]
    counts = jobs_of_scenario(dry.stdout + dry.stderr, name)
    assert "simulate_reimers_chunk" not in counts and "simulate_trust" not in counts
    assert counts["simulate_noise_chunk"] >= 1 and counts["summarise_noise"] == 1


def test_slurm_profile_dry_run(tmp_path):
    """The SLURM profile plans the whole default workflow (the jobs run on a cluster: cluster/local_slurm_check.sh)."""
    pytest.importorskip("snakemake_executor_plugin_slurm", reason="the [slurm] extra is not installed")
    wd = copy_workflow(tmp_path)
    dry = snakemake(wd, "--profile", "profiles/slurm", "-n")
    assert dry.returncode == 0, dry.stdout[-2000:] + dry.stderr[-2000:]
    counts = job_counts(dry.stdout + dry.stderr)
    assert counts["replication_report"] == 1 and counts["all"] == 1
    assert counts["simulate_reimers_chunk"] >= 7


def test_killed_run_resumes_to_identical_outputs_across_cores_and_chunk_sizes(tmp_path, reference_run):
    """Other chunk sizes, started at --cores 1 and SIGKILLed mid-study, unlocked and finished at --cores 8:
    outputs byte-identical to the uninterrupted reference run (--cores 2, default chunk sizes); jobs that were
    running when it died are rerun (never taken as complete)."""
    import base64
    import os
    import signal
    import time

    def incomplete_outputs(wd):
        """Outputs Snakemake has marked incomplete (.snakemake/incomplete holds their base64-encoded paths)."""
        root = wd / ".snakemake/incomplete"
        names = set()
        for path in root.rglob("*") if root.exists() else []:
            if path.is_file() and path.name != "migration_underway":
                encoded = "".join(part.lstrip("@") for part in path.relative_to(root).parts)
                names.add(base64.urlsafe_b64decode(encoded).decode())
        return names

    whole = reference_run
    killed = copy_workflow(tmp_path / "killed")
    other = yaml.safe_load((killed / ".test/config.yaml").read_text())
    # every chunked study split otherwise than in the reference run (which has one noise chunk per
    # scenario, two Reimers chunks per task, two Dror chunks per analysis, one competition and one
    # approaches job per cell, one harness, one suite and one fit job per variant)
    other["noise"]["chunk_size"] = 20
    other["reimers"]["chunk_size"] = 200
    other["dror"]["population"]["chunks"] = 1
    other["competition"]["study"]["chunk_size"] = 5
    other["approaches"]["chunk_size"] = 5
    other["harness"]["chunk_size"] = 3
    other["suite"]["chunk_size"] = 4
    other["fit"]["chunk_size"] = 4
    (killed / "other.yaml").write_text(yaml.safe_dump(other))
    proc = subprocess.Popen([sys.executable, "-m", "snakemake", "--cores", "1", "--configfile", "other.yaml"],
                            cwd=killed, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    results = killed / ".test/results"
    deadline = time.monotonic() + 600
    # mid-study: some simulation outputs exist, the study summaries do not yet
    while time.monotonic() < deadline and proc.poll() is None:
        if len(list(results.glob("*/**/chunks/*.parquet"))) >= 4:
            break
        time.sleep(0.2)
    assert proc.poll() is None, "the workflow finished before it could be killed"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    killed_at = time.time()
    assert not (results / "REPORT.md").exists()
    running = incomplete_outputs(killed)
    assert running, "no job was running when the workflow was killed"

    unlock = snakemake(killed, "--unlock", "--configfile", "other.yaml")
    assert unlock.returncode == 0, unlock.stderr[-2000:]
    run = snakemake(killed, "--cores", "8", "--configfile", "other.yaml")
    assert run.returncode == 0, run.stderr[-3000:]
    # the workflow leaves Snakemake's own settings alone: the cores asked for are the cores used
    assert "Provided cores: 8" in run.stdout + run.stderr
    # every output of a job that was running at the kill was written again, none taken as complete
    for name in running:
        assert (killed / name).stat().st_mtime > killed_at, name
    assert not incomplete_outputs(killed)
    assert sorted(p.name for p in (killed / ".test").rglob("*.tmp")) == []   # no debris of the killed writers
    assert_same_files(files_of(killed / ".test/results"), files_of(whole / ".test/results"))
    assert_same_files(files_of(killed / ".test/figures"), files_of(whole / ".test/figures"))


def test_long_jobs_keep_freed_memory_in_their_heap(monkeypatch):
    """simstats.sim.memory sets glibc's limits (the C library accepts every one of them), and a
    user's own MALLOC_* or GLIBC_TUNABLES setting wins (nothing is set).  How many page faults that saves
    depends on the kernel and the machine's memory, so the test does not count them."""
    import platform

    from simstats.sim.memory import keep_freed_memory

    for name in ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_", "GLIBC_TUNABLES"):
        monkeypatch.delenv(name, raising=False)
    assert keep_freed_memory() is (platform.libc_ver()[0] == "glibc")
    for name in ("MALLOC_TOP_PAD_", "GLIBC_TUNABLES"):
        monkeypatch.setenv(name, "0")
        assert keep_freed_memory() is False
        monkeypatch.delenv(name)
