"""Jinja2, strict and escaped (qutebrowser's habit): a missing variable is an error, never blank.

Templates come from ``<archive>/templates/`` first, so a person can override any of them, then
from the bundled ``templates/`` folder.
"""

from __future__ import annotations

from pathlib import Path

import jinja2

BUNDLED_TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def environment(archive_root: Path | None = None) -> jinja2.Environment:
    folders = [str(BUNDLED_TEMPLATES)]
    if archive_root is not None and (archive_root / "templates").is_dir():
        folders.insert(0, str(archive_root / "templates"))
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(folders),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )
