"""Help → Keyboard shortcuts: every shortcut the window defines, read from its actions.

Read from the actions themselves (and any ``QShortcut``), never from a list written beside
them: a shortcut added, changed or taken away is listed as it is, so the list cannot go stale.
"""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)


def _said(keys: list[QKeySequence]) -> str:
    return ", ".join(k.toString(QKeySequence.SequenceFormat.NativeText) for k in keys
                     if not k.isEmpty())


def window_shortcuts(window: QWidget) -> list[tuple[str, str]]:
    """(what it does, its keys) for each action and shortcut of ``window`` that has keys, in
    the order they were made (menu order), each once."""
    found: list[tuple[str, str]] = []
    for action in window.findChildren(QAction):
        keys = _said(action.shortcuts())
        name = action.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
        if keys and name and (name, keys) not in found:
            found.append((name, keys))
    for shortcut in window.findChildren(QShortcut):
        keys = _said([shortcut.key()])
        name = shortcut.whatsThis() or shortcut.objectName()
        if keys and name and (name, keys) not in found:
            found.append((name, keys))
    return found


class ShortcutsDialog(QDialog):
    """The shortcuts as a two-column list: what, and the keys."""

    def __init__(self, shortcuts: list[tuple[str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Keyboard shortcuts"))
        self.list = QTreeWidget()
        self.list.setHeaderLabels([self.tr("Command"), self.tr("Keys")])
        self.list.setRootIsDecorated(False)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        for name, keys in shortcuts:
            self.list.addTopLevelItem(QTreeWidgetItem([name, keys]))
        self.list.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.list)
        layout.addWidget(buttons)
        self.resize(460, 420)
