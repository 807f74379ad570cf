"""What each rules.yaml key does, in the interface's language: the form's tooltips and the
Keys… table are both made here from the keys' specs (``pipeline.rules.model.RULE_SPECS``), so
no list in the editor names the keys again. Apart because the form and the text's Keys… button both
read it, and it holds no state."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from gui.rules_editor.rich_text import esc
from pipeline.rules.model import RULE_SPECS, RULES_CONTEXT


def key_help() -> dict[str, str]:
    """Each key's help text in the interface's language, its default taken from the setting
    it overrides."""
    return {key: QCoreApplication.translate(RULES_CONTEXT, spec.help)
            .replace("%1", spec.shown_default) for key, spec in RULE_SPECS.items()}


def show_key_help(parent: QWidget) -> None:
    """Every key with its help, in a box over ``parent`` that does not block it."""
    rows = "".join(f"<tr><td><code>{key}</code></td><td>{esc(text)}</td></tr>"
                   for key, text in key_help().items())
    box = QMessageBox(QMessageBox.Icon.Information,
                      QCoreApplication.translate("KeysHelp", "rules.yaml keys"),
                      f"<table cellspacing=4>{rows}</table>", QMessageBox.StandardButton.Ok,
                      parent)
    box.setTextFormat(Qt.TextFormat.RichText)
    box.open()
