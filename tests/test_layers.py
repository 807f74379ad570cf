"""The layers hold: pipeline never imports the window; the window reaches the pipeline only
through the use cases and the records (named one by one where they live elsewhere); no two
modules import each other round in a circle, and no two packages either."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from tests.waiting import PATIENCE

REPO = Path(__file__).resolve().parent.parent
# The use-case layer and the records: the window may call anything in the one and read and
# pass back anything of the other (Anki's aqt/operations over its collection's types).
WINDOW_MAY_IMPORT = ("pipeline.usecases", "pipeline.records")
# What else the window may import, name by name: the records that live beside the code that
# makes them (a search hit beside the index, a rule's finding beside the rules), the constants
# its widgets need, and a few pure functions of a record's text that both faces must answer
# alike (so the window does not write its own). A new name goes here only if it is such a
# thing; anything that reads or writes the archive, fetches, extracts or binds is a use case.
RECORDS: dict[str, set[str]] = {
    "pipeline.store.archive": {"Archive", "DEFAULT_ARCHIVE", "utc_now"},
    "pipeline.store.duplicates": {"Decided", "Decision", "NearPair"},
    "pipeline.intake.links": {"IntakeReport", "PageKind", "read_text_source"},
    "pipeline.intake.saved_page": {"Refusal", "Refused"},
    "pipeline.rules.model": {"FormWidget", "RULE_SPECS", "RULES_CONTEXT", "Rules", "SiteRules"},
    "pipeline.store.search": {"Hit", "MARK"},
    "pipeline.rules.findings": {"Node", "Reason", "RuleEffect", "RuleKey", "Suggestion"},
    "pipeline.run.report": {"THROTTLED", "GONE", "REFUSED", "UNRESOLVED", "HOTLINK",
                            "IMAGE_TOO_LARGE", "WAYBACK", "Doubt", "LastReport", "Report"},
    "pipeline.text.textdiff": {"Hunk"},
    "pipeline.web.urls": {"bookmark_folders", "find_links", "host_in_domain", "host_of"},
}


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


def _window_imports() -> list[tuple[str, str, str | None]]:
    """(window module, pipeline module, name imported from it or None for the module)."""
    modules = {_module(f) for f in (REPO / "pipeline").rglob("*.py")}
    found: list[tuple[str, str, str | None]] = []
    for path in sorted((REPO / "gui").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found += [(_module(path), a.name, None) for a in node.names
                          if a.name.split(".")[0] == "pipeline"]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                base = node.module
                if base.split(".")[0] != "pipeline":
                    continue
                found += [(_module(path), f"{base}.{a.name}", None)
                          if f"{base}.{a.name}" in modules else (_module(path), base, a.name)
                          for a in node.names]
    return found


def test_the_window_imports_only_use_cases_and_records() -> None:
    beyond = sorted(f"{window} imports {module}" + (f".{name}" if name else "")
                    for window, module, name in _window_imports()
                    if not module.startswith(WINDOW_MAY_IMPORT)
                    and name not in RECORDS.get(module, set()))
    assert beyond == [], ("the window reaches past the use cases: make it a Workspace method,"
                          " or, for a record, name it in RECORDS")


FACES = ("pipeline.cli.main", "pipeline.usecases.workspace", "pipeline.usecases.demo")


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
             or any(m in FACES for m in c)]
    assert cross == []


def test_no_circle_between_packages() -> None:
    """Each top-level part of pipeline (a module, or a package such as extract/ taken whole)
    imports the others in one direction only: a package is a layer, not half of a circle."""
    def part(module: str) -> str:
        return ".".join(module.split(".")[:2])

    parts: dict[str, set[str]] = {}
    for name, deps in _graph().items():
        if name.startswith("pipeline"):
            parts.setdefault(part(name), set()).update(
                part(d) for d in deps if d.startswith("pipeline") and part(d) != part(name))

    def reaches(start: str) -> set[str]:
        seen: set[str] = set()
        todo = [start]
        while todo:
            for dep in parts.get(todo.pop(), set()) - seen:
                seen.add(dep)
                todo.append(dep)
        return seen

    reach = {name: reaches(name) for name in parts}
    circles = sorted(f"{a} -> {b}" for a in parts for b in parts[a] if a in reach[b])
    assert circles == []


def test_the_command_line_runs_without_qt() -> None:
    code = ("import sys, " + ", ".join(FACES) + ";"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('gui', 'PySide6'));"
            "print(bad); sys.exit(1 if bad else 0)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, timeout=PATIENCE)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_extract_over_a_folder_loads_no_use_cases(tmp_path: Path) -> None:
    """`main.py extract` is timed against trafilatura as a whole process: it loads the
    extractor and the command line, never the archive's use cases (the workspace, the
    fetcher, the runner, the book builder), nor what only some pages or other commands need
    (YAML for a rules file, the encoding guesser for an undeclared legacy page, the archive's
    store, the codecs of charsets no page has named, lxml.html for pasted links)."""
    code = ("import sys; from pipeline.cli.main import main;"
            f"main(['extract', '--dir', {str(tmp_path)!r}, '--jsonl', {str(tmp_path / 'o')!r}]);"
            "bad = sorted(m for m in sys.modules if m.startswith(('pipeline.usecases',"
            " 'pipeline.run', 'pipeline.book', 'pipeline.fetch', 'requests', 'PIL', 'yaml',"
            " 'charset_normalizer', 'pipeline.store.archive', 'encodings.koi8_r',"
            " 'lxml.html')));"
            "print(bad); sys.exit(1 if bad else 0)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, timeout=PATIENCE)
    assert proc.returncode == 0, proc.stdout + proc.stderr
