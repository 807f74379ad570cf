"""How long one round of the rules editor's live preview takes, per demo article page.

The demo site is served on 127.0.0.1 and run into a fresh archive (``Workspace``, no window).
Then, for each stored article page:

- **work**: what the editor's job does for one edit — the rules from the form (its values set
  into the section's lines of the text and parsed, as ``RulesEditor.form_rules``), what each
  rule did (``Workspace.rule_effects``), the re-extraction (``test_rules``) and the chapter as
  the book shows it (``preview``);
- **window**: the same round in the real editor, offscreen, from a form edit to the preview
  shown (the job, the signal back, the chapter and raw text laid out), the 300 ms typing
  debounce left out (it is a wait, not work) and reported beside it.

Target (issue 13): a typical page within 1 s.
    python -m bench.rules_preview [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEventLoop, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from gui.rules_editor.window import DEBOUNCE_MS, RulesEditor  # noqa: E402
from gui.worker import Jobs  # noqa: E402
from pipeline.demo_site.catalog import ARTICLES  # noqa: E402
from pipeline.demo_site.server import DemoSite  # noqa: E402
from pipeline.records.errors import KuaibuError  # noqa: E402
from pipeline.records.settings import Settings  # noqa: E402
from pipeline.records.task import Task
from pipeline.rules.model import parse_rules  # noqa: E402
from pipeline.rules.text_edit import set_section_keys  # noqa: E402
from pipeline.usecases.workspace import Workspace  # noqa: E402
from pipeline.web.urls import host_of  # noqa: E402

# Two form states (Also remove, Title selector) an edit flips between, so every round has
# something new to extract.
EDITS = (("h2", ""), ("h2, .byline", "h1"))


def form_values(edit: tuple[str, str]) -> dict[str, object | None]:
    strip, title = edit
    return {"strip_extra": [s.strip() for s in strip.split(",")], "title_selector": title or None}


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


def one_round(workspace: Workspace, task: Task, text: str, edit: tuple[str, str]) -> None:
    rules = parse_rules(set_section_keys(text, host_of(task.url), form_values(edit)))
    workspace.rule_effects(task, rules)
    try:
        article = workspace.test_rules(task, rules)
    except KuaibuError:
        workspace.preview(task, None)
    else:
        workspace.preview(task, article, "the rules as typed, not saved")


def window_round(editor: RulesEditor, edit: tuple[str, str]) -> float:
    """From a form edit (its debounce skipped) to the preview shown, in seconds."""
    loop = QEventLoop()
    shown: list[float] = []

    def done(_live: object) -> None:
        shown.append(time.perf_counter())
        loop.quit()

    editor.task_preview.tested.connect(done)
    editor.form.strip_extra.setText(edit[0])
    editor.form.title_selector.setText(edit[1])
    start = time.perf_counter()
    editor.write_form()  # what the debounce timer calls once typing settles
    editor.refresh_preview()
    QTimer.singleShot(30_000, loop.quit)
    loop.exec()
    editor.task_preview.tested.disconnect(done)
    if not shown:
        raise RuntimeError("the preview never came")
    return shown[-1] - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds per page and edit")
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    settings = Settings().with_overrides(host_delay_ms=0, per_host_connections=8)
    with DemoSite() as site, tempfile.TemporaryDirectory() as tmp:
        workspace = Workspace.open(Path(tmp) / "archive", settings)
        workspace.add_links("\n".join(site.article_urls))
        workspace.run()
        paths = {a.path for a in ARTICLES}
        tasks = [t for t in workspace.tasks() if workspace.archive.has_raw(t.id)
                 and any(t.url.endswith(p) for p in paths)]
        text = workspace.archive.rules_path.read_text(encoding="utf-8")

        work: dict[int, list[float]] = {t.id: [] for t in tasks}
        for task in tasks:
            one_round(workspace, task, text, EDITS[0])  # warm: templates, selectors compiled
            for n in range(args.rounds * 2):
                start = time.perf_counter()
                one_round(workspace, task, text, EDITS[n % 2])
                work[task.id].append(time.perf_counter() - start)

        jobs = Jobs()
        editor = RulesEditor(workspace, jobs)
        editor.resize(1280, 800)
        editor.show()
        window: dict[int, list[float]] = {t.id: [] for t in tasks}
        for task in tasks:
            editor.set_task(task)
            window_round(editor, EDITS[1])  # warm
            for n in range(args.rounds * 2):
                window[task.id].append(window_round(editor, EDITS[n % 2]))
        editor.close()
        jobs.wait()

    print(f"{len(tasks)} demo article pages, {args.rounds * 2} rounds each;"
          f" {os.cpu_count()} cores")
    for name, times in (("work (form → rules → effects → test_rules → preview)", work),
                        ("window (form edit → preview shown, debounce excluded)", window)):
        every = [s for per in times.values() for s in per]
        per_page = {i: statistics.median(s) for i, s in times.items()}
        slowest = max(per_page, key=per_page.__getitem__)
        print(f"{name}: median {statistics.median(every) * 1000:.0f} ms,"
              f" p90 {percentile(every, 0.9) * 1000:.0f} ms,"
              f" max {max(every) * 1000:.0f} ms; slowest page #{slowest}"
              f" (median {per_page[slowest] * 1000:.0f} ms)")
    print(f"the typing debounce adds {DEBOUNCE_MS} ms before a round starts; target: within 1 s")


if __name__ == "__main__":
    main()
