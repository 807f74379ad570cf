"""Kuaibu installed as a person installs it (issue 32): ``pip install .`` of a copy of the
clone, not editable, into a fresh venv; then its commands run from another folder, with
nothing of the checkout on the path.

The venv borrows this environment's third-party packages (a ``.pth`` naming its
site-packages) so the test needs no network for PySide6 and the rest; Kuaibu itself is built
from the copy and installed into the new venv's own site-packages, and the first test asserts
that is where it is imported from.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.pipeline.book.validator import assert_valid
from tests.sites.articles import ArticleSite, article
from tests.test_desktop import validate
from tests.waiting import PATIENCE

REPO = Path(__file__).resolve().parent.parent


@dataclass
class Installed:
    venv: Path
    site_packages: Path
    home: Path  # HOME, and the XDG folders under it
    elsewhere: Path  # the working folder: not the checkout
    env: dict[str, str]

    def run(self, *args: str, stdin: str | None = None,
            **env: str) -> subprocess.CompletedProcess[str]:
        """An installed program (``kuaibu``, ``kuaibu-gui``, ``python``) as a person runs it."""
        return subprocess.run([str(self.venv / "bin" / args[0]), *args[1:]], input=stdin,
                              cwd=self.elsewhere, env={**self.env, **env},
                              capture_output=True, text=True, timeout=5 * PATIENCE)


def _copy_of_the_clone(to: Path) -> Path:
    """The files a fresh clone has (tracked, and new ones not ignored): never the archive's
    pages, a venv or a build folder."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], cwd=REPO, capture_output=True,
                            check=True, timeout=PATIENCE).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = REPO / name
        if source.is_file():
            (to / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, to / name)
    return to


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    base = tmp_path_factory.mktemp("install")
    clone = _copy_of_the_clone(base / "clone")
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=PATIENCE)
    python = venv / "bin" / "python"
    site_packages = Path(subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True, text=True, check=True, timeout=PATIENCE).stdout.strip())
    (site_packages / "_kuaibu_test_dependencies.pth").write_text(
        sysconfig.get_path("purelib") + "\n", encoding="utf-8")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                    "--no-deps", "--no-input", "--quiet", str(clone)],
                   check=True, timeout=10 * PATIENCE)
    home = base / "home"
    elsewhere = base / "elsewhere"
    elsewhere.mkdir()
    env = {"PATH": f"{venv / 'bin'}{os.pathsep}/usr/bin{os.pathsep}/bin", "HOME": str(home),
           "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config"),
           "LANG": "C.UTF-8", "QT_QPA_PLATFORM": "offscreen"}
    return Installed(venv, site_packages, home, elsewhere, env)


def test_every_package_is_in_the_wheel() -> None:
    """pyproject names its packages one by one (two are mapped from top-level folders): a new
    package of the tree missing there would be missing from every install."""
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
                 ["tool"]["setuptools"]["packages"])
    tree = {".".join(p.parent.relative_to(REPO).parts)
            for top in ("pipeline", "gui") for p in (REPO / top).rglob("__init__.py")}
    assert tree - listed == set()


def test_it_is_imported_from_the_install(installed: Installed) -> None:
    proc = installed.run("python", "-c", "import gui, pipeline, pipeline.records.places as p;"
                                         " print(pipeline.__file__, gui.__file__, p.CHECKOUT)")
    assert proc.returncode == 0, proc.stderr
    pipeline_file, gui_file, checkout = proc.stdout.split()
    assert Path(pipeline_file).is_relative_to(installed.site_packages), proc.stdout
    assert Path(gui_file).is_relative_to(installed.site_packages), proc.stdout
    assert checkout == "None"


def test_version_and_no_window_without_a_command(installed: Installed) -> None:
    from pipeline import __version__

    proc = installed.run("kuaibu", "--version")
    assert (proc.returncode, proc.stdout.strip()) == (0, f"kuaibu {__version__}")
    proc = installed.run("kuaibu")  # a display is there (offscreen): still no window
    assert proc.returncode == 2 and proc.stdout.startswith("usage: kuaibu"), proc.stderr


def test_demo(installed: Installed) -> None:
    proc = installed.run("kuaibu", "demo")
    assert proc.returncode == 0, proc.stderr
    archive = installed.home / "data" / "kuaibu" / "archive"  # the user's, not site-packages'
    assert f"Archive:    {archive}" in proc.stdout
    assert "failed 1 of 14 tasks" in proc.stdout  # as in the checkout: the anti-bot page
    assert "12 articles bound" in proc.stdout
    assert list((archive / "03_output").glob("*.epub"))


