"""The small jobs of a big library (issue 30): what a one-article build asks of the others is
their fingerprints, compared in builtins without numpy."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pipeline.records.task import Status, Task
from pipeline.store.duplicates import near_pairs
from tests.waiting import PATIENCE

REPO = Path(__file__).resolve().parents[2]


def _quiet_process(code: str) -> None:
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, timeout=PATIENCE)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_pairs_involving_one_task_need_no_numpy() -> None:
    """A one-article build asks about one task: its hash is compared with the others' in
    builtins, without the import of numpy (longer than the comparison at 100,000 tasks)."""
    _quiet_process("import sys; from pipeline.text.dedup import near_duplicate_pairs;"
                   "pairs = near_duplicate_pairs([1, 2, 3], [0b1011, 0b0011, 0xFFFF << 40],"
                   " involving={2});"
                   "assert pairs == [(1, 2, 1)], pairs;"
                   "bad = sorted(m for m in sys.modules if m.split('.')[0] == 'numpy');"
                   "print(bad); sys.exit(1 if bad else 0)")


def test_pairs_of_one_task_are_the_pairs_all_tasks_have_with_it() -> None:
    """Asked of one task, the tasks close to it that may not be proposed (not cleaned, a
    duplicate no one decided) are left out as in the search over all."""
    close = {3: Status.LOCALIZED, 5: Status.PENDING, 7: Status.CLEANED, 9: Status.DUPLICATE,
             11: Status.DONE}
    tasks = [Task(n, f"https://a.example/{n}", status=close.get(n, Status.LOCALIZED),
                  fingerprint=f"{(0xFF if n in close else n << 20):016x}")
             for n in range(1, 41)]

    def pairs(involving: set[int] | None) -> list[tuple[int, int]]:
        return [(p.first.id, p.second.id)
                for p in near_pairs(tasks, {}, lambda task_id: None, involving=involving)]

    assert pairs({3}) == [(3, 7), (3, 11)]
    assert pairs({3}) == [p for p in pairs(None) if 3 in p]
