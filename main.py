"""Kuaibu 快捕 — the launcher: no command opens the window; a command runs the same use
cases headless (``pipeline.cli.main``). The two faces never import each other."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path


def _no_display() -> bool:
    return (sys.platform.startswith("linux") and not os.environ.get("QT_QPA_PLATFORM")
            and not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"))


def main(argv: Sequence[str] | None = None, own_process: bool = False) -> int:
    """``own_process``: this process is the command's (see ``run_command``)."""
    from pipeline.cli.main import run_parsed
    from pipeline.cli.parser import build_parser

    parsed = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    if parsed.command is not None:
        return run_parsed(parsed, own_process)
    if _no_display():  # with no display to show the window on, say so instead of crashing
        build_parser().print_help()
        print("\nerror: no display to open the window on; try 'python main.py demo'",
              file=sys.stderr)
        return 1
    from gui.app import main as open_window  # Qt is imported only when a window is wanted

    return open_window(archive=Path(parsed.archive) if parsed.archive else None)


if __name__ == "__main__":
    sys.exit(main(own_process=True))
