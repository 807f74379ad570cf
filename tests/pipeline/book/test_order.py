"""The chapters' order inside a category (issue 29): the task list's by default, by published
date or by title as ``book_order`` / ``build --order`` says; the contents and index.html follow
the same order as the spine."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.cli.main import main
from pipeline.records.settings import Settings
from pipeline.records.task import Status
from pipeline.usecases.reading import book_contents
from pipeline.usecases.workspace import Workspace
from tests.pipeline.book.index_reading import index_text
from tests.pipeline.book.synthetic import add_article

# as pasted: Cherry, apple, Banana; by date: Banana (2021), Cherry (2022), apple (2023)
PASTED = (("Cherry", "2022-05-01"), ("apple", "2023-05-01"), ("Banana", "2021-05-01"))
ORDERS = {"list": ["Cherry", "apple", "Banana"], "published": ["Banana", "Cherry", "apple"],
          "title": ["apple", "Banana", "Cherry"]}


def pasted_archive(root: Path, settings: Settings) -> Workspace:
    ws = Workspace.open(root, settings)
    for title, day in PASTED:
        task = ws.store.add(f"https://fruit.example/{title}", cat1="01_Fruit")
        ws.store.update(task.id, status=Status.CLEANED)
        add_article(ws.archive, task.id, url=task.url, title=title, lang="en",
                    published=f"{day}T08:00:00+00:00", content_html=f"<p>{title} pie.</p>")
    ws.save()
    return ws


def bound_titles(ws: Workspace, book: Path) -> tuple[list[str], list[str], list[str]]:
    """The titles in the spine's, the contents' and index.html's order."""
    by_file = {f"text/a{t.id}.xhtml": t.url.rsplit("/", 1)[1] for t in ws.tasks()}
    contents = book_contents(book)
    spine = [by_file[p.split("EPUB/", 1)[-1]] for p in contents.spine
             if p.split("EPUB/", 1)[-1] in by_file]
    toc = [e.title for e in contents.toc if e.title in by_file.values()]
    text = index_text(ws.archive.output_dir / "index.html")
    index = sorted(by_file.values(), key=lambda t: text.index(f">{t}<"))
    return spine, toc, index


@pytest.mark.parametrize("order", list(ORDERS))
def test_the_book_order_setting_orders_spine_contents_and_index(tmp_path: Path,
                                                                order: str) -> None:
    ws = pasted_archive(tmp_path, Settings().with_overrides(book_order=order))
    [book] = ws.build().epubs
    assert bound_titles(ws, book) == (ORDERS[order],) * 3


def test_the_task_lists_order_is_the_default(tmp_path: Path) -> None:
    assert Settings().book_order == "list"


def test_build_order_on_the_command_line_wins_over_the_setting(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pasted_archive(tmp_path, Settings()).close()
    assert main(["build", "--archive", str(tmp_path), "--order", "title"]) == 0
    ws = Workspace.open(tmp_path, Settings())
    [book] = sorted(ws.archive.output_dir.glob("*.epub"))
    assert bound_titles(ws, book) == (ORDERS["title"],) * 3
    with pytest.raises(SystemExit):
        main(["build", "--archive", str(tmp_path), "--order", "size"])
    assert "invalid choice: 'size'" in capsys.readouterr().err


def test_a_book_binds_the_list_as_move_arranged_it(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Tasks moved on the command line (as the window's Move up/down): the default build's
    spine, contents and index.html follow the list as arranged, and so does --order list."""
    pasted_archive(tmp_path, Settings()).close()  # 1 Cherry, 2 apple, 3 Banana
    archive = ["--archive", str(tmp_path)]
    assert main(["move", *archive, "--id", "3", "--top"]) == 0
    assert main(["move", *archive, "--id", "1", "--before", "2"]) == 0  # no change: stays
    assert main(["move", *archive, "--id", "2", "--after", "3"]) == 0
    assert "moved 1 task after #3" in capsys.readouterr().out
    assert main(["build", *archive]) == 0
    ws = Workspace.open(tmp_path, Settings())
    [book] = sorted(ws.archive.output_dir.glob("*.epub"))
    arranged = ["Banana", "apple", "Cherry"]
    assert bound_titles(ws, book) == (arranged,) * 3
    assert main(["build", *archive, "--order", "list"]) == 0
    assert bound_titles(ws, book) == (arranged,) * 3


def test_move_refuses_what_it_cannot_do_in_one_line(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    pasted_archive(tmp_path, Settings()).close()
    archive = ["--archive", str(tmp_path)]
    before = (tmp_path / "tasks.csv").read_bytes()
    assert main(["move", *archive, "--id", "2", "--before", "2"]) != 0
    assert main(["move", *archive, "--id", "9", "--top"]) != 0
    errors = capsys.readouterr().err.splitlines()
    assert errors == ["error: #2 is one of the tasks moved; name another",
                      f"error: no task #9 in {tmp_path / 'tasks.csv'}"]
    with pytest.raises(SystemExit):
        main(["move", *archive, "--id", "2", "--top", "--bottom"])
    assert (tmp_path / "tasks.csv").read_bytes() == before
