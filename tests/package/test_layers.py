"""The package's layers import downwards only, every module is checked by name, no module outside the
pipeline's layers (studies/, report/) names a study, and no module imports itself through a cycle.

stats <- io <- sim <- studies <- report (the pipeline's side);
stats <- io <- sim <- app (compare, plan, suite, fit, config, the package) <- cli (the user's side).
stats/ imports nothing else of simstats; the user's side reaches the studies only through the registry
(``simstats.studies``, for the configuration's schemas), never a study's modules.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "simstats"

#: layer of a module -> the layers it may import from
ALLOWED = {
    "stats": {"stats"},
    "io": {"stats", "io"},
    "sim": {"stats", "io", "sim"},
    "studies": {"stats", "io", "sim", "studies", "registry"},
    "report": {"stats", "io", "sim", "studies", "registry", "report"},
    "app": {"stats", "io", "sim", "app", "registry"},
    "cli": {"stats", "io", "sim", "app", "cli"},
}

#: The public analyses and the configuration check, one module each (the "app" layer).
APP_MODULES = {"simstats", "simstats.compare", "simstats.plan", "simstats.suite", "simstats.fit", "simstats.config"}


def layer(module: str) -> str:
    """The layer of a module named in full; every module of the package has one (a new top-level module must be
    placed here, by name)."""
    parts = module.split(".")
    if module == "simstats.studies":
        return "registry"
    if len(parts) > 1 and parts[1] in ("stats", "sim", "studies", "report", "io", "cli"):
        return parts[1]
    if module in APP_MODULES:
        return "app"
    raise KeyError(f"{module}: no layer (add it to APP_MODULES or a layer's package)")


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path) -> list[str]:
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            out.append(target)
            out += [f"{target}.{a.name}" for a in node.names]
    return [m for m in out if m == "simstats" or m.startswith("simstats.")]


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_every_module_is_in_a_layer():
    layers = {layer(module_name(p)) for p in MODULES}
    assert layers == set(ALLOWED) | {"registry"}


def test_a_new_top_level_module_has_no_layer_until_placed():
    with pytest.raises(KeyError, match="no layer"):
        layer("simstats.helpers")


ALLOWED["registry"] = ALLOWED["studies"]


@pytest.mark.parametrize("path", [p for p in MODULES if layer(module_name(p)) in ("stats", "io", "sim", "app", "cli")],
                         ids=lambda p: module_name(p))
def test_the_user_side_names_no_study(path):
    """No module outside studies/ and report/ imports a study's modules or simstats.studies.reference; only
    simstats.config reaches the registry (the configuration's schemas)."""
    name = module_name(path)
    studies = [t for t in imported_modules(path) if t == "simstats.studies" or t.startswith("simstats.studies.")]
    allowed = {"simstats.studies", "simstats.studies.STUDIES"} if name == "simstats.config" else set()
    assert set(studies) <= allowed, f"{name} imports {sorted(set(studies) - allowed)}"


@pytest.mark.parametrize("path", [p for p in MODULES if layer(module_name(p)) == "stats"], ids=lambda p: module_name(p))
def test_stats_names_no_paper(path):
    """stats/ is paper-agnostic: no paper's key or author in its code (docstrings may cite a method's source)."""
    tree = ast.parse(path.read_text())
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef)) and n.body
                  and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    names = [n.id for n in ast.walk(tree) if isinstance(n, ast.Name)]
    strings = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
               and id(n) not in docstrings]
    keys = ("reimers2018", "yeh2000", "navamunoz2024", "dror2019", "nava_munoz", "PAPER")
    assert not [k for k in keys if any(k in s for s in names + strings)]


#: What report/ and simstats.config may import of simstats.studies: the registry and the ledger's vocabulary,
#: never a study's own modules.
REGISTRY_MODULES = {"simstats.studies", "simstats.studies.reference"}
MODULE_NAMES = {module_name(p) for p in MODULES}


def study_imports(path: Path) -> list[str]:
    """The modules of simstats.studies a module imports other than the registry's."""
    return sorted({t for t in imported_modules(path) if t in MODULE_NAMES and layer(t) in ("studies", "registry")
                   and t not in REGISTRY_MODULES})


@pytest.mark.parametrize("path", [p for p in MODULES if layer(module_name(p)) == "report"
                                  or module_name(p) == "simstats.config"], ids=lambda p: module_name(p))
def test_report_and_config_reach_the_studies_only_through_the_registry(path):
    assert study_imports(path) == []


def test_the_registry_check_sees_a_study_import():
    assert study_imports(PACKAGE / "studies" / "dror2019" / "settings.py") != []


@pytest.mark.parametrize("path", [p for p in MODULES if len(module_name(p).split(".")) > 3
                                  and layer(module_name(p)) == "studies"], ids=lambda p: module_name(p))
