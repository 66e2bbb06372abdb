"""The layout's one rule: imports point down the layers ARCHITECTURE.md draws. A module that
imports a package above its own, or a library layer that imports Dagster, fails here."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# package -> the raag packages it may import (besides itself). Lazy imports inside functions
# count too: a dependency taken at call time is still a dependency.
ALLOWED: dict[str, set[str]] = {
    "core": set(),
    "store": {"core"},
    "graph": {"core"},
    "ingest": {"core", "graph"},
    "retrieval": {"core", "store", "graph", "ingest"},
    "pipeline": {"core", "store", "graph", "ingest", "resources"},
    "resources": {"core", "store", "ingest"},
    "quality": {"core", "store", "graph", "ingest", "pipeline", "retrieval", "resources"},
    "interfaces": {
        "core",
        "store",
        "graph",
        "ingest",
        "pipeline",
        "retrieval",
        "quality",
        "resources",
    },
}
# Layers below the pipeline are libraries: no Dagster (STYLE.md: retrieval never imports it).
NO_DAGSTER = {"core", "store", "graph", "ingest", "retrieval"}
# The README's import paths from before the layout, kept as re-exports of the layers.
COMPAT = {
    "raag_assets/__init__.py",
    "raag_assets/search.py",
    "raag_assets/rerank.py",
    "raag_assets/context.py",
    "raag_assets/db.py",
    "raag_assets/ingest/__init__.py",
}


def layer_of_module(name: str) -> str | None:
    parts = name.split(".")
    if parts[0] == "resources":
        return "resources"
    if parts[0] != "raag_assets" or len(parts) < 2:
        return None
    if parts[1] == "definitions":
        return "pipeline"  # the code location's root, workspace.yaml loads it
    return parts[1] if parts[1] in ALLOWED else None


def layer_of_file(path: Path) -> str | None:
    rel = path.relative_to(ROOT).with_suffix("")
    return layer_of_module(".".join(rel.parts))


def imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(), filename=str(path))
    out: list[tuple[int, str]] = []
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            out.append((node.lineno, module))
            out += [(node.lineno, f"{module}.{a.name}") for a in node.names if module]
    return out


def violations(paths: list[Path]) -> list[str]:
    found = []
    for path in paths:
        rel = path.relative_to(ROOT).as_posix()
        layer = layer_of_file(path)
        if layer is None or rel in COMPAT:
            continue
        for line, module in imports(path):
            target = layer_of_module(module)
            if target and target != layer and target not in ALLOWED[layer]:
                found.append(f"{rel}:{line} ({layer}) imports {module} ({target})")
            if layer in NO_DAGSTER and module.split(".")[0] in ("dagster", "dagster_postgres"):
                found.append(f"{rel}:{line} ({layer}) imports {module}: a library layer")
    return sorted(set(found))


def package_files() -> list[Path]:
    return sorted([*(ROOT / "raag_assets").rglob("*.py"), *(ROOT / "resources").glob("*.py")])


def test_imports_point_down_the_layers() -> None:
    assert violations(package_files()) == []


def test_every_module_sits_in_a_layer() -> None:
    loose = [
        p.relative_to(ROOT).as_posix()
        for p in package_files()
        if layer_of_file(p) is None and p.relative_to(ROOT).as_posix() not in COMPAT
    ]
    assert loose == []


@pytest.mark.parametrize(
    ("layer", "source", "bad"),
    [
        ("store", "from raag_assets.pipeline import stages\n", True),
        ("retrieval", "import dagster as dg\n", True),
        ("retrieval", "def f():\n    from resources.embedder import EmbedderResource\n", True),
        ("graph", "from raag_assets.core.model import Edge\n", False),
        ("core", "from raag_assets.store import db\n", True),
    ],
)
def test_the_check_catches_an_upward_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, layer: str, source: str, bad: bool
) -> None:
    # A module written into a scratch copy of the layout: the check must flag it by layer.
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    module = tmp_path / "raag_assets" / layer / "probe.py"
    module.parent.mkdir(parents=True)
    module.write_text(source)
    assert bool(violations([module])) is bad
