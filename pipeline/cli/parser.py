"""The command line's grammar: every command, its options and the range of each number
(``pipeline.records.bounds``), with usage errors in one line.
"""


from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import NoReturn

from pipeline import __version__
from pipeline.cli.commands import (
    book_output,
    cmd_add,
    cmd_book,
    cmd_books,
    cmd_build,
    cmd_capture_host,
    cmd_clean,
    cmd_demo,
    cmd_dupes,
    cmd_edit,
    cmd_export,
    cmd_extract,
    cmd_harvest,
    cmd_import,
    cmd_index,
    cmd_install_browser,
    cmd_install_desktop,
    cmd_move,
    cmd_recover,
    cmd_remove,
    cmd_render,
    cmd_report,
    cmd_rules,
    cmd_run,
    cmd_search,
    cmd_status,
    cmd_trash,
    shown,
)
from pipeline.records.bounds import (
    HARVEST_LIMIT,
    NEXT_PAGES,
    OLDER_THAN_DAYS,
    SEARCH_LIMIT,
    TASK_ID,
    Bound,
)
from pipeline.records.errors import ErrorKind
from pipeline.records.settings import BOOK_ORDERS
from pipeline.store.default_archive import DEFAULT_ARCHIVE, book_archive

# The commands' own modules are imported by the commands: `extract` over a folder of pages is
# timed as a whole process against trafilatura's, and the fetcher, the runner and the book
# builder (requests, Pillow, ebooklib) cost it a third of a second it never uses.

def age(text: str) -> timedelta:
    """``30d``, ``12h``, ``2w`` or a number of days, for ``--older-than`` (at most
    ``OLDER_THAN_DAYS``: an age past any date a computer keeps is an error, not an overflow)."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([dhw]?)\s*", text.lower())
    if not m:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not an age such as 30d, 12h or 2w")
    unit = {"": "days", "d": "days", "h": "hours", "w": "weeks"}[m.group(2)]
    days = float(m.group(1)) * {"days": 1, "hours": 1 / 24, "weeks": 7}[unit]
    if days > OLDER_THAN_DAYS.high:
        raise argparse.ArgumentTypeError(f"{shown(text)} is older than {OLDER_THAN_DAYS.high}"
                                         " days")
    return timedelta(days=days)


def number(bound: Bound) -> Callable[[str], int]:
    """An argparse ``type`` for a whole number within ``bound``; out of it, the usage error
    names the option and the range."""
    def parse(text: str) -> int:
        try:
            return bound.parse(text)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None

    return parse


task_id = number(TASK_ID)


class Parser(argparse.ArgumentParser):
    """argparse with its usage errors in one line (the usage is ``-h``'s to show): a script
    reads one line of stderr, a person the one that says what was wrong."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} -h)\n")

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None,
                         ) -> tuple[argparse.Namespace, list[str]]:
        """argparse's, after refusing an argument that is not text: bytes the terminal's
        encoding cannot read arrive as lone surrogates, which no file or index can hold."""
        for arg in sys.argv[1:] if args is None else args:
            try:
                arg.encode("utf-8")
            except UnicodeEncodeError:
                self.error(f"{ascii(arg)[:60]} is not text in this terminal's encoding")
        return super().parse_known_args(args, namespace)


