"""The JSON schema is the single source of the configuration's defaults: omitting optional fields works."""
import copy
from pathlib import Path

import pytest
import yaml

from simstats.cli import main
from simstats.config import CONFIG_SCHEMA_PATH, config_schema, validate_config
from simstats.sim.schema import load_schema

ROOT = Path(__file__).resolve().parents[2]
MISSING = object()
SCHEMA = {**config_schema(), "$defs": load_schema()["$defs"]}
# Optional in the schema but needed by a cross-field check in the default configuration:
# positive (metric f1 needs it), class_counts (the example's n defaults to their sum) and a
# scenario's reference (reimers.tasks "all" selects the scenarios with one).
CONDITIONAL = {"positive", "class_counts", "reference"}


def default_config():
    return yaml.safe_load((ROOT / "config" / "config.yaml").read_text())


def object_schemas(schema, path=()):
    """(path, schema) of every settings object: sections with ``properties`` and the entries of
    named maps (populations, designs, scenarios; "*" in the path).  A scenario's parts (splits,
    seed distribution, ...) depend on its metric and family and are not walked."""
    if "$ref" in schema:
        schema = SCHEMA["$defs"][schema["$ref"].rsplit("/", 1)[-1]]
    if schema.get("type") == "object" and "properties" in schema:
        yield path, schema
        if path[:1] == ("scenarios",):
            return
        for name, sub in schema["properties"].items():
            yield from object_schemas(sub, path + (name,))
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict) and ("properties" in extra or "$ref" in extra):
        yield from object_schemas(extra, path + ("*",))


SECTIONS = [(path, schema) for path, schema in object_schemas(SCHEMA)
            if path == () or set(schema["properties"]) - set(schema.get("required", [])) - CONDITIONAL]


def nodes(config, path):
    """The mappings of ``config`` at ``path`` ("*": every entry of a named map)."""
    found = [config]
    for key in path:
        found = [v for node in found for v in (node.values() if key == "*" else [node[key]] if key in node else [])]
    return found


def get(config, path, default=MISSING):
    node = config
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return default
        node = node[key]
    return node


def test_the_schema_ships_with_the_package_and_each_study_owns_its_section():
    import simstats.studies as registry

    assert (ROOT / "workflow" / "schemas" / "config.schema.yaml").resolve() == CONFIG_SCHEMA_PATH
    assert sorted(p.name for p in (ROOT / "workflow" / "schemas").iterdir()) == ["config.schema.yaml"]
    for study in registry.STUDIES:
        assert SCHEMA["properties"][study.config_key] == load_schema(study.directory / "schema.yaml")
    assert list((ROOT / "simstats").rglob("config.schema.yaml")) == [CONFIG_SCHEMA_PATH]     # one copy
    # applied once, by validate_config in workflow/rules/common.smk (the check-config command uses it too)
    assert "validate_config(config)" in (ROOT / "workflow" / "rules" / "common.smk").read_text()


def test_every_section_is_covered():
    names = {".".join(path) for path, _ in SECTIONS}
    assert {"", "noise", "competition", "competition.study", "competition.populations.*", "competition.examples.*",
            "competition.study.designs.*", "yeh", "yeh.sd_ratio", "yeh.clusters", "yeh.squad", "dror",
            "dror.population", "dror.size_power", "reimers", "reimers.power", "scenarios.*"} <= names


@pytest.mark.parametrize("path, schema", SECTIONS, ids=[".".join(p) or "top-level" for p, _ in SECTIONS])
def test_omitting_every_optional_field_of_a_section_uses_the_schema_defaults(path, schema):
    full = default_config()
    optional = [k for k in schema["properties"] if k not in schema.get("required", []) and k not in CONDITIONAL]
    if path == ():
        optional = [k for k in optional if k in ("results_dir", "figures_dir")]   # not whole studies
    omitted, expected, same = copy.deepcopy(full), copy.deepcopy(full), copy.deepcopy(full)
    for node, exp, sm in zip(nodes(omitted, path), nodes(expected, path), nodes(same, path)):
        for key in optional:
            node.pop(key, None)
            if "default" in schema["properties"][key]:
                exp[key] = copy.deepcopy(schema["properties"][key]["default"])
                if sm.get(key, MISSING) == schema["properties"][key]["default"]:
                    sm.pop(key)
            else:
                exp.pop(key, None)
    settings = validate_config(omitted)          # no KeyError, no ScenarioError
    assert settings == validate_config(expected)
    # where config/config.yaml sets the default value, omitting it changes nothing
    assert validate_config(same) == validate_config(full)


def test_yeh_population_fields_default_from_the_schema():
    """yeh.recall/spurious/gold_share/max_exact_cells used to pass validation when omitted and then
    raise KeyError in the simulation jobs."""
    config = default_config()
    for key in ("recall", "spurious", "gold_share", "max_exact_cells"):
        del config["yeh"][key]
    yeh = validate_config(config).yeh
    props = SCHEMA["properties"]["yeh"]["properties"]
    assert (yeh.recall, yeh.spurious, yeh.gold_share, yeh.max_exact_cells) == tuple(
        props[k]["default"] for k in ("recall", "spurious", "gold_share", "max_exact_cells"))


def test_check_config_applies_the_schema(tmp_path, capsys):
    config = default_config()
    del config["dror"]["population"]
    good = tmp_path / "good.yaml"
    good.write_text(yaml.safe_dump(config))
    assert main(["check-config", str(good)]) == 0
    assert "ok:" in capsys.readouterr().out
    config["dror"]["n_resamples"] = 5          # schema: minimum 10
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(config))
    assert main(["check-config", str(bad)]) != 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "dror.n_resamples: must be >= 10" in err


@pytest.mark.parametrize("section, old", [("noise", "n_boot"), ("dror", "n_bootstrap")])
def test_renamed_config_keys_still_work_with_a_warning(section, old):
    from simstats.config import validate_config

    config = yaml.safe_load((ROOT / "config/config.yaml").read_text())
    value = config[section].pop("n_resamples")
    config[section][old] = value + 1
    with pytest.warns(FutureWarning, match=f"config {section}.{old} is renamed {section}.n_resamples"):
        settings = validate_config(config)
    assert settings.studies[section].n_resamples == value + 1
    config[section]["n_resamples"] = value
    with pytest.raises(Exception, match="give n_resamples only"):
        validate_config(config)
