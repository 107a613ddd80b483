import pytest

from simstats.sim.scenario import parse_scenario


@pytest.fixture
def make_scenario():
    """Build a scenario from keyword overrides of a small accuracy scenario."""
    def make(name="t", **overrides):
        spec = {"metric": "accuracy", "target": 0.8, "dev": {"items": 500}, "test": {"items": 500},
                "sigma_item": 1.0, "sigma_seed": 0.0, "sigma_shift": 0.0, "sigma_e": 0.7}
        spec.update(overrides)
        return parse_scenario(name, spec)
    return make


def run_cli(capsys, *args):
    """Run ``simstats`` in-process: (exit code, stdout, stderr)."""
    from simstats.cli import main

    code = main([str(a) for a in args])
    out = capsys.readouterr()
    return code, out.out, out.err


def write_table(tmp_path, frame, name="table.csv"):
    """Write a test table as CSV and return its path."""
    path = tmp_path / name
    frame.to_csv(path, index=False)
    return path
