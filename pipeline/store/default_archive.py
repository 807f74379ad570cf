"""Where the archive lives when nobody names one: the ``archive`` folder beside main.py in a
checkout, ``archive`` in the user's data folder when installed (``records.places``).

Apart from ``archive`` so that the command line can name it in its help without importing
the archive's machinery: ``extract`` over a folder of pages opens no archive, and its whole
process is timed against trafilatura's (issue 27 §10)."""

from __future__ import annotations

from pathlib import Path

from pipeline.records.places import CHECKOUT, user_data_dir

DEFAULT_ARCHIVE = CHECKOUT / "archive" if CHECKOUT else user_data_dir() / "archive"


def book_archive() -> Path:
    """``book``'s archive when it is given none: ``book`` in the user's data folder, checkout
    or not (read at each call), so a second ``book`` of the same links reuses what the first
    fetched."""
    return user_data_dir() / "book"


def archive_for(command: str, given: str | None) -> Path:
    """The archive a command works in: the one given, else ``book``'s own (so one-off books
    do not fill the archive a person arranges), else the default one."""
    if given:
        return Path(given)
    return book_archive() if command == "book" else DEFAULT_ARCHIVE
