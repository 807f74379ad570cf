"""One article's chapter on its own, rendered exactly as the book renders it: the window's
preview and the clean page in 01_clean/ are this page, so there is one rendering of an article."""

from __future__ import annotations

from collections.abc import Callable

import jinja2

from pipeline.book.chapters import render_chapter
from pipeline.book.collect import entry_of
from pipeline.book.labels import labels_for
from pipeline.records.article import Article
from pipeline.records.task import Task

STYLESHEET = "style.css"  # beside the page: 01_clean/style.css for the clean pages


def standalone_chapter(env: jinja2.Environment, task: Task, article: Article,
                       image_href: Callable[[str], str | None]) -> bytes:
    """The chapter page of ``article`` (the archive's own templates, the whitelist, the
    labels in the article's language), its images at ``image_href`` (None: the placeholder a
    missing image gets in the book) and its stylesheet at STYLESHEET. ``env``: the archive's
    templates (``templating.environment``), made once by the caller for the page and its CSS."""
    entry = entry_of(task, article)
    page, _ = render_chapter(env, entry, article.content_html,
                             image_href=image_href, link_href=lambda _url: None,
                             labels=labels_for(entry.lang), stylesheet=STYLESHEET)
    return page