def build_parser(prog: str = "main.py") -> argparse.ArgumentParser:
    """``prog``: how the person started it, ``main.py`` in a checkout, ``kuaibu`` installed."""
    parser = Parser(
        prog=prog,
        description="Kuaibu 快捕: capture web articles for offline reading, bound into EPUB.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    archive_help = f"the archive folder (default: {DEFAULT_ARCHIVE})"
    set_help = "change a setting for this command, e.g. --set read_timeout=30 (repeatable)"
    parser.add_argument("--archive", metavar="DIR", help=archive_help)
    parser.add_argument("--set", metavar="NAME=VALUE", action="append", default=[],
                        dest="overrides", help=set_help)

    def options(archive_help: str) -> Parser:
        """--archive and --set after a command's name (``book``'s archive has its own
        default, so its help says another)."""
        common = Parser(add_help=False)
        # SUPPRESS: an --archive given before the command is not overwritten by a default here
        common.add_argument("--archive", metavar="DIR", default=argparse.SUPPRESS,
                            help=archive_help)
        common.add_argument("--set", metavar="NAME=VALUE", action="append",
                            default=argparse.SUPPRESS, dest="overrides", help=set_help)
        return common

    common = options(archive_help)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("book", parents=[options(f"the archive folder (default:"
                                                f" {book_archive()})")],
                       help="the whole job: add the links, fetch them, bind one book and say"
                            " where it is (exit 3 when some pages failed: the book is made"
                            " without them)")
    p.add_argument("sources", metavar="URL|FILE|-", nargs="+",
                   help="links, files of links (text, Markdown, a bookmarks export) or -"
                        " for standard input")
    p.add_argument("-o", "--output", metavar="OUT.epub|OUT.pdf", type=book_output,
                   help="where the book goes; .pdf makes a PDF (default: <title>.epub in the"
                        " current folder)")
    p.add_argument("--title", help="the book's title (default: the first article's)")
    p.set_defaults(func=cmd_book)

    p = sub.add_parser("add", parents=[common], help="add links from a file or stdin (-)")
    p.add_argument("source", metavar="FILE|-", help="text, Markdown or a bookmarks export")
    p.add_argument("--cat1", default="", help="first-level category (NN_name sorts by NN)")
    p.add_argument("--cat2", default="", help="second-level category")
    p.add_argument("--folders", action="store_true",
                   help="a bookmarks export: file each link by its folders (the outermost as"
                        " the category, the rest as the subcategory)")
    p.set_defaults(func=cmd_add)

    p = sub.add_parser("harvest", parents=[common],
                       help="add the article links of a list page (depth 1)")
    p.add_argument("url", metavar="URL", help="a list page: a channel, a blog index, a tag")
    p.add_argument("--cat1", default="", help="first-level category of the tasks added")
    p.add_argument("--cat2", default="", help="second-level category")
    p.add_argument("--pattern", metavar="REGEX", help="only links whose URL this matches")
    site = p.add_mutually_exclusive_group()
    site.add_argument("--same-site", dest="same_site", action="store_true", default=True,
                      help="only links to the page's own site (the default)")
    site.add_argument("--any-site", dest="same_site", action="store_false",
                      help="links to other sites too")
    p.add_argument("--limit", type=number(HARVEST_LIMIT), metavar="N",
                   help=f"at most the N best links ({HARVEST_LIMIT})")
    p.add_argument("--next-pages", type=number(NEXT_PAGES), default=0,
                   metavar="N", help="also follow at most N of the list's next-page links"
                                     f" (default 0; {NEXT_PAGES})")
    p.add_argument("--dry-run", action="store_true", help="show the candidates, add nothing")
    p.set_defaults(func=cmd_harvest)

    p = sub.add_parser("import", parents=[common],
                       help="import saved pages: \"Web page, complete\", MHTML, SingleFile")
    p.add_argument("paths", metavar="PATH", nargs="+",
                   help="saved pages and folders of them (walked recursively)")
    p.add_argument("--cat1", default="", help="first-level category of the tasks made")
    p.add_argument("--cat2", default="", help="second-level category")
    p.add_argument("--fetch-missing", action="store_true",
                   help="fetch the images a save lacks (otherwise nothing is fetched)")
    p.set_defaults(func=cmd_import)

    p = sub.add_parser("status", parents=[common], help="count tasks by status")
    p.add_argument("--failed", action="store_true",
                   help="list failed tasks by kind, with their reasons")
    p.set_defaults(func=cmd_status)

    p = sub.add_parser("run", parents=[common], help="fetch, clean and localize pending tasks")
    p.add_argument("--retry-failed", action="store_true",
                   help="also retry failed tasks and images that could not be saved")
    p.add_argument("--kind", action="append", dest="kinds", choices=[k.value for k in ErrorKind],
                   metavar="KIND",
                   help="retry only failed tasks of this kind (repeatable; implies"
                        f" --retry-failed): {', '.join(ErrorKind)}")
    p.add_argument("--cookies", metavar="FILE",
                   help="a Netscape cookies.txt (exported from a browser); each cookie goes "
                        "only to its own domain")
    p.add_argument("--refetch", action="store_true",
                   help="download stored pages again; a changed page keeps its old copy")
    p.add_argument("--refresh", action="store_true",
                   help="check archived articles for updates: a changed one is archived"
                        " again (its old version kept in 00_raw/history), an unchanged one"
                        " only gets its last_checked")
    p.add_argument("--older-than", type=age, metavar="AGE",
                   help="with --refresh: only articles not checked for AGE (30d, 12h, 2w)")
    p.add_argument("--cat1", help="with --refresh: only this first-level category")
    p.add_argument("--id", type=task_id, action="append", dest="ids", metavar="N",
                   help="only task N (repeatable)")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("report", parents=[common],
                       help="write 04_logs/report.html: failures by kind and domain, images,"
                            " articles to check (also written after every run)")
    p.add_argument("--out", metavar="FILE|-",
                   help="write the page here instead (-: to standard output, nothing else)")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("build", parents=[common], help="bind the archive into EPUB books")
    p.add_argument("--cat1", help="only this first-level category (its name, prefix optional)")
    p.add_argument("--split-by", choices=["cat1"], help="one book per first-level category")
    p.add_argument("--title", help="the book's title, its file name too (default: the"
                                   " book_title setting, else the archive's name; a category's"
                                   " book is named after it)")
    p.add_argument("--id", type=task_id, action="append", dest="ids", metavar="N",
                   help="only task N (repeatable)")
    p.add_argument("--order", choices=BOOK_ORDERS,
                   help="the chapters' order inside a category: the task list's, by published"
                        " date or by title (default: the book_order setting, list)")
    p.add_argument("--out", metavar="DIR",
                   help="bind into this folder instead of 03_output (how a read-only"
                        " archive is bound)")
    p.add_argument("--format", choices=["epub", "pdf", "both", "chm"], default="epub",
                   help="EPUB books (the default), PDFs for print and archiving (PDF/A; the"
                        " page size is the pdf_page setting, A4 or A5), both, or CHM (Windows"
                        " Help, compiled by chmcmd from fp-utils; without it the project is"
                        " written and the exit status is 4)")
    p.set_defaults(func=cmd_build)

    p = sub.add_parser("export", parents=[common],
                       help="write what the archive fetched (pages, images) as WARC/1.1 or"
                            " WACZ, for replay tools and other web archives")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--warc", metavar="FILE", help="a gzipped WARC file (FILE.warc.gz)")
    where.add_argument("--wacz", metavar="FILE", help="a WACZ package (FILE.wacz): the WARC"
                                                     " with its CDXJ index and pages list")
    p.add_argument("--cat1", help="only this first-level category (its name, prefix optional)")
    p.add_argument("--cat2", help="only this second-level category")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("extract", parents=[common],
                       help="extract articles from a folder of saved pages to JSON lines")
    p.add_argument("--dir", required=True, help="folder of *.html files (raw bytes)")
    p.add_argument("--jsonl", required=True, help="output file, one JSON object per page")
    p.set_defaults(func=cmd_extract)

    p = sub.add_parser("render", parents=[common],
                       help="render a page in Chromium and print its article (nothing"
                            " stored): what a site's 'render: browser' rule would archive")
    p.add_argument("url", metavar="URL", help="the page")
    p.set_defaults(func=cmd_render)

    p = sub.add_parser("clean", parents=[common],
                       help="clean stored pages again after a rules change (no refetch)")
    p.add_argument("--domain", help="only this host and its sub-domains")
    p.add_argument("--id", type=task_id, action="append", dest="ids", metavar="N",
                   help="only task N (repeatable)")
    p.set_defaults(func=cmd_clean)

    p = sub.add_parser("dupes", parents=[common],
                       help="list exact and near duplicates; write 04_logs/near_duplicates.*")
    p.add_argument("--duplicate", type=task_id, metavar="N",
                   help="mark task N a duplicate of the task --of names (it is not bound)")
    p.add_argument("--of", type=task_id, metavar="M", help="the original, with --duplicate")
    p.add_argument("--keep-both", type=task_id, nargs=2, metavar=("A", "B"),
                   help="keep both of a near-duplicate pair (both are bound)")
    p.add_argument("--undecide", type=task_id, nargs=2, metavar=("A", "B"),
                   help="take back the decision on a pair")
    p.add_argument("--diff", type=task_id, nargs=2, metavar=("A", "B"),
                   help="print where the texts of tasks A and B differ (nothing else)")
    p.set_defaults(func=cmd_dupes)

    p = sub.add_parser("edit", parents=[common], help="set the title or categories of tasks")
    p.add_argument("--id", type=task_id, action="append", dest="ids", metavar="N", required=True,
                   help="task N (repeatable)")
    p.add_argument("--title", help="the title a book shows (empty: the extracted one)")
    p.add_argument("--cat1", help="first-level category")
    p.add_argument("--cat2", help="second-level category")
    p.set_defaults(func=cmd_edit)

    p = sub.add_parser("move", parents=[common],
                       help="arrange the list: its order is the chapters' order in a book")
    p.add_argument("--id", type=task_id, action="append", dest="ids", metavar="N", required=True,
                   help="task N (repeatable; they go there in the order given)")
    place = p.add_mutually_exclusive_group(required=True)
    place.add_argument("--before", type=task_id, metavar="M", help="right before task M")
    place.add_argument("--after", type=task_id, metavar="M", help="right after task M")
    place.add_argument("--top", action="store_true", help="to the top of the list")
    place.add_argument("--bottom", action="store_true", help="to the bottom of the list")
    p.set_defaults(func=cmd_move)

    p = sub.add_parser("remove", parents=[common],
                       help="move tasks to the trash (their files stay until it is emptied)")
    p.add_argument("--id", type=task_id, action="append", dest="ids", metavar="N", required=True,
                   help="task N (repeatable)")
    p.set_defaults(func=cmd_remove)

    p = sub.add_parser("trash", parents=[common],
                       help="list the trash, restore tasks from it, or empty it")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--restore", action="store_true", help="bring tasks --id N back")
    mode.add_argument("--empty", action="store_true",
                      help="remove the trashed tasks for good, with their pages and articles")
    p.add_argument("--id", type=task_id, action="append", dest="ids", metavar="N",
                   help="with --restore: task N (repeatable)")
    p.set_defaults(func=cmd_trash)

    p = sub.add_parser("books", parents=[common],
                       help="list the books built, and whether each is out of date")
    p.set_defaults(func=cmd_books)

    p = sub.add_parser("search", parents=[common], help="search the archived articles' text")
    p.add_argument("query", help="words (Chinese or not); every one must be in the article")
    p.add_argument("--limit", type=number(SEARCH_LIMIT), default=20, metavar="N",
                   help=f"at most this many (default 20; {SEARCH_LIMIT})")
    p.set_defaults(func=cmd_search)

    p = sub.add_parser("index", parents=[common],
                       help="make the search index again from 01_clean/")
    p.set_defaults(func=cmd_index)

    p = sub.add_parser("rules", parents=[common],
                       help="check rules.yaml, try rules on a domain's pages, undo a change")
    p.add_argument("action", choices=["check", "test", "set", "undo"],
                   help="check: validate; test: before/after on --domain's stored pages,"
                        " writing nothing; set: set --value KEY=VALUE in --domain's section"
                        " (comments kept); undo: restore the rules"
                        " before the last save and clean again what they change")
    p.add_argument("--value", dest="pairs", action="append", default=[], metavar="KEY=VALUE",
                   help="set (repeatable): a key and its value, e.g. render=browser or"
                        " keep_params=[ref]; an empty value removes the key")
    p.add_argument("--domain", help="test, set: the domain (and its sub-domains); set:"
                                    " 'default' for every site")
    p.add_argument("--content", metavar="CSS", help="test: this content selector")
    p.add_argument("--strip", metavar="CSS", nargs="+", help="test: also remove these")
    p.add_argument("--title", metavar="CSS", help="test: this title selector")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("recover", parents=[common],
                       help="rebuild tasks.csv from the pages 00_raw holds (after the file"
                            " was emptied or cut short); the rows still in it stay")
    p.set_defaults(func=cmd_recover)

    p = sub.add_parser("install-desktop",
                       help="add Kuaibu to the desktop's menu (a freedesktop .desktop file and"
                            " its icon in the user's data folder)")
    p.add_argument("--uninstall", action="store_true", help="remove them again")
    p.set_defaults(func=cmd_install_desktop)

    p = sub.add_parser("demo", parents=[common],
                       help="archive the bundled sample site (served on 127.0.0.1)")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("install-browser", parents=[common],
                       help="register the capture host with Chromium, Chrome and Firefox"
                            " for this user, so the Kuaibu extension saves to the archive")
    p.add_argument("--uninstall", action="store_true", help="remove the registration")
    p.set_defaults(func=cmd_install_browser)

    p = sub.add_parser("capture-host", parents=[common],
                       help="the browser extension's native messaging host (the browser"
                            " starts it; install-browser registers it)")
    # REMAINDER: Chromium on Windows adds --parent-window=N, which is no option of ours
    p.add_argument("caller", nargs=argparse.REMAINDER,
                   help="what the browser passes: the caller's origin (Chromium) or manifest"
                        " and extension id (Firefox)")
    p.set_defaults(func=cmd_capture_host)
    return parser
