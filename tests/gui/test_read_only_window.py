"""The window on an archive it cannot write (a read-only bind mount): it opens, lists and
searches; what would write is off, and the title and the status bar say why.

The mount needs a namespace of its own (``unshare -rm``), which a process with Qt's threads
cannot enter: the outer test runs the inner one in a fresh pytest inside the mount.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from gui.task_model import COLUMNS
from tests.gui.conftest import OpenWindow
from tests.small_archive import REPO, in_namespace, make_small_archive, namespaces_refused
from tests.waiting import PATIENCE, PATIENCE_MS

ARCHIVE_ENV = "KUAIBU_TEST_READ_ONLY_ARCHIVE"


def test_the_window_opens_a_read_only_archive_read_only(tmp_path: Path) -> None:
    reason = namespaces_refused(tmp_path)
    if reason is not None:
        pytest.skip(reason)
    root = make_small_archive(tmp_path / "archive")
    mount = in_namespace(f"mount --bind '{root}' '{root}'\nmount -o remount,bind,ro '{root}'")
    proc = subprocess.run(
        [*mount, sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         f"{Path(__file__).relative_to(REPO)}::test_inside_the_read_only_mount"],
        cwd=REPO, env={**os.environ, ARCHIVE_ENV: str(root)}, capture_output=True, text=True,
        timeout=5 * PATIENCE)  # a whole pytest session, window and all
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "1 passed" in proc.stdout


@pytest.mark.skipif(ARCHIVE_ENV not in os.environ,
                    reason="run by the test above, inside its read-only mount")
def test_inside_the_read_only_mount(qtbot: QtBot, open_window: OpenWindow,
                                    tmp_path: Path) -> None:
    root = Path(os.environ[ARCHIVE_ENV])
    assert not os.access(root, os.W_OK)  # really mounted read-only
    window = open_window(root)
    assert window.workspace is not None and window.workspace.read_only
    assert window.model.rowCount() == 3
    assert window.windowTitle().endswith("(read-only)")
    assert window.statusBar().currentMessage().startswith(f"Read-only: {root} cannot be written")
    for control in (window.run_action, window.build_action, window.harvest_action,
                    window.import_action, window.import_folder_action,
                    window.check_updates_action, window.rules_action, window.intake.add_button,
                    window.build_bar.button, window.demo_button, window.run_bar.run_button,
                    window.report_view.again_button):
        assert not control.isEnabled(), control
    assert window.find_action.isEnabled()
    assert window.export_action.isEnabled()  # an export only reads the archive
    with qtbot.waitSignal(window.export_finished, timeout=PATIENCE_MS) as blocker:
        window.export(tmp_path / "read-only.warc.gz")
    assert blocker.args[0] is not None and blocker.args[0].pages == 3
    window.table.selectRow(0)
    assert window.task_actions["copy_url"].isEnabled()
    assert window.task_actions["open_clean"].isEnabled()
    for key in ("remove", "run", "reclean", "category", "retry"):
        assert not window.task_actions[key].isEnabled(), key
    cell = window.proxy.index(0, COLUMNS.index("cat1"))
    assert not window.proxy.flags(cell) & Qt.ItemFlag.ItemIsEditable
    # reading works: a search answers from the index as it is
    with qtbot.waitSignal(window.search_panel.searched, timeout=PATIENCE_MS) as blocker:
        window.search_panel.field.setText("harbour")
        window.search_panel.search_now()
    assert blocker.args == ["harbour", 1]
    window.close()
