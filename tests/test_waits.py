"""The tests wait as tests/waiting.py says: every pytest-qt wait up to PATIENCE_MS or, on the
window's run, RUN_PATIENCE_MS (pytest-qt's own default is 5 s, which a loaded machine misses),
and no fixed sleep outside a test server's handlers (where a delay is the thing served).
Checked on the source, so a new test that waits another way fails here, on any machine, rather
than on a slow one some day."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
PATIENT = {"PATIENCE_MS", "RUN_PATIENCE_MS"}  # tests/waiting.py: any wait, a wait on a run
QT_WAITS = {"waitUntil", "waitSignal", "waitSignals", "waitExposed", "waitActive", "waitCallback"}
SLEEPS = {"time.sleep", "sleep", "qtbot.wait", "QTest.qWait"}
SERVERS = TESTS / "sites"  # handlers that delay on purpose (a slow page, a late API answer)


def _calls(path: Path) -> list[tuple[int, str, ast.Call]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(node.lineno, ast.unparse(node.func), node) for node in ast.walk(tree)
            if isinstance(node, ast.Call)]


def _sources() -> list[Path]:
    return sorted(TESTS.rglob("*.py"))


def test_every_qt_wait_is_patient() -> None:
    short = [f"{path.relative_to(TESTS)}:{line} {name}"
             for path in _sources() for line, name, call in _calls(path)
             if name.rsplit(".", 1)[-1] in QT_WAITS
             and not any(k.arg == "timeout" and ast.unparse(k.value) in PATIENT
                         for k in call.keywords)]
    assert short == [], "pass timeout=PATIENCE_MS (tests/waiting.py) to: " + ", ".join(short)


def test_no_test_sleeps() -> None:
    sleeps = [f"{path.relative_to(TESTS)}:{line}"
              for path in _sources() if SERVERS not in path.parents
              and path.name != "waiting.py"  # its polls between looks at a condition
              for line, name, _ in _calls(path) if name in SLEEPS]
    assert sleeps == [], "wait on a condition (tests/waiting.py), not a sleep: " + ", ".join(
        sleeps)
