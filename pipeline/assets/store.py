"""Content-addressed storing: 02_assets/<sha256[:2]>/<sha256>.<ext> (issue 5).

The name is the SHA-256 of the bytes written, so the same picture used by ten articles is one
file, a re-run writes nothing new, and no part of a URL ever reaches the file system.
"""

from __future__ import annotations

import hashlib

from pipeline.assets.images import Processed
from pipeline.store.archive import Archive, write_atomic


def store_image(archive: Archive, image: Processed) -> str:
    """Write ``image`` unless the same bytes are stored already; its path from the archive root."""
    digest = hashlib.sha256(image.data).hexdigest()
    path = archive.asset_path(digest, image.ext)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, image.data)
    return path.relative_to(archive.root).as_posix()
