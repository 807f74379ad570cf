"""Files read only inside the folder they were given in, never through a symbolic link.

A saved page names its resources by relative paths (``page_files/a.png``), and a hostile one
names ``../../etc/passwd``; a saved folder may hold a link to anywhere. Every read an import
makes of a saved page's resources goes through ``Folder``, so nothing outside what a person
gave is ever read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


class Folder:
    """A folder whose files an import may read: its real path, and a size bound per read."""

    def __init__(self, root: Path) -> None:
        self.root = Path(os.path.realpath(root))

    def holds(self, path: Path) -> bool:
        """Whether ``path`` (absolute or relative to the folder) lies inside the folder once
        ``..`` is resolved, no part of it below the folder a symbolic link."""
        full = Path(os.path.normpath(self.root / path))
        return full.is_relative_to(self.root) and Path(os.path.realpath(full)) == full

    def read(self, path: Path, limit: int) -> bytes | None:
        """The file's bytes, or None when it is outside the folder, reached through a link,
        not a regular file, unreadable or larger than ``limit``."""
        if not self.holds(path):
            return None
        full = Path(os.path.normpath(self.root / path))
        try:
            fd = os.open(full, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            return None
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(fd).st_mode):  # a FIFO would block, a device never end
                return None
            data = f.read(limit + 1)
        return data if len(data) <= limit else None
