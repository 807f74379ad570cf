"""Where the archive lives when nobody names one: the ``archive`` folder beside the program.

Apart from ``archive`` so that the command line can name it in its help without importing
the archive's machinery: ``extract`` over a folder of pages opens no archive, and its whole
process is timed against trafilatura's (issue 27 §10)."""

from __future__ import annotations

from pathlib import Path

DEFAULT_ARCHIVE = Path(__file__).resolve().parents[2] / "archive"
