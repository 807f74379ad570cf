"""Books built once per session and shared by the tests that read them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from pipeline.book import BuildResult, build_books
from pipeline.records.settings import Settings
from pipeline.records.task import Task
from pipeline.store.archive import Archive
from tests.pipeline.book.hostile import make_hostile_archive


@dataclass
class Built:
    archive: Archive
    tasks: list[Task]
    result: BuildResult


@pytest.fixture(scope="session")
def hostile_book(tmp_path_factory: pytest.TempPathFactory) -> Built:
    archive = Archive.open(tmp_path_factory.mktemp("hostile") / "archive")
    tasks = make_hostile_archive(archive)
    return Built(archive, tasks, build_books(archive, tasks, Settings()))


@pytest.fixture
def empty_archive(tmp_path: Path) -> Archive:
    return Archive.open(tmp_path / "archive")
