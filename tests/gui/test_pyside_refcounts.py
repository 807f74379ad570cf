"""PySide6 must keep its references to None, True and False honest.

PySide6 6.12 treats them as immortal (as only Python >= 3.12 does) and drops references it never
took: on Python 3.11 a few thousand signal emits or Python ``data()`` calls free ``True`` or
``None`` and the interpreter aborts. pyproject.toml pins a version without that bug; this test
fails (in a child process, so the abort cannot take the test run with it) on one that has it.
"""

from __future__ import annotations

import os
import subprocess
import sys

from tests.waiting import PATIENCE

PROBE = """
import sys
from PySide6.QtCore import (QAbstractTableModel, QCoreApplication, QModelIndex, QObject, Qt,
                            Signal)
app = QCoreApplication([])
class Model(QAbstractTableModel):
    def rowCount(self, parent=QModelIndex()): return 3
    def columnCount(self, parent=QModelIndex()): return 3
    def data(self, index, role=Qt.ItemDataRole.DisplayRole): return None
class Emitter(QObject):
    ping = Signal(object)
emitter, model = Emitter(), Model()
emitter.ping.connect(lambda value: None)
before = sys.getrefcount(None), sys.getrefcount(True)
for n in range(30_000):
    emitter.ping.emit(None)
    model.index(1, 1).data()
after = sys.getrefcount(None), sys.getrefcount(True)
print(before[0] - after[0], before[1] - after[1])
"""


def test_no_references_to_none_or_true_are_lost() -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          timeout=2 * PATIENCE, env=env)
    assert proc.returncode == 0, proc.stderr[-500:]
    lost_none, lost_true = map(int, proc.stdout.split())
    assert lost_none < 100 and lost_true < 100  # 30,000 calls: a leak per call would show
