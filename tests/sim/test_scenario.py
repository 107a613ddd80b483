from pathlib import Path

import jsonschema
import pytest
import yaml

from simstats.config import validate_config
from simstats.sim.scenario import ScenarioError, parse_scenario

ROOT = Path(__file__).resolve().parents[2]


def default_config():
    return yaml.safe_load((ROOT / "config" / "config.yaml").read_text())


def schema():
    from simstats.config import config_schema
    from simstats.sim.schema import load_schema

    return {**config_schema(), "$defs": load_schema()["$defs"]}


def test_default_config_is_valid_for_both_validators():
    config = default_config()
    settings = validate_config(config)
    jsonschema.validate(config, schema())
    required = {"iid", "correlated", "clustered", "failure_tail", "conll2003_ner_en", "conll2003_ner_de",
                "germeval2014_ner_de", "conll2000_chunking", "ace2005_entities", "ace2005_events", "tempeval3_events"}
    assert required <= set(settings.scenarios)
    assert settings.scenarios["conll2003_ner_en"].test.gold == 5648


@pytest.mark.parametrize("field, value, message", [
    ("sigma_e", -1, "scenarios.bad.sigma_e: must be >= 0"),
    ("metric", "bleu", "scenarios.bad.metric: unknown metric 'bleu'"),
    ("target", 1.2, "scenarios.bad.target: must be < 1"),
    ("sigma_seed", float("nan"), "scenarios.bad.sigma_seed: must be a finite number"),
    ("colour", "red", "scenarios.bad.colour: unknown field"),
    ("dev", {"items": 0}, "scenarios.bad.dev.items: must be >= 1"),
    ("test", {"gold": 10}, "scenarios.bad.test.gold: unknown field"),
    ("clusters", {"size": 10}, "scenarios.bad.clusters.sigma_c: required field is missing"),
    ("seed_distribution", {"family": "failure_mixture", "failure_prob": 1.5, "failure_shift": -1},
     "scenarios.bad.seed_distribution.failure_prob: must be < 1"),
    ("seed_distribution", {"family": "normal", "shape": 2}, "seed_distribution.shape: not a parameter"),
    ("approaches", {"A": {"difference": 0.5}}, "scenarios.bad.approaches.A.difference: target + difference"),
])
def test_invalid_fields_are_named(field, value, message):
    config = default_config()
    config["scenarios"]["bad"] = dict(config["scenarios"]["iid"], **{field: value})
    with pytest.raises(ScenarioError) as err:
        validate_config(config)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("field, value", [("sigma_e", -1), ("metric", "bleu"), ("target", 1.2), ("colour", "red")])
def test_schema_rejects_the_same_fields(field, value):
    config = default_config()
    config["scenarios"]["bad"] = dict(config["scenarios"]["iid"], **{field: value})
    with pytest.raises(jsonschema.ValidationError) as err:
        jsonschema.validate(config, schema())
    assert "bad" in list(err.value.absolute_path) or "bad" in str(err.value)


def test_study_settings_are_checked():
    config = default_config()
    config["noise"]["chunk_size"] = 7
    with pytest.raises(ScenarioError, match="noise.chunk_size: must be even"):
        validate_config(config)
    config = default_config()
    config["noise"]["scenarios"] = ["nope"]
    with pytest.raises(ScenarioError, match="noise.scenarios: unknown scenario 'nope'"):
        validate_config(config)


def test_spurious_pool_defaults_to_gold():
    sc = parse_scenario("x", {"metric": "f1", "target": 0.9, "dev": {"gold": 10}, "test": {"gold": 20, "spurious": 5}})
    assert sc.dev.spurious == 10 and sc.test.spurious == 5
    assert sc.test.n_items == 25 and sc.test.n_units == 25
