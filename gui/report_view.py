"""The run report in the window (issue 17): what the last run got wrong and where to look.

``Workspace.report`` writes ``04_logs/report.html`` (the page ``python main.py report`` and the
end of every ``run`` write, its advice naming commands) and the record beside it; the window
shows the record (``Workspace.last_run_report``) in its own language, the advice naming its
own menus, buttons and settings (``Places``), never a command: one report, two faces. It is
written again after every run in the window and when the tab asks, and read again whenever it
was written (``Changed.REPORT``). Its links (a suspect article's clean page, its source, the
pages to read through) open with the desktop's handler, as the other views' links do; Open in
browser opens the page itself.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from gui.task_model import kind_names, status_names
from gui.when_shown import WhenShown
from gui.worker import Jobs, Latest
from pipeline.records.errors import ErrorKind
from pipeline.records.settings import LABEL_CONTEXT, SPECS
from pipeline.run.report import (
    GONE,
    HOTLINK,
    IMAGE_TOO_LARGE,
    REFUSED,
    THROTTLED,
    UNRESOLVED,
    WAYBACK,
    Doubt,
    LastReport,
)
from pipeline.usecases.changed import Changed
from pipeline.usecases.workspace import Workspace


@dataclass(frozen=True)
class Places:
    """What the window calls the places the advice sends a person to (its menu actions,
    buttons and tab, as they are labelled): the window fills it in (``MainWindow``)."""

    settings: str = ""  # the Settings dialog's action
    rules: str = ""  # the rules editor's action
    retry: str = ""  # the run bar's Retry failed
    failures: str = ""  # the Failures tab
    render: str = ""  # the Failures tab's Render with browser


KIND_WORDS = {kind.value for kind in ErrorKind}  # a record's words, read back


def setting_label(name: str) -> str:
    """A setting's label as the Settings dialog shows it."""
    return QCoreApplication.translate(LABEL_CONTEXT, SPECS[name].label or name)


