"""Render the app icon's hicolor sizes from its SVG (run again after changing the SVG):
``.venv/bin/python packaging/make_icons.py``. The PNGs are committed: ``install-desktop``
(the command line, which never loads Qt) copies them, and the window shows them."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from pipeline.desktop.entry import ICON_SIZES, ICONS  # noqa: E402


def main() -> None:
    app = QGuiApplication(sys.argv[:1] + ["-platform", "offscreen"])
    renderer = QSvgRenderer(str(ICONS / "kuaibu.svg"))
    for size in ICON_SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        image.save(str(ICONS / f"kuaibu-{size}.png"))
    del app


if __name__ == "__main__":
    main()
