"""A book's images are told by their bytes, by the one magic-byte table (``assets.sniff``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.book.chapters import ImageCatalog
from pipeline.store.archive import Archive

WEBP = b"RIFF\x24\x00\x00\x00WEBPVP8 " + bytes(24)


@pytest.mark.parametrize("name, data, want", [
    ("a.png", b"\xff\xd8\xff\xe0" + bytes(40), ("jpg", "image/jpeg")),  # the name lies
    ("b", b"\x89PNG\r\n\x1a\n" + bytes(40), ("png", "image/png")),
    ("c.gif", b"GIF89a" + bytes(40), ("gif", "image/gif")),
    ("d.webp", WEBP, ("webp", "image/webp")),
    # "WEBP" without the RIFF container it lives in is no WebP
    ("e.webp", b"XXXX\x24\x00\x00\x00WEBPVP8 " + bytes(24), None),
    # read by the stage (converted there), never put into a book as they are
    ("f.bmp", b"BM" + bytes(60), None),
    ("g.jpg", b"<!doctype html><html><body>404</body></html>", None),
])
def test_a_book_image_is_its_bytes(tmp_path: Path, name: str, data: bytes,
                                   want: tuple[str, str] | None) -> None:
    archive = Archive.open(tmp_path / "folder")
    archive.assets_dir.mkdir(parents=True, exist_ok=True)
    (archive.assets_dir / name).write_bytes(data)
    relative = (archive.assets_dir / name).relative_to(archive.root).as_posix()
    found = ImageCatalog(archive).lookup(relative)
    if want is None:
        assert found is None
    else:
        assert found is not None
        stem = Path(name).stem
        assert (found.name, found.media_type) == (f"images/{stem}.{want[0]}", want[1])