class ReportView(QWidget):
    """The last report, a button to write it again and one to open it in the browser."""

    shown = Signal(str)  # the report's path, each time a report is loaded
    written = Signal(str)  # the report's path, each time ``refresh`` has written it

    def __init__(self, workspace: Workspace | None, jobs: Jobs,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.jobs = jobs
        self._reads = Latest(jobs)
        # read when the tab can be seen: a run's report at 100,000 tasks is no small record
        self._when_shown = WhenShown(self, self.load)
        self.open_url: Callable[[QUrl], Any] = QDesktopServices.openUrl  # tests swap it
        self.places = Places()
        self.path: Path | None = None
        self.summary = QLabel(self.tr("No report yet: one is written after every run."))
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.again_button = QPushButton(self.tr("Write again"))
        self.again_button.setToolTip(self.tr(
            "Write 04_logs/report.html from the task list as it is now"))
        self.browser_button = QPushButton(self.tr("Open in browser"))
        self.page = QTextBrowser()
        self.page.setOpenLinks(False)  # every link leaves the window: clean pages, sources
        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        top.addWidget(self.again_button)
        top.addWidget(self.browser_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.page, 1)
        self.again_button.clicked.connect(self.refresh)
        self.browser_button.clicked.connect(self._open_in_browser)
        self.page.anchorClicked.connect(self._follow)
        self._update_buttons()

    def set_workspace(self, workspace: Workspace) -> None:
        """Another archive: its last report, if a run wrote one."""
        self.workspace = workspace
        self.path = None
        self.page.clear()
        self.summary.setText(self.tr("No report yet: one is written after every run."))
        self._update_buttons()
        self._when_shown.request()

    def follow(self, change: Changed) -> None:
        """The archive changed (``archive_changed``): the report read again if it was
        written again, now if the tab is shown, else when it is."""
        if Changed.REPORT in change:
            self._when_shown.request()

    def refresh(self) -> None:
        """Write the report again from the task list as it is (in a job); the page follows
        the change."""
        workspace = self.workspace
        if workspace is None:
            return
        self.again_button.setEnabled(False)
        self.jobs.start(workspace.report, self._written, self._failed)

    def _written(self, path: Path) -> None:
        self._update_buttons()
        self.written.emit(str(path))

    def load(self) -> None:
        """Read the last report and show it (in a job; the newest read wins)."""
        workspace = self.workspace
        if workspace is not None:
            self._reads.start(workspace.last_run_report, self._show, self._failed)

    def _show(self, last: LastReport | None) -> None:
        if last is None:
            return
        path = self.path = last.path
        self.page.document().setBaseUrl(QUrl.fromLocalFile(str(path)))
        self.page.setHtml(self.page_html(last))
        self.summary.setText(self.tr("Report of %1: %2").replace(
            "%1", str(self.workspace.archive.root) if self.workspace else "")
            .replace("%2", str(path)))
        self._update_buttons()
        self.shown.emit(str(path))

    def page_html(self, last: LastReport) -> str:
        """The report as a page in the window's language."""
        report, e = last.report, html.escape
        kinds = kind_names()
        statuses = status_names()
        wayback = self.tr("Wayback copy")

        def kind(word: str) -> str:
            return kinds[ErrorKind(word)] if word in KIND_WORDS else word

        def tasks(g: Any, each_cause: bool) -> str:
            """Each task with its link (in a row of one cause, a gone page's Wayback copy
            beside it): a person acts on the link, not the number."""
            rows = []
            for i, link in zip(g.ids, g.links or [""] * len(g.ids), strict=False):
                row = f"#{i}"
                if link:
                    row += f' <a href="{e(link)}">{e(link)}</a>'
                    if each_cause and g.advice == GONE:
                        row += f' · <a href="{e(WAYBACK + link)}">{e(wayback)}</a>'
                rows.append(row)
            return "<br>".join(rows)

        def groups(found: Sequence[Any], heading: str, key: Callable[[str], str],
                   each_cause: bool = False) -> list[str]:
            if not found:
                return [para(self.tr("No failures"))]
            rows = [[e(key(g.key)) + ("<br><small>" + e(", ".join(
                f"{kind(k)} {n}" for k, n in g.kinds.items())) + "</small>" if g.kinds else ""),
                     str(g.count), e(self.advice(g.advice)), tasks(g, each_cause)]
                    for g in found]
            return table([heading, self.tr("Count"), self.tr("Advice"), self.tr("Tasks")], rows)

        def article(task_id: int, title: str, href: str, url: str) -> str:
            return (f'<a href="{e(href)}">#{task_id} {e(title)}</a> · '
                    f'<a href="{e(url)}">{e(url)}</a>')

        parts = [heading(2, self.tr("Run report")),
                 para(self.tr("%n tasks", "", report.tasks) + " · " + last.generated),
                 *table([self.tr("Status"), self.tr("Tasks")],
                        [[e(statuses.get(s, s)), str(n)]
                         for s, n in report.totals.items() if n]),
                 heading(3, self.tr("Failures by kind")),
                 *groups(report.by_kind, self.tr("Kind"), kind, each_cause=True),
                 heading(3, self.tr("Failures by domain")),
                 *groups(report.by_domain, self.tr("Domain"), str),
                 heading(3, self.tr("Images")),
                 para(self.tr("%1 of %2 saved").replace("%1", str(report.images.images_ok))
                      .replace("%2", str(report.images.images_total))),
                 *(table([self.tr("Image host"), self.tr("Saved"), self.tr("In the articles"),
                          self.tr("Why missing"), self.tr("Advice")],
                         [[e(s.key), str(s.images_ok), str(s.images_total),
                           e(", ".join(f"{self.image_reason(r)} {n}"
                                       for r, n in s.reasons.items())),
                           e(self.advice(s.advice)) if s.advice else ""]
                          for s in report.images_by_domain]) if report.images_by_domain else []),
                 heading(3, self.tr("Articles to check"))]
        parts += (table([self.tr("Article"), self.tr("Why")],
                        [[article(s.task_id, s.title, s.clean_href, s.url),
                          "<br>".join(e(self.doubt(r.doubt, r.values)) for r in s.reasons)]
                         for s in report.suspects])
                  if report.suspects else [para(self.tr("None found"))])
        parts.append(heading(3, self.tr("Read these through")))
        parts += (["<ul>", *(f"<li>{article(s.task_id, s.title, s.clean_href, s.url)}</li>"
                             for s in report.samples), "</ul>"]
                  if report.samples else [para(self.tr("No articles yet"))])
        return "\n".join(parts)

    def advice(self, code: str) -> str:
        """What to do about a group of failures, naming the window's own places."""
        p = self.places
        retry = self.tr("press %1").replace("%1", p.retry)
        said = {
            THROTTLED: self.tr(
                "The site limits requests: in %1 lower “%2” and raise “%3”, then %4.")
            .replace("%2", setting_label("per_host_connections"))
            .replace("%3", setting_label("host_delay_ms")),
            GONE: self.tr("The page is gone: try its Wayback copy (linked beside it) and, if"
                          " it is the article, put that link in the list instead."),
            REFUSED: self.tr("The site refuses the connection: it is down, or the link is"
                             " wrong (its host or port). Open it in a browser."),
            UNRESOLVED: self.tr("The site's name does not resolve: it is gone, or the link"
                                " misspells it. Check the link."),
            HOTLINK: self.tr("The image host refuses pictures shown on other sites: check the"
                             " Referer in the page's site rules (%2)."),
            IMAGE_TOO_LARGE: self.tr("The image is over the size limit: in %1 raise “%2”,"
                                     " then %4.").replace(
                "%2", setting_label("max_image_bytes")),
            ErrorKind.NETWORK: self.tr("Check the connection and the site, then %4."),
            ErrorKind.HTTP_4XX: self.tr(
                "The server refuses the link: open it in a browser (404 or 410: it is gone)."),
            ErrorKind.HTTP_5XX: self.tr("The server broke: try again later (%4)."),
            ErrorKind.REDIRECT: self.tr(
                "The link redirects in a loop or off the web: open it in a browser."),
            ErrorKind.BAD_URL: self.tr(
                "Not a link Kuaibu fetches: correct it in the list or move the task to the"
                " trash."),
            ErrorKind.BLOCKED_ADDRESS: self.tr(
                "A private or local address: fetched only for links added on such an address"
                " or when the archive's settings allow it."),
            ErrorKind.NOT_HTML: self.tr(
                "Not a web page (a PDF, an image): if it is a page, give its site a content"
                " selector in %2; else move the task to the trash."),
            ErrorKind.TOO_LARGE: self.tr(
                "Over the size limit: give its site a content selector in %2."),
            ErrorKind.INTERSTITIAL: self.tr(
                "An anti-bot or login page: export the site's cookies from a browser and choose"
                " the file in %1 (“%3”), then %4."),
            ErrorKind.TRUNCATED: self.tr("The page arrived cut short: %4."),
            ErrorKind.NO_ARTICLE: self.tr("No article found: give its site a content selector"
                                          " in %2."),
            ErrorKind.NEEDS_JS: self.tr(
                "Its scripts build the article: %5 in the %6 tab, then %4."),
            ErrorKind.RULES: self.tr("The site rules say something that cannot work: open %2"
                                     " and fix what it marks."),
            ErrorKind.INTERNAL: self.tr("A bug: its traceback is in 04_logs/errors.log."),
        }.get(code, self.tr("A failure without a kind (an older list): %4."))
        return (said.replace("%1", p.settings).replace("%2", p.rules)
                .replace("%3", QCoreApplication.translate("SettingsDialog", "Cookies file"))
                .replace("%4", retry).replace("%5", p.render).replace("%6", p.failures))

    def image_reason(self, code: str) -> str:
        """Why an image host's images are missing, in a few words."""
        return {UNRESOLVED: self.tr("host does not resolve"),
                REFUSED: self.tr("connection refused"),
                HOTLINK: self.tr("hotlinking refused (403)"),
                GONE: self.tr("gone (404/410)"),
                IMAGE_TOO_LARGE: self.tr("too large")}.get(code, self.tr("other"))

    def doubt(self, doubt: Doubt, values: tuple[str, ...]) -> str:
        """Why an article may be wrong, its values named."""
        said = {Doubt.SHORT: self.tr("very short: %1 characters"),
                Doubt.LOW_CONFIDENCE: self.tr("the extractor is unsure (confidence %1)"),
                Doubt.SITE_NAME: self.tr("the title is the site's name: %1"),
                Doubt.LINKS: self.tr("mostly links: %1 of the text")}[doubt]
        return said.replace("%1", values[0] if values else "")

    def _failed(self, message: str) -> None:
        self.summary.setText(message)
        self._update_buttons()

    def _follow(self, url: QUrl) -> None:
        """A link of the report: relative ones (clean pages) from the report's folder."""
        if url.isRelative() and self.path is not None:
            url = QUrl.fromLocalFile(str(self.path)).resolved(url)
        self.open_url(url)

    def _open_in_browser(self) -> None:
        if self.path is not None:
            self.open_url(QUrl.fromLocalFile(str(self.path)))

    def _update_buttons(self) -> None:
        # writing the report again writes 04_logs: not on a read-only archive
        self.again_button.setEnabled(self.workspace is not None and not self.workspace.read_only)
        self.browser_button.setEnabled(self.path is not None)


def table(headings: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """A table's lines: ``headings`` are text, ``rows`` already HTML."""
    head = "".join(f"<th align='left'>{html.escape(h)}</th>" for h in headings)
    body = ["<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows]
    return ["<table cellspacing='0' cellpadding='4'>", f"<tr>{head}</tr>", *body, "</table>"]


def heading(level: int, text: str) -> str:
    return f"<h{level}>{html.escape(text)}</h{level}>"


def para(text: str) -> str:
    return f"<p>{html.escape(text)}</p>"
