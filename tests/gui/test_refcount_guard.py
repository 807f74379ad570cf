"""PySide6 6.12 drops references to None and True it never took; on Python 3.11 the gui
package makes them immortal first, so a long session cannot free them and abort."""

from __future__ import annotations

import sys

import pytest
from PySide6.QtCore import QObject, Signal

import gui  # noqa: F401 - the guard runs on import


class _Emitter(QObject):
    ping = Signal(object)


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="immortal singletons since 3.12")
def test_singletons_survive_many_emits(qapp) -> None:  # noqa: ANN001
    emitter = _Emitter()
    received: list[object] = []
    emitter.ping.connect(received.append)
    before = sys.getrefcount(True), sys.getrefcount(None)
    for _ in range(20_000):  # about ten times what freed True before the guard
        emitter.ping.emit(None)
    assert len(received) == 20_000
    assert sys.getrefcount(True) > 1 << 59 and sys.getrefcount(None) > 1 << 59
    assert before[0] - sys.getrefcount(True) <= 20_000
