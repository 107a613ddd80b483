"""The package's layers import downwards only (DESIGN section 8).

io <- stats <- sim <- studies <- report <- (config, compare, cli, the package itself).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "simstats"

#: layer of a module -> the layers it may import from
ALLOWED = {
    "io": set(),
    "stats": {"stats"},
    "sim": {"stats", "sim", "io"},
    "studies": {"stats", "sim", "studies", "io"},
    "report": {"stats", "sim", "studies", "report", "io"},
    "app": {"stats", "sim", "studies", "report", "io", "app"},
}


def layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "app"
    if parts[1] in ("stats", "sim", "studies", "report", "io"):
        return parts[1]
    return "app"  # simstats.config, simstats.compare, simstats.cli, simstats.__init__


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
    assert layers == set(ALLOWED)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_imports_point_down(path):
    own = layer(module_name(path))
    bad = []
    for target in imported_modules(path):
        if target == "simstats":
            if own != "app":
                bad.append(target)
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
