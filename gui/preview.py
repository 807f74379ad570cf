"""The preview pane: the article as the book will show it, beside the raw page's text.

Reading files and parsing pages happens in a job (``load_preview``); the pane only displays
the ``PreviewData`` it is given, so selecting rows never waits on the disk.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from PySide6.QtCore import QUrl
from PySide6.QtWidgets import (
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from pipeline.archive import Archive
from pipeline.article import Article
from pipeline.asset_map import AssetMap, rewrite_images
from pipeline.errors import RulesError
from pipeline.extract.dom import BLOCK_TAGS, parse, remove
from pipeline.rules import Rules, load_rules
from pipeline.settings import Settings
from pipeline.stages import decode_stored
from pipeline.tasks import Task

_SPACES = re.compile(r"\s+")


@dataclass
class PreviewData:
    """What the pane shows for one task."""

    task: Task
    article: Article | None = None
    raw_text: str = ""
    image_files: dict[str, str] = field(default_factory=dict)  # image URL → file:// URL
    note: str = ""  # e.g. "test result, not saved"


def page_text(page_html: str) -> str:
    """The readable text of a whole page: scripts and styles dropped, one block a line."""
    root = parse(page_html)
    for el in list(root.iter("script", "style", "noscript", "template")):
        remove(el)
    for el in root.iter():
        # source line breaks mean nothing in HTML; a block's start and end do
        el.text = _SPACES.sub(" ", el.text or "")
        el.tail = _SPACES.sub(" ", el.tail or "")
        if isinstance(el.tag, str) and (el.tag in BLOCK_TAGS or el.tag == "br"):
            el.text = "\n" + el.text
            el.tail = "\n" + el.tail
    lines = (line.strip() for line in "".join(root.itertext()).splitlines())
    return "\n".join(line for line in lines if line)


def raw_page_html(archive: Archive, task: Task) -> str:
    """The stored raw page of a task, decoded as the clean stage decodes it ("" before fetch)."""
    if not archive.has_raw(task.id):
        return ""
    try:
        rules = load_rules(archive.rules_path)
    except RulesError:  # being edited: the page still shows, without a forced encoding
        rules = Rules()
    return decode_stored(archive, task, rules, Settings())[0]


def image_files(archive: Archive, task_id: int) -> dict[str, str]:
    """Image URL → local file URL, from the localize stage's asset map (empty before it)."""
    path = archive.assets_map(task_id)
    if not path.exists():
        return {}
    amap = AssetMap.from_json(path.read_text(encoding="utf-8"))
    return {url: QUrl.fromLocalFile(str(archive.root / e.path)).toString()
            for url, e in amap.entries.items() if e.path}


def load_preview(archive: Archive, task: Task, article: Article | None = None,
                 note: str = "") -> PreviewData:
    """Everything the pane needs for a task; ``article`` overrides the stored clean one."""
    if article is None and archive.has_clean(task.id):
        article = Article.from_json(archive.clean_meta(task.id).read_text(encoding="utf-8"))
    raw_text = page_text(raw_page_html(archive, task))
    return PreviewData(task=task, article=article, raw_text=raw_text,
                       image_files=image_files(archive, task.id), note=note)


def book_html(article: Article, files: dict[str, str]) -> str:
    """The article as a chapter: headline, byline, body with local images or placeholders."""
    byline = " · ".join(html.escape(part) for part in
                        (article.author or "", (article.published or "")[:10]) if part)
    body = rewrite_images(article.content_html, files.get, article.lang)
    source = html.escape(article.url)
    return (f"<h1>{html.escape(article.title)}</h1>"
            f"<p style='color:#666'>{byline + ' · ' if byline else ''}"
            f"<a href='{source}'>{source}</a></p>{body}")


class PreviewPane(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.header = QLabel(self.tr("Select a task to see its article."))
        self.header.setWordWrap(True)
        self.book = QTextBrowser()
        self.book.setOpenLinks(False)  # links in articles are not for the preview to follow
        self.raw = QPlainTextEdit()
        self.raw.setReadOnly(True)
        self.raw.setPlaceholderText(self.tr("The raw page's text appears here once fetched."))
        book_box, raw_box = QWidget(), QWidget()
        for box, title, view in ((book_box, self.tr("As in the book"), self.book),
                                 (raw_box, self.tr("Raw page text (what was cut)"), self.raw)):
            layout = QVBoxLayout(box)
            layout.setContentsMargins(0, 0, 0, 0)
            layout.addWidget(QLabel(f"<b>{title}</b>"))
            layout.addWidget(view)
        self.splitter = QSplitter()
        self.splitter.addWidget(book_box)
        self.splitter.addWidget(raw_box)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.header)
        layout.addWidget(self.splitter, 1)
        self.shown: PreviewData | None = None

    def method_note(self, method: str) -> str | None:
        """Why a text needs review: which retry of the extractor found it (none for the strict
        pass or a site's rules)."""
        notes = {
            "unlikely candidates kept": self.tr("found on a retry that kept sidebars and widgets"),
            "class weights off": self.tr("found on a retry that ignored class names"),
            "conditional cleaning off": self.tr("found on a retry that kept every block"),
            "baseline": self.tr("no block stood out: every prose line of the page"),
            "whole page": self.tr("the page's few words, all it holds"),
        }
        return notes.get(method)

    def show_data(self, data: PreviewData) -> None:
        self.shown = data
        task, article = data.task, data.article
        parts = [f"#{task.id}", html.escape(task.display_title)]
        if article is not None:
            parts.append(self.tr("%1 characters, confidence %2")
                         .replace("%1", f"{article.chars:,}")
                         .replace("%2", f"{article.confidence:.2f}"))
            if note := self.method_note(article.method):
                parts.append(html.escape(note))
        if data.note:
            parts.append(f"<i>{html.escape(data.note)}</i>")
        self.header.setText(" — ".join(parts))
        if article is not None:
            self.book.setHtml(book_html(article, data.image_files))
        elif task.error:
            self.book.setHtml(f"<p style='color:#c62828'>{html.escape(task.error)}</p>")
        else:
            not_yet = self.tr("Not cleaned yet.")
            self.book.setHtml(f"<p><i>{html.escape(not_yet)}</i></p>")
        self.raw.setPlainText(data.raw_text)

    def clear(self) -> None:
        self.shown = None
        self.header.setText(self.tr("Select a task to see its article."))
        self.book.clear()
        self.raw.clear()
