"""Jinja2, strict and escaped (qutebrowser's habit): a missing variable is an error, never blank.

Templates come from ``<archive>/templates/`` first, so a person can override any of them, then
from the bundled ``templates/`` folder (``records.places``: beside main.py in a checkout, inside
the package when installed).
"""

from __future__ import annotations

from pathlib import Path

import jinja2

from pipeline.records.places import TEMPLATES as BUNDLED_TEMPLATES


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
