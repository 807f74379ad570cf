"""Whether the desktop has a program for EPUB books, asked before handing it one.

``QDesktopServices.openUrl`` hands a file to ``xdg-open`` and says True once it has started,
whatever follows: with no program for EPUB it then fails (or falls back to a browser) where
the window never hears of it. Asking ``xdg-mime`` for the default first tells "none" apart,
so the window's own reader opens instead of nothing. Where no xdg-mime answers (Windows,
macOS, a bare system), only trying tells: ``openUrl``'s False is then the sign.
"""

from __future__ import annotations

import shutil
import subprocess
import sys

EPUB_TYPE = "application/epub+zip"
ASK_SECONDS = 10  # xdg-mime is a shell script; a desktop that hangs it is not waited for


def epub_program() -> str | None:
    """The desktop entry xdg-mime names for EPUB books ("" when it names none); None when it
    cannot be asked. Run in a job: it starts a process."""
    xdg_mime = shutil.which("xdg-mime")
    if xdg_mime is None or sys.platform in ("win32", "darwin"):
        return None
    try:
        answer = subprocess.run([xdg_mime, "query", "default", EPUB_TYPE], capture_output=True,
                                text=True, timeout=ASK_SECONDS, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return answer.stdout.strip() if answer.returncode == 0 else None
