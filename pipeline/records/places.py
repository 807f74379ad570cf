"""Where Kuaibu's own files are, run from a checkout or installed (a wheel, pipx, a frozen
bundle): the one place that tells the two apart.

A checkout keeps ``templates/``, the seed ``archive/rules.yaml`` and the browser extension
``browser/extension/`` beside ``main.py``, and works in ``archive/`` there. An installed copy
carries the same files inside the ``pipeline`` package (``pyproject.toml`` maps them there:
``pipeline/templates/``, ``pipeline/seed/rules.yaml``, ``pipeline/browser/extension/``) and
works in the user's data folder, since its own folder (site-packages) is no place for an archive.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]  # the pipeline package's folder
_BESIDE = PACKAGE.parent
# main.py and pyproject.toml beside the package: a checkout (editable installs included), not
# site-packages nor a bundle's folder
CHECKOUT: Path | None = (_BESIDE if (_BESIDE / "main.py").is_file()
                         and (_BESIDE / "pyproject.toml").is_file() else None)
APP_NAME = "kuaibu"


def data_home() -> Path:
    """The user's data folder: ``$XDG_DATA_HOME`` (else ``~/.local/share``) on Linux,
    ``%LOCALAPPDATA%`` on Windows, ``~/Library/Application Support`` on macOS. Read at each
    call: a test or a person may point ``XDG_DATA_HOME`` elsewhere for one command."""
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support"
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


def user_data_dir() -> Path:
    """Kuaibu's own folder in the user's data folder."""
    return data_home() / APP_NAME


TEMPLATES = CHECKOUT / "templates" if CHECKOUT else PACKAGE / "templates"
SEED_RULES = CHECKOUT / "archive" / "rules.yaml" if CHECKOUT else PACKAGE / "seed" / "rules.yaml"
# the browser extension a person loads unpacked (its manifest.json inside)
EXTENSION = (CHECKOUT / "browser" / "extension" if CHECKOUT
             else PACKAGE / "browser" / "extension")


def program_command(name: str) -> list[str] | None:
    """How another program (the desktop's menu, a browser) starts ``kuaibu`` or ``kuaibu-gui``:
    a bundle's program of that name beside this one, the script installed beside this Python
    (a venv, pipx), a checkout's ``main.py`` (which is both: no command opens the window), else
    the one on PATH; None when there is none."""
    program = f"{name}.exe" if sys.platform == "win32" else name
    if getattr(sys, "frozen", False):
        return [str(Path(sys.executable).parent / program)]
    for folder in (Path(sys.executable).parent, Path(sysconfig.get_path("scripts"))):
        if (folder / program).is_file():
            return [str(folder / program)]
    if CHECKOUT is not None:
        return [sys.executable, str(CHECKOUT / "main.py")]
    found = shutil.which(program)
    return [found] if found else None
