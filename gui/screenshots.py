"""Real screenshots of the window, English and Chinese, for the README.

``python -m gui.screenshots [--out docs/screenshots]`` serves the demo site on 127.0.0.1, runs
it in a fresh archive, opens the rules editor on an article and saves ``widget.grab()`` images.
Works headless (Qt's offscreen platform); a CJK font (e.g. WenQuanYi Micro Hei) must be installed.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication, QEventLoop, QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from gui.language import install_language  # noqa: E402
from gui.main_window.window import MainWindow  # noqa: E402
from pipeline.records.settings import Settings  # noqa: E402
from pipeline.records.task import Status
from pipeline.usecases.demo import DemoSite, serve_demo_site  # noqa: E402

DEFAULT_OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots"


def wait_until(done: Callable[[], bool], timeout: float = 60.0) -> None:
    """Run the event loop until ``done()`` holds (a script has no qtbot)."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise TimeoutError("the window did not get there in time")
        QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)


def shoot(language: str, out: Path, site: DemoSite, work: Path) -> list[Path]:
    prefs = QSettings(str(work / f"prefs-{language}.ini"), QSettings.Format.IniFormat)
    settings = Settings().with_overrides(host_delay_ms=20, retries=0)
    window = MainWindow(work / f"archive-{language}", prefs, settings)
    window.resize(1280, 800)  # a laptop screen: the size the layout is tested to fit
    window.show()
    wait_until(lambda: window.workspace is not None)
    category = "01_示例 Demo" if language == "zh_CN" else "01_Demo"
    window.intake.cat1.setCurrentText(category)
    window.intake.paste.setPlainText(site.paste_text())
    added: list[object] = []
    window.intake_done.connect(added.append)
    window.add_pasted()
    wait_until(lambda: bool(added))
    finished: list[object] = []
    window.run_finished.connect(finished.append)
    window.start_run()
    wait_until(lambda: bool(finished))
    built: list[object] = []
    window.build_finished.connect(built.append)
    window.build()
    wait_until(lambda: bool(built))
    window.intake.paste.setPlainText("\n".join(site.paste_text().splitlines()[:3]))
    # an article in the interface's language: the Chinese shot previews a Chinese page
    tasks = [t for t in window.model.tasks()
             if t.status in (Status.CLEANED, Status.LOCALIZED, Status.DONE)]
    chinese = [t for t in tasks if re.search(r"[\u4e00-\u9fff]", t.display_title)]
    shown = chinese[0] if language == "zh_CN" and chinese else tasks[0]
    window.select_task(shown.id)
    wait_until(lambda: window.preview.shown is not None)
    shots = [out / f"main_{language}.png"]
    window.grab().save(str(shots[0]))

    window.show_rules_editor()
    editor = window.rules_editor
    assert editor is not None
    editor.form.strip_extra.setText("h2, .byline")
    editor.write_form()
    tested: list[object] = []
    editor.task_preview.tested.connect(tested.append)
    editor.test_on_task()
    wait_until(lambda: bool(tested))
    shots.append(out / f"rules_{language}.png")
    editor.grab().save(str(shots[-1]))
    window.confirm = lambda _question: True  # the shot's rule edit is dropped, never saved
    window.close()
    return shots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder for the PNGs")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    with closing(serve_demo_site()) as site, \
            tempfile.TemporaryDirectory(prefix="kuaibu-shots-") as tmp:
        for language in ("en", "zh_CN"):
            installed = install_language(app, language)
            for path in shoot(language, args.out, site, Path(tmp)):
                print(path)
            install_language(app, "en", installed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
