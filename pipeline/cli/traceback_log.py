"""Where a bug's traceback goes: the archive's 04_logs/errors.log, else a temp file. Apart
from ``main`` so that a command that answers on its own channel (``capture-host``) keeps one
the same way."""

from __future__ import annotations

import argparse

from pipeline.store.default_archive import archive_for


def keep_traceback(args: argparse.Namespace) -> str:
    """The current exception's traceback appended to the archive's 04_logs/errors.log, or to a
    temp file when that cannot be written; where it went."""
    import tempfile
    import traceback

    from pipeline.store.archive import utc_now

    text = f"{utc_now()} main.py {args.command}\n{traceback.format_exc()}"
    logs = archive_for(args.command, getattr(args, "archive", None)) / "04_logs"
    try:
        if logs.is_dir():
            with open(logs / "errors.log", "a", encoding="utf-8") as f:
                f.write(text)
            return str(logs / "errors.log")
    except OSError:
        pass
    try:
        with tempfile.NamedTemporaryFile("w", prefix="kuaibu-error-", suffix=".log",
                                         delete=False, encoding="utf-8") as f:
            f.write(text)
            return f.name
    except OSError:
        return "no file (none could be written)"
