"""What a person gave to import, as files and the importer for each.

Files are taken as given; folders are walked recursively without following a symbolic link
(a link found inside is refused, whatever it points at). The resources folder a browser
writes beside a "complete" page (``name_files/``, IE's ``name.files/``) belongs to that page
and is not walked for pages of its own. Each file goes to the importer its name calls for;
one that none takes is refused, and the walk goes on.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from pipeline.intake.mhtml import read_mhtml
from pipeline.intake.saved_html import HEAD_BYTES, read_saved_html, saved_mark
from pipeline.intake.saved_page import Found, Importer, ImportLimits, Refusal, Refused
from pipeline.intake.warc_reader import WARC_SUFFIXES, read_warc

# The importers by the end of a file's name (lowercased); the first that matches reads it.
IMPORTERS: tuple[tuple[tuple[str, ...], Importer], ...] = (
    ((".html", ".htm", ".xhtml", ".shtml"), read_saved_html),
    ((".mhtml", ".mht"), read_mhtml),
    (WARC_SUFFIXES, read_warc),
)
# What a folder of saved pages holds beside them that is nobody's page
_IGNORED = frozenset({"thumbs.db", "desktop.ini", ".ds_store"})
_RESOURCE_FOLDER_ENDINGS = ("_files", ".files")
_PAGE_SUFFIXES = (".html", ".htm")


def importer_for(path: Path) -> Importer | None:
    """The importer for a file, by its name; None when no importer takes it."""
    name = path.name.lower()
    return next((importer for endings, importer in IMPORTERS if name.endswith(endings)), None)


def saved_page_file(path: Path) -> bool:
    """Whether ``path`` is something to import rather than a page of links: a folder, a file
    only an importer reads (MHTML), or an HTML file marked as saved by a browser or
    SingleFile, or with its resources folder beside it."""
    if path.is_dir():
        return True
    importer = importer_for(path)
    if importer is None or not path.is_file():
        return False
    if importer is not read_saved_html:
        return True
    if any((path.parent / (path.stem + ending)).is_dir() for ending in _RESOURCE_FOLDER_ENDINGS):
        return True
    try:
        with open(path, "rb") as f:
            head = f.read(HEAD_BYTES)
    except OSError:
        return False
    return saved_mark(head)


def given_files(paths: Iterable[Path]) -> Iterator[Path | Refused]:
    """Each file to import, in a stable order, or why a path given (or found) is refused."""
    for given in paths:
        if given.is_dir():
            yield from _walk(given)
        elif given.is_file():
            yield given
        else:
            yield Refused(str(given), Refusal.UNREADABLE, "not a file or folder")


def _walk(top: Path) -> Iterator[Path | Refused]:
    for folder, dirs, files in os.walk(top, followlinks=False):
        here = Path(folder)
        for name in sorted(dirs):  # a link to a folder is listed among the folders
            if (here / name).is_symlink():
                yield Refused(str(here / name), Refusal.SYMLINK, os.readlink(here / name))
        dirs[:] = sorted(d for d in dirs
                         if not (here / d).is_symlink() and not _resources_of_a_page(here, d))
        for name in sorted(files):
            path = here / name
            if path.is_symlink():
                yield Refused(str(path), Refusal.SYMLINK, os.readlink(path))
            elif name.lower() not in _IGNORED and not name.startswith("."):
                yield path


def _resources_of_a_page(folder: Path, name: str) -> bool:
    """Whether the folder ``name`` is the resources folder of a page saved beside it."""
    lowered = name.lower()
    for ending in _RESOURCE_FOLDER_ENDINGS:
        if lowered.endswith(ending):
            stem = name[: -len(ending)]
            return any((folder / (stem + suffix)).is_file()
                       for suffix in (*_PAGE_SUFFIXES, *(s.upper() for s in _PAGE_SUFFIXES)))
    return False


def read_file(path: Path, limits: ImportLimits) -> Iterator[Found]:
    """What one file holds, by the importer its name calls for; refused when none does."""
    importer = importer_for(path)
    if importer is None:
        yield Refused(str(path), Refusal.UNKNOWN_FORMAT, path.suffix)
        return
    yield from importer(path, limits)
