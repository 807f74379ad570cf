"""Stopping a build (issue 29): ``Workspace.build``'s ``should_stop`` is asked at every article,
and a build asked to stop ends there with ``BuildCancelled``, leaving 03_output as it was (no
book, no temp file, no staging folder) and marking nothing done; Ctrl+C in a terminal does the
same through the ``build`` command."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.records.errors import BuildCancelled
from pipeline.records.settings import Settings
from pipeline.records.task import Status
from pipeline.usecases.workspace import Workspace
from tests.pipeline.book.synthetic import add_article
from tests.waiting import PATIENCE

REPO = Path(__file__).resolve().parents[3]
WORDS = ("harbour wall stone spring bridge river lantern market ferry tide rope timber mill"
         " orchard kiln loom quarry beacon chapel granary").split()


def text_of(k: int) -> str:
    """Article ``k``'s own paragraphs (texts alike would be near duplicates, left out)."""
    pick = random.Random(k).choice
    return "".join("<p>" + " ".join(pick(WORDS) for _ in range(120)) + ".</p>"
                   for _ in range(4))


def many_articles(root: Path, n: int) -> Path:
    """An archive of ``n`` localized articles in one category: a build of some seconds."""
    ws = Workspace.open(root, Settings())
    for k in range(n):
        task = ws.store.add(f"https://many.example/{k}", cat1="01_Many")
        ws.store.update(task.id, status=Status.LOCALIZED)
        add_article(ws.archive, task.id, url=task.url, title=f"Article {k}", lang="en",
                    content_html=text_of(k), images={})
    ws.save()
    ws.close()
    return root


def output_files(root: Path) -> list[str]:
    """Everything in 03_output, hidden temp files and staging folders too."""
    out = root / "03_output"
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) if out.exists() else []


def statuses(root: Path) -> set[Status]:
    return {t.status for t in Workspace.open(root, Settings()).tasks()}


def test_should_stop_ends_the_build_at_the_next_article(tmp_path: Path) -> None:
    root = many_articles(tmp_path / "many", 12)
    before = output_files(root)
    ws = Workspace.open(root, Settings())
    steps: list[int] = []
    with pytest.raises(BuildCancelled):
        ws.build(progress=lambda done, total: steps.append(done),
                 should_stop=lambda: len(steps) >= 3)
    assert steps == [1, 2, 3]  # asked at every article: none after the answer changed
    assert output_files(root) == before
    assert statuses(root) == {Status.LOCALIZED}
    [book] = ws.build(should_stop=lambda: False).epubs  # a build after it is whole
    assert book.is_file() and statuses(root) == {Status.DONE}


def test_ctrl_c_in_a_terminal_stops_the_build_and_leaves_nothing_half_written(
        tmp_path: Path) -> None:
    root = many_articles(tmp_path / "many", 150)
    before = output_files(root)
    proc = subprocess.Popen([sys.executable, str(REPO / "main.py"), "build", "--archive",
                             str(root)], cwd=REPO, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stderr is not None
    first = proc.stderr.readline()  # the progress bar's first line: binding has begun
    assert "binding" in first, first
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=PATIENCE)
    assert proc.returncode == 130, err
    assert err.strip().splitlines()[-1] == (
        "stopped: build cancelled; nothing half-written is left in the output folder")
    assert "Traceback" not in err and "EPUB:" not in out
    assert output_files(root) == before
    assert statuses(root) == {Status.LOCALIZED}
