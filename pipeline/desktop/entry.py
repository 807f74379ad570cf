"""The app in the desktop's menu (freedesktop: GNOME, KDE, Xfce…): ``kuaibu.desktop`` in
``$XDG_DATA_HOME/applications`` and the icon in the hicolor theme's sizes beside it, for this
user only, with nothing to undo but the files ``uninstall`` removes."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

from pipeline.records.errors import KuaibuError
from pipeline.records.places import data_home, program_command

APP_ID = "kuaibu"  # the .desktop file's name and the icon's
ICONS = Path(__file__).resolve().parent / "icons"
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256)  # packaging/make_icons.py renders these
APP_ICONS = tuple(ICONS / f"{APP_ID}-{size}.png" for size in ICON_SIZES)  # the window's
# Exec's reserved characters (Desktop Entry Specification, "The Exec key"): an argument with
# any of them is quoted, and inside the quotes these four are escaped with a backslash.
_RESERVED = re.compile(r"[\s\"'\\><~|&;$*?#()`]")
_ESCAPED = re.compile(r"([\"`$\\])")


class DesktopError(KuaibuError):
    """No desktop entry can be written here; the message says why."""


def launch_command() -> list[str]:
    """How the menu starts the window (``places.program_command``)."""
    command = program_command("kuaibu-gui")
    if command is None:
        raise DesktopError("kuaibu-gui is not installed: install Kuaibu first (pipx install …)")
    return command


def exec_line(argv: list[str]) -> str:
    """``argv`` as the Exec key's value, quoted by the spec's rules, then escaped as a string
    value (so a backslash inside quotes is written four times)."""
    def quoted(arg: str) -> str:
        arg = arg.replace("%", "%%")
        return '"' + _ESCAPED.sub(r"\\\1", arg) + '"' if _RESERVED.search(arg) else arg

    return " ".join(quoted(a) for a in argv).replace("\\", "\\\\")


def desktop_file(argv: list[str]) -> str:
    return f"""[Desktop Entry]
Type=Application
Version=1.4
Name=Kuaibu
Name[zh_CN]=快捕
GenericName=Web Article Archiver
GenericName[zh_CN]=网页文章归档
Comment=Capture web articles for offline reading and bind them into books
Comment[zh_CN]=归档网页文章，离线阅读，装订成电子书
Keywords=epub;article;archive;offline;reader;
Keywords[zh_CN]=电子书;文章;归档;离线;阅读;
Exec={exec_line(argv)}
Icon={APP_ID}
Terminal=false
Categories=Network;
StartupNotify=true
"""


def _places(home: Path) -> dict[Path, Path | None]:
    """Every file the entry is, each with the bundled file it copies (None: the .desktop)."""
    hicolor = home / "icons" / "hicolor"
    files: dict[Path, Path | None] = {home / "applications" / f"{APP_ID}.desktop": None}
    for size, icon in zip(ICON_SIZES, APP_ICONS, strict=True):
        files[hicolor / f"{size}x{size}" / "apps" / f"{APP_ID}.png"] = icon
    files[hicolor / "scalable" / "apps" / f"{APP_ID}.svg"] = ICONS / f"{APP_ID}.svg"
    return files


def _home() -> Path:
    if not sys.platform.startswith("linux"):
        raise DesktopError("install-desktop writes a freedesktop menu entry (Linux); on Windows"
                           " and macOS the bundle's installer makes the shortcut")
    return data_home()


def install() -> list[Path]:
    """Write the .desktop file and the icons; the paths written."""
    home = _home()
    text = desktop_file(launch_command())
    written: list[Path] = []
    for place, source in _places(home).items():
        place.parent.mkdir(parents=True, exist_ok=True)
        if source is None:
            place.write_text(text, encoding="utf-8")
        else:
            shutil.copyfile(source, place)
        written.append(place)
    return written


def uninstall() -> list[Path]:
    """Remove what ``install`` wrote, and the folders it made that are empty now (never the
    data folder itself); the files removed."""
    home = _home()
    removed: list[Path] = []
    for place in _places(home):
        if place.is_file():
            place.unlink()
            removed.append(place)
        folder = place.parent
        while folder != home and folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
            folder = folder.parent
    return removed
