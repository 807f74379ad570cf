"""The layers hold: pipeline never imports the window, the window reaches the pipeline only
through the workspace and the records, and no two modules import each other round in a circle."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# What the window may not reach past the workspace: the stages' machinery.
INTERNALS = ("pipeline.extract", "pipeline.stages", "pipeline.runner", "pipeline.fetch",
             "pipeline.book", "pipeline.assets", "pipeline.decode")


def _module(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every project module a file imports, at the top, in a function or for type checking."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    package = _module(path) if path.name == "__init__.py" else _module(path).rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1]
                                + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {m for m in found if m.split(".")[0] in ("pipeline", "gui", "main")}


def _graph() -> dict[str, set[str]]:
    files = [REPO / "main.py", *sorted((REPO / "pipeline").rglob("*.py")),
             *sorted((REPO / "gui").rglob("*.py"))]
    modules = {_module(f): f for f in files}
    return {name: {m for m in _imports(path) if m in modules and m != name}
            for name, path in modules.items()}


def test_pipeline_never_imports_the_window() -> None:
    reaching = {name: sorted(m for m in deps if m.startswith("gui"))
                for name, deps in _graph().items() if name.startswith("pipeline")}
    assert {name: deps for name, deps in reaching.items() if deps} == {}


def test_the_window_uses_no_pipeline_internals() -> None:
    reaching = {name: sorted(m for m in deps if m.startswith(INTERNALS))
                for name, deps in _graph().items() if name.startswith("gui")}
    assert {name: deps for name, deps in reaching.items() if deps} == {}


def test_no_import_circle() -> None:
    graph = _graph()
    cycles: list[list[str]] = []

    def visit(node: str, path: list[str], on_path: set[str], done: set[str]) -> None:
        for dep in sorted(graph[node]):
            if dep in on_path:
                cycles.append(path[path.index(dep):] + [dep])
            elif dep not in done:
                on_path.add(dep)
                visit(dep, path + [dep], on_path, done)
                on_path.discard(dep)
        done.add(node)

    done: set[str] = set()
    for start in sorted(graph):
        if start not in done:
            visit(start, [start], {start}, done)
    # a package's __init__ importing its own modules is no circle of two faces
    cross = [c for c in cycles if len({m.split(".")[0] for m in c}) > 1
             or any(m in ("pipeline.cli", "pipeline.workspace", "pipeline.demo") for m in c)]
    assert cross == []


def test_the_command_line_runs_without_qt() -> None:
    code = ("import sys, pipeline.cli, pipeline.workspace, pipeline.demo;"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('gui', 'PySide6'));"
            "print(bad); sys.exit(1 if bad else 0)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
