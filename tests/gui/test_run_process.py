"""The run's child process protocol: what crosses the pipe comes back as it left."""

from __future__ import annotations

import io
import json
import os
from dataclasses import asdict
from pathlib import Path

from gui.run_process import (
    RUN_FIELDS,
    Job,
    progress_from_json,
    progress_to_json,
    run_changes,
    run_job,
    settings_from_json,
    settings_to_json,
)
from pipeline.demo_site.server import DemoSite
from pipeline.intake.links import add_links
from pipeline.records.events import Count, Progress
from pipeline.records.settings import Settings
from pipeline.store.tasks import TaskStore


def test_settings_and_jobs_survive_json() -> None:
    settings = Settings().with_overrides(retry_waits=(0.1, 0.3), host_delay_ms=5)
    assert settings_from_json(json.loads(json.dumps(settings_to_json(settings)))) == settings
    back = Job.from_json(Job("/tmp/a", settings_to_json(settings), "reclean", [3, 1]).to_json())
    assert (back.archive, back.mode, back.task_ids, back.retry_failed) == (
        "/tmp/a", "reclean", [3, 1], False)
    assert settings_from_json(back.settings) == settings


def test_a_run_writes_task_progress_and_done_lines(tmp_path: Path) -> None:
    settings = Settings().with_overrides(host_delay_ms=5, retries=0)
    with DemoSite() as site:
        store = TaskStore(tmp_path / "tasks.csv")
        add_links(store, "\n".join(site.article_urls[:2]), cat1="Kept")
        store.save()
        read_end, write_end = os.pipe()  # stdin that stays open, as the window's does
        with os.fdopen(read_end) as commands:
            out = io.StringIO()
            code = run_job(Job(str(tmp_path), settings_to_json(settings)), out, commands)
            os.close(write_end)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert code == 0 and lines[-1]["done"]["finished"] == 2
    tasks = [m["task"] for m in lines if "task" in m]
    assert {t["status"] for t in tasks} >= {"running", "fetched", "cleaned"}
    assert all(set(t) <= {"id", *RUN_FIELDS} for t in tasks)  # never a person's fields
    assert run_changes({"id": 1, "status": "done", "cat1": "x"}) == {"status": "done"}
    assert {t.cat1 for t in TaskStore(tmp_path / "tasks.csv").tasks()} == {"Kept"}


def test_progress_crosses_the_run_process_line_whole() -> None:
    p = Progress.of(3, 1.5, {Count.FINISHED: 2, Count.CHANGED: 1, Count.UNCHANGED: 1})
    assert progress_from_json(json.loads(json.dumps(progress_to_json(p)))) == p
    assert asdict(p)["changed"] == 1
