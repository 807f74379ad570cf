"""``install-desktop``: a menu entry the freedesktop validator accepts, icons in the hicolor
sizes, and ``--uninstall`` leaving nothing behind (issue 32)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from pipeline.cli.main import main
from pipeline.desktop.entry import APP_ICONS, desktop_file, exec_line
from tests.waiting import PATIENCE


def validate(entry: Path) -> None:
    """desktop-file-validate (Debian's desktop-file-utils, in the README's test setup)."""
    proc = subprocess.run(["desktop-file-validate", str(entry)], capture_output=True,
                          text=True, timeout=PATIENCE)
    assert (proc.returncode, proc.stdout + proc.stderr) == (0, "")


def test_install_and_uninstall(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    assert main(["install-desktop"]) == 0
    entry = data / "applications" / "kuaibu.desktop"
    validate(entry)
    text = entry.read_text(encoding="utf-8")
    assert "\nName=Kuaibu\n" in text and "\nName[zh_CN]=快捕\n" in text
    assert "\nIcon=kuaibu\n" in text
    for icon in APP_ICONS:
        size = icon.stem.rpartition("-")[2]
        assert (data / "icons" / "hicolor" / f"{size}x{size}" / "apps" / "kuaibu.png"
                ).read_bytes() == icon.read_bytes()
    assert (data / "icons" / "hicolor" / "scalable" / "apps" / "kuaibu.svg").is_file()
    assert f"wrote {entry}" in capsys.readouterr().out

    assert main(["install-desktop", "--uninstall"]) == 0
    assert list(data.iterdir()) == []
    assert f"removed {entry}" in capsys.readouterr().out
    assert main(["install-desktop", "--uninstall"]) == 0
    assert capsys.readouterr().out == "nothing to remove\n"


def test_an_awkward_path_is_quoted_as_the_spec_says(tmp_path: Path) -> None:
    """A program in a folder with spaces, quotes, a dollar, a backslash and a percent sign:
    the Exec line is still one the validator accepts, and reads back as the same words."""
    program = r'/opt/My Apps/"quoted" $HOME\x 100%/kuaibu-gui'
    assert exec_line([program]) == (
        r'"/opt/My Apps/\\"quoted\\" \\$HOME\\\\x 100%%/kuaibu-gui"')
    entry = tmp_path / "kuaibu.desktop"
    entry.write_text(desktop_file([program, "--archive", "/a b"]), encoding="utf-8")
    validate(entry)
