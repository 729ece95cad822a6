"""The package's shape (docs/architecture.md), checked on its imports: every `import` statement of
every module, the lazy ones inside functions included, read from the source."""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

import pytest

from pipeline import paths

PACKAGE = paths.REPO / "pipeline"
CORE = {"model", "errors", "atomic", "pua", "paths", "stage", "jsonlines", "variants", "readings", "people", "lexicon_file", "kaozheng"}
STAGES = {"ingest", "segment", "tag", "align", "parse", "export"}


def module_name(path: Path) -> str:
    rel = path.relative_to(paths.REPO).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def imports_of(path: Path) -> set[str]:
    """The pipeline modules a file imports (`from X import Y` counts as X.Y when Y is a module)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("pipeline"))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("pipeline") and not node.level:
            for a in node.names:
                sub = f"{node.module}.{a.name}"
                out.add(sub if is_module(sub) else node.module)
    return out


GRAPH = {module_name(p): imports_of(p) for p in sorted(PACKAGE.rglob("*.py"))}


def layer(module: str) -> str:
    """pipeline.segment.bilstm -> segment; pipeline.model -> core; pipeline.train.tag.crf -> train."""
    top = module.split(".")[1] if "." in module else ""
    return "core" if top in CORE else top


def test_the_graph_is_read():
    assert "pipeline.segment.bilstm" in GRAPH["pipeline.segment"]  # a lazy import, inside a function
    assert len(GRAPH) > 50


def test_no_import_cycle():
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        path.append(m)
        for n in sorted(GRAPH.get(m, ())):
            if state.get(n) == 1:
                pytest.fail("import cycle: " + " -> ".join(path[path.index(n):] + [n]))
            if n in GRAPH and not state.get(n):
                visit(n)
        path.pop()
        state[m] = 2

    for m in GRAPH:
        if not state.get(m):
            visit(m)


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_layers(module):
    """Core imports only core; a stage imports core and itself; run time never imports train/;
    export never imports the runner; nothing but the CLI and the runner's bench imports upward."""
    own = layer(module)
    for imported in GRAPH[module]:
        other = layer(imported)
        if own == "core":
            assert other == "core", f"{module} (core) imports {imported}"
        elif own in STAGES:
            assert other in ("core", own), f"{module} (stage {own}) imports {imported}"
        elif own in ("evaluate", "runner"):
            assert other not in ("train", "cli"), f"{module} (run time) imports {imported}"
        elif own == "train":
            assert other != "cli", f"{module} imports {imported}"


def test_only_paths_knows_the_checkout():
    own_file = re.compile(r"(?<![.\w])__file__")  # a module's own __file__ (opencc.__file__ is another package's)
    offenders = [str(p.relative_to(paths.REPO)) for p in PACKAGE.rglob("*.py")
                 if p.name != "paths.py" and own_file.search(p.read_text(encoding="utf-8"))]
    assert offenders == []
