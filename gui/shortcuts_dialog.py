"""Help → Keyboard shortcuts: every shortcut the window defines, read from its actions.

Read from the actions themselves, never from a list written beside them: a shortcut added,
changed or taken away is listed as it is, so the list cannot go stale. Every shortcut of the
window is an action for that reason (the paste box's Ctrl+Enter too); tests/gui/test_layout.py
fails on a bare ``QShortcut``.
"""

from __future__ import annotations

import re

from PySide6.QtGui import QAction, QKeySequence
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

# a menu text's mnemonic as translations write it, after the words: "运行(&R)"
_MNEMONIC_AFTER = re.compile(r"\s*\(&[^)]\)")


def _said(keys: list[QKeySequence]) -> str:
    """The keys as the platform writes them, each once (Return and Enter may read alike)."""
    said = (k.toString(QKeySequence.SequenceFormat.NativeText) for k in keys if not k.isEmpty())
    return ", ".join(dict.fromkeys(said))


def _name(text: str) -> str:
    """A menu text without its mnemonic: "&Run" → "Run", "运行(&R)" → "运行"."""
    text = _MNEMONIC_AFTER.sub("", text)
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def window_shortcuts(window: QWidget) -> list[tuple[str, str]]:
    """(what it does, its keys) for each action of ``window`` that has keys, in the order
    they were made (menu order), each once."""
    found: list[tuple[str, str]] = []
    for action in window.findChildren(QAction):
        keys = _said(action.shortcuts())
        name = _name(action.text())
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