ARTICLES = {
    "/news/market.html": ("运河边的夜市",
                          "夜市沿着运河一字排开，摊主们在傍晚时分支起棚子，挂上灯笼，"
                          "卖小吃的、卖旧书的、修自行车的，各有各的吆喝声，一直热闹到深夜。"),
    "/news/bridge.html": ("老石桥的修缮",
                          "工匠们先把桥面的石板一块块编号拆下，清理拱券里的淤泥，"
                          "再用糯米灰浆重新砌筑，整个工程前后花了将近两年时间才完成。"),
}


def _page(path: str) -> str:
    title, text = ARTICLES[path]
    return article(title, [f"{n}. {text}" for n in range(1, 9)])


def test_book_from_links_and_stdin(installed: Installed, tmp_path: Path) -> None:
    """The whole job in one command: a dead link is named and the status is 3, the book is
    made of the rest and is valid; a second book of the same links fetches nothing again."""
    with ArticleSite() as site:
        one, two = (site.put(path, _page(path)) for path in ARTICLES)
        dead = site.url("/news/gone.html")
        out = tmp_path / "夜市.epub"
        proc = installed.run("kuaibu", "book", one, "-", dead, "-o", str(out), stdin=two)
        assert proc.returncode == 3, proc.stdout + proc.stderr
        assert f"not in the book: #3 {dead}" in proc.stdout
        assert proc.stdout.splitlines()[-1] == f"book: {out}"
        assert "2 articles bound" in proc.stdout
        assert_valid(out)
        fetched = len(site.requests)

        proc = installed.run("kuaibu", "book", one, two)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert len(site.requests) == fetched  # the archive under XDG_DATA_HOME had them
    made = installed.elsewhere / "运河边的夜市.epub"  # the first article's title
    assert proc.stdout.splitlines()[-1] == f"book: {made}"
    assert made.is_file()


def test_the_window_opens(installed: Installed) -> None:
    proc = installed.run("kuaibu-gui", "--quit-when-shown")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("shown: Kuaibu"), proc.stdout + proc.stderr


def test_the_desktop_entry_starts_the_installed_window(installed: Installed) -> None:
    proc = installed.run("kuaibu", "install-desktop")
    assert proc.returncode == 0, proc.stderr
    entry = installed.home / "data" / "applications" / "kuaibu.desktop"
    assert f"Exec={installed.venv / 'bin' / 'kuaibu-gui'}\n" in entry.read_text("utf-8")
    validate(entry)


# The installed window, driven as a person would: the archive opened, Run pressed, so the run's
# child process starts as the window starts it (gui.worker), from another working folder with
# nothing of the checkout on the path. It prints each task's status once the run has ended.
RUN_FROM_THE_WINDOW = """
import sys
from pathlib import Path

from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication

from gui.main_window.window import MainWindow
from pipeline.records.settings import Settings
from pipeline.usecases.workspace import Workspace

root, link, prefs, patience_ms = Path(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
settings = Settings().with_overrides(host_delay_ms=20, retries=1, retry_waits=(0.05,),
                                     read_timeout=5.0, tasks_flush_seconds=0.2)
workspace = Workspace.open(root, settings)
workspace.add_links(link)
workspace.close()
app = QApplication([])
window = MainWindow(root, QSettings(prefs, QSettings.Format.IniFormat), settings)
window.confirm = lambda question: True
window.archive_loaded.connect(lambda: window.run_bar.run_button.click())
window.run_finished.connect(lambda outcome: app.exit(0 if outcome is not None else 1))
QTimer.singleShot(patience_ms, lambda: app.exit(2))
window.show()
code = app.exec()
window.close()
for task in Workspace.open(root, settings).tasks():
    print(task.status)
sys.exit(code)
"""


def test_the_window_runs_a_task(installed: Installed, tmp_path: Path) -> None:
    from tests.waiting import RUN_PATIENCE_MS

    script = tmp_path / "run_from_the_window.py"
    script.write_text(RUN_FROM_THE_WINDOW, encoding="utf-8")
    with ArticleSite() as site:
        link = site.put("/news/market.html", _page("/news/market.html"))
        proc = installed.run("python", str(script), str(tmp_path / "archive"), link,
                             str(tmp_path / "prefs.ini"), str(RUN_PATIENCE_MS))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.split() == ["localized"], proc.stdout + proc.stderr  # a run's end


def test_the_browser_extension_is_installed(installed: Installed) -> None:
    """The extension is shipped in the package, and ``install-browser`` names that folder."""
    extension = installed.site_packages / "pipeline" / "browser" / "extension"
    source = REPO / "browser" / "extension"
    shipped = {p.relative_to(extension) for p in extension.rglob("*") if p.is_file()}
    assert shipped == {p.relative_to(source) for p in source.rglob("*") if p.is_file()}
    assert (extension / "manifest.json").read_bytes() == (source / "manifest.json").read_bytes()
    proc = installed.run("kuaibu", "install-browser")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == (f"load the extension unpacked from {extension}"
                                            " (see README)")
