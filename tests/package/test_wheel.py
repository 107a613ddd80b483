"""The library works from a wheel: built from the checkout, installed in a fresh virtual environment, and run
outside the checkout, every command on the examples the wheel itself ships."""
from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(the fresh environment's bin folder, a working folder outside the checkout, the wheel)."""
    base = tmp_path_factory.mktemp("wheel")
    dist = base / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(dist),
                    str(ROOT)], check=True, capture_output=True, text=True)
    wheel = next(dist.glob("simstats-*.whl"))
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    bin_dir = venv / "bin"
    subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
                   check=True, capture_output=True, text=True)
    # the dependencies (numpy, pandas, scipy, ...) from this environment's site-packages, as a plain path: its
    # .pth files (among them the editable install of the checkout) are not processed there
    site = Path(subprocess.run([str(bin_dir / "python"), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               check=True, capture_output=True, text=True).stdout.strip())
    (site / "dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    work = base / "elsewhere"
    work.mkdir()
    return bin_dir, work, wheel


def run(installed, *args) -> str:
    bin_dir, work, _ = installed
    proc = subprocess.run([str(bin_dir / "simstats"), *args], cwd=work, capture_output=True, text=True, timeout=300,
                          env={"PATH": f"{bin_dir}:/usr/bin:/bin", "MPLBACKEND": "Agg", "HOME": str(work)})
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_the_wheel_ships_what_the_library_reads(installed):
    names = set(zipfile.ZipFile(installed[2]).namelist())
    for path in ("simstats/data/config.yaml", "simstats/data/config.schema.yaml", "simstats/sim/scenario.schema.yaml",
                 "simstats/data/examples/compstats_predictions.csv", "simstats/data/paper_targets.csv",
                 "simstats/studies/reimers2018/schema.yaml"):
        assert path in names, path
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(installed[2]).read(entry_points).decode()
    assert "[simstats.aso_methods]" in text and "[simstats.competition_presets]" in text


def test_the_installed_library_is_the_wheel_not_the_checkout(installed):
    bin_dir, work, _ = installed
    out = subprocess.run([str(bin_dir / "python"), "-c", "import simstats; print(simstats.__file__)"], cwd=work,
                         capture_output=True, text=True, check=True).stdout
    assert str(bin_dir.parent) in out and str(ROOT) not in out


def test_every_command_runs_on_the_packaged_examples(installed):
    import simstats

    assert run(installed, "--version").strip() == f"simstats {simstats.__version__}"
    examples = run(installed, "examples")
    commands = [line.strip() for line in examples.splitlines() if line.startswith("  simstats ")]
    assert len(commands) == 7
    ran = set()
    for command in commands:
        name, *args = command.split()[1:]
        out = run(installed, name, *args, *(["--format", "json"] if name in ("compare", "plan", "suite",
                                                                                 "compare-scores") else []))
        ran.add(name)
        if name in ("compare", "plan", "suite", "compare-scores"):
            assert json.loads(out)["settings"]["simstats_version"] == simstats.__version__
    assert ran == {"compare", "plan", "suite", "compare-scores", "competition", "fit", "check-config"}
    assert "ok: 12 scenarios" in run(installed, "check-config", run(installed, "examples", "config", "--path").strip())
    implied = json.loads(run(installed, "implied", "iid"))            # the built-in configuration
    assert set(implied) == {"A", "B"}


def test_registered_conventions_run_from_the_wheel(installed):
    scores = run(installed, "examples", "compare-scores", "--path").strip()
    out = json.loads(run(installed, "compare-scores", scores, "--tests", "aso", "--aso-method", "dror2019",
                         "--format", "json"))
    assert out["settings"]["aso_method"] == "dror2019"
    predictions = run(installed, "examples", "compare", "--path").strip()
    report = json.loads(run(installed, "competition", predictions, "--preset", "paper", "--n-resamples", "500",
                            "--format", "json"))
    assert report["settings"]["pvalue_rule"] == "fraction"