def test_a_study_imports_no_other_study(path):
    """A study imports its own modules and those the studies share (the modules of simstats.studies itself:
    the registry, the ledger's vocabulary, the settings of studies made of variants), no other study's."""
    own = module_name(path).split(".")[2]
    shared = {module_name(p) for p in (PACKAGE / "studies").glob("*.py")}
    assert [t for t in study_imports(path) if t.split(".")[2] != own and t not in shared] == []


def import_graph(modules=MODULES) -> dict[str, set[str]]:
    """module -> the package's modules it imports (module level or inside functions)."""
    return {module_name(p): {t for t in imported_modules(p) if t in MODULE_NAMES and t != module_name(p)}
            for p in modules}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle_in_the_package():
    assert cycles(import_graph()) == []


def test_the_cycle_check_sees_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_imports_point_down(path):
    own = layer(module_name(path))
    bad = []
    for target in imported_modules(path):
        if target == "simstats":
            if own not in ("app", "cli"):
                bad.append(target)
            continue
        if target not in MODULE_NAMES:       # a name imported from a module: its module was checked
            continue
        if layer(target) not in ALLOWED[own]:
            bad.append(target)
    assert not bad, f"{module_name(path)} ({own}) imports upwards: {sorted(set(bad))}"


def test_the_checker_sees_an_upward_import(tmp_path):
    """The test can fail: a stats module importing a study is reported."""
    fake = PACKAGE / "stats" / "bootstrap.py"
    source = "from simstats.studies.reference import paper_value\nfrom ..sim import seeding\n"
    probe = tmp_path / "probe.py"
    probe.write_text(source)
    targets = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            base = "simstats.stats".split(".")
            mod = node.module if not node.level else ".".join(base[:len(base) - node.level + 1] + [node.module])
            targets.append(mod)
    assert [layer(t) for t in targets] == ["studies", "sim"]
    assert not {layer(t) for t in targets} <= ALLOWED[layer(module_name(fake))]


def test_heavy_modules_are_imported_on_first_use():
    """A workflow job that never calls scipy.stats or statsmodels does not pay for importing them
    (simstats.stats.lazy); the first attribute access imports the real module."""
    import subprocess
    import sys

    code = ("import sys\n"
            "import simstats.studies.reimers2018.simulate, simstats.stats.aso, simstats.stats.classical, "
            "simstats.stats.multitest\n"
            "print(sorted(m for m in ('scipy.stats', 'scipy.optimize', 'statsmodels') if m in sys.modules))\n"
            "from simstats.stats import classical\n"
            "assert repr(classical.stats).endswith('(not imported yet)>')\n"
            "print(classical.stats.mannwhitneyu([1, 2, 3], [4, 5, 6]).pvalue)\n"
            "print('scipy.stats' in sys.modules, repr(classical.stats).endswith('(imported)>'))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[0] == "[]"
    assert float(out[1]) == pytest.approx(0.1)        # exact two-sided p of 3 vs 3 fully separated: 2 / 20
    assert out[2] == "True True"


def test_a_lazy_module_can_be_copied_without_importing():
    """copy.copy of a lazy module gives a lazy module (no recursion through the unset slots)."""
    import copy

    from simstats.stats.lazy import lazy_module

    twin = copy.copy(lazy_module("json"))
    assert repr(twin) == "<lazy module 'json' (not imported yet)>"
    assert twin.dumps([1]) == "[1]"


def test_a_lazy_module_can_be_patched_like_the_module():
    """Setting an attribute sets it on the real module (what unittest.mock.patch.object does)."""
    from unittest import mock

    import scipy.optimize

    from simstats.studies.reimers2018 import calibration

    original = scipy.optimize.least_squares
    with mock.patch.object(calibration.optimize, "least_squares", side_effect=RuntimeError("patched")):
        assert calibration.optimize.least_squares is scipy.optimize.least_squares is not original
    assert calibration.optimize.least_squares is scipy.optimize.least_squares is original


def test_quick_gc_freezes_statsmodels_imported_on_first_use():
    """statsmodels' Holm correction runs gc.collect() on every call; quick_gc imports statsmodels before
    it freezes the live objects, else every collection would scan all of statsmodels' objects."""
    import subprocess
    import sys

    code = ("import gc, sys\n"
            "from simstats.stats.multitest import quick_gc\n"
            "before = 'statsmodels.stats.multitest' in sys.modules\n"
            "with quick_gc():\n"
            "    module = sys.modules['statsmodels.stats.multitest']\n"
            "    collected = any(o is module.__dict__ for o in gc.get_objects())\n"
            "    print(before, collected)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]      # statsmodels' objects are frozen: no collection scans them
