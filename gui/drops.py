"""What a person drops (or pastes as files) on the window, read as text for intake.

Plain text and a browser's links are taken as they are; local files are read by their kind
(``read_drop``): lists of links (.txt, .md, .csv), web pages (.html, .htm: a browser's
bookmarks export is read as bookmarks, with the folders each link sits in; another page
gives its links), Windows Internet Shortcuts (.url: their ``URL=`` line). Folders and saved
pages (MHTML, a page a browser or SingleFile saved: ``importable``) are not read here but
listed to import (``Drop.saved``). Anything else is refused with a sentence saying what and
why, never pasted as a blank or as bytes.
``DropTarget`` lets a window take drops anywhere on it.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QMimeData, QObject, QUrl, Signal
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QAbstractScrollArea, QWidget

from pipeline.intake.links import read_text_source
from pipeline.records.errors import KuaibuError
from pipeline.usecases.importing import importable
from pipeline.web.urls import bookmark_folders, find_links

LIST_SUFFIXES = (".txt", ".md", ".csv")
PAGE_SUFFIXES = (".html", ".htm")
SHORTCUT_SUFFIXES = (".url",)
TEXT_SUFFIXES = LIST_SUFFIXES + PAGE_SUFFIXES + SHORTCUT_SUFFIXES
FOLDER_SEPARATOR = " / "  # how Workspace.add_links joins the inner folders into cat2


@dataclass
class Drop:
    """What a drop gives intake: ``text`` for the paste box, the bookmarks exports' folders
    (``folders``: each folder path as it would be filed, outermost first; ``filed``: each
    bookmark's folder path) and what could not be used, each with why (``refused``)."""

    text: str = ""
    bookmarks: bool = False
    folders: list[str] = field(default_factory=list)
    filed: dict[str, tuple[str, ...]] = field(default_factory=dict)
    refused: list[str] = field(default_factory=list)
    saved: list[Path] = field(default_factory=list)  # folders and saved pages, to import


def read_drop(mime: QMimeData) -> Drop:
    """Read dropped or pasted data: files by their kind, a browser's links, plain text."""
    drop = Drop()
    if mime.hasUrls():
        parts = [_read_url(url, drop) for url in mime.urls()]
        drop.text = "\n".join(part for part in parts if part)
    elif mime.hasText():
        drop.text = mime.text()
    elif mime.hasHtml():  # rich text without a plain version: intake finds its <a href>s
        drop.text = mime.html()
    else:
        drop.refused.append(QCoreApplication.translate(
            "Drops", "Nothing in what was dropped is text or a link"))
    return drop


def _read_url(url: QUrl, drop: Drop) -> str:
    """One dropped URL's text; a local file is read by its kind, a refusal noted in ``drop``."""
    if not url.isLocalFile():
        return url.toString()
    path = Path(url.toLocalFile())
    name = path.name or str(path)
    if importable(path):
        drop.saved.append(path)
        return ""
    if path.is_dir() or not path.name.lower().endswith(TEXT_SUFFIXES):
        drop.refused.append(fill(QCoreApplication.translate("Drops", "%1: not a list of links"),
                                 name))
        return ""
    try:
        text = read_text_source(str(path))
    except KuaibuError as e:
        # the message is "cannot read PATH: why"; the name is said already
        why = str(e).rpartition(": ")[2]
        drop.refused.append(fill(QCoreApplication.translate("Drops", "%1: cannot be read (%2)"),
                                 name, why))
        return ""
    suffix = path.suffix.lower()
    if suffix in SHORTCUT_SUFFIXES:
        link = shortcut_url(text)
        if not link:
            drop.refused.append(fill(QCoreApplication.translate(
                "Drops", "%1: an Internet Shortcut without a URL= line"), name))
        return link
    if suffix in PAGE_SUFFIXES:
        filed = bookmark_folders(text)
        if filed:
            _take_bookmarks(filed, drop)
            return "\n".join(filed)
        links = find_links(text)
        if not links:
            drop.refused.append(fill(QCoreApplication.translate("Drops", "%1: no links in it"),
                                     name))
        return "\n".join(links)
    if not find_links(text):
        drop.refused.append(fill(QCoreApplication.translate("Drops", "%1: no links in it"),
                                 name))
        return ""
    return text  # the whole text: a person's notes around a link help fix a rejected one


def fill(sentence: str, *parts: str) -> str:
    """A translated sentence with its %1, %2… replaced in one pass (a file named "%2" stays
    its name)."""
    return re.sub(r"%(\d)", lambda m: parts[int(m.group(1)) - 1]
                  if 0 < int(m.group(1)) <= len(parts) else m.group(0), sentence)


def _take_bookmarks(filed: dict[str, tuple[str, ...]], drop: Drop) -> None:
    drop.bookmarks = True
    for link, path in filed.items():
        drop.filed.setdefault(link, path)
        folder = FOLDER_SEPARATOR.join(path)
        if folder and folder not in drop.folders:
            drop.folders.append(folder)


def shortcut_url(text: str) -> str:
    """The link of a Windows Internet Shortcut (an INI file: ``URL=`` in
    ``[InternetShortcut]``); "" when it has none."""
    section = ""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip().lower()
        elif section in ("", "internetshortcut") and line[:4].lower() == "url=":
            return line[4:].strip()
    return ""


def bookmarks_export(links: list[tuple[str, tuple[str, ...]]]) -> str:
    """A Netscape bookmarks file of ``links`` in their folders (outermost first; () for a
    loose bookmark): what ``Workspace.add_links(..., folders_as_categories=True)`` files by."""
    tree = _Folder()
    for link, path in links:
        node = tree
        for name in path:
            node = node.children.setdefault(name, _Folder())
        node.links.append(link)
    return ("<!DOCTYPE NETSCAPE-Bookmark-file-1>\n"
            '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">\n'
            "<TITLE>Bookmarks</TITLE>\n<H1>Bookmarks</H1>\n" + tree.render())


@dataclass
class _Folder:
    links: list[str] = field(default_factory=list)
    children: dict[str, _Folder] = field(default_factory=dict)

    def render(self) -> str:
        # <DT>s closed, unlike a browser's: nothing for a parser to guess about nesting
        lines = ["<DL><p>"]
        for name, child in self.children.items():
            lines.append(f"<DT><H3>{html.escape(name)}</H3>\n{child.render()}</DT>")
        lines += [f'<DT><A HREF="{html.escape(link)}">{html.escape(link)}</A></DT>'
                  for link in self.links]
        lines.append("</DL><p>")
        return "\n".join(lines) + "\n"


class DropTarget(QObject):
    """Takes drops of text, links and files on the widgets it watches (a window: anywhere on
    it that no child takes them itself) and says what they were, read (``dropped``).

    Drags that start inside the application (rows dragged to the category tree) are left to
    the widgets they are meant for."""

    dropped = Signal(object)  # Drop

    def watch(self, widget: QWidget) -> None:
        """Take drops on ``widget`` (on its viewport, for a table or a text view)."""
        target = widget.viewport() if isinstance(widget, QAbstractScrollArea) else widget
        target.setAcceptDrops(True)
        target.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind not in (QEvent.Type.DragEnter, QEvent.Type.DragMove, QEvent.Type.Drop):
            return False
        assert isinstance(event, QDropEvent)  # QDragEnterEvent and QDragMoveEvent are ones
        if event.source() is not None:  # dragged from inside the application
            return False
        mime = event.mimeData()
        if not (mime.hasUrls() or mime.hasText() or mime.hasHtml()):
            return False
        if isinstance(event, QDragEnterEvent | QDragMoveEvent):
            # anything that could be a link is taken, so a file of the wrong kind is refused
            # with a message rather than by a cursor that says nothing
            event.acceptProposedAction()
            return True
        event.acceptProposedAction()
        self.dropped.emit(read_drop(mime))
        return True
