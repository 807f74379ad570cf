"""The command line: the same pipeline as the window, headless.

Every command takes ``--archive DIR`` (before or after the command name; default: the
``archive/`` folder beside main.py); only add, harvest and demo make a folder that is not
there. Exit status 0 on success; otherwise one line on stderr and status 1 (2 for a usage
error: every number has its range, ``pipeline.records.bounds``); ``run`` exits 3 when it
finished but some tasks failed. Never a traceback: a bug is one line too, its traceback in
errors.log.
An archive this process cannot write is read (status, search, books, report --out, build
--out); a command that would write it says so before it starts.
"""

from __future__ import annotations

import argparse
import errno
import re
import sys
import time
from collections.abc import Callable, Sequence
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TextIO

from pipeline.records.bounds import (
    HARVEST_LIMIT,
    NEXT_PAGES,
    OLDER_THAN_DAYS,
    SEARCH_LIMIT,
    TASK_ID,
    Bound,
)
from pipeline.records.errors import ErrorKind, KuaibuError
from pipeline.records.settings import Settings
from pipeline.store.archive import DEFAULT_ARCHIVE

# The commands' own modules are imported by the commands: `extract` over a folder of pages is
# timed as a whole process against trafilatura's, and the fetcher, the runner and the book
# builder (requests, Pillow, ebooklib) cost it a third of a second it never uses.
if TYPE_CHECKING:
    from pipeline.book import BuildResult
    from pipeline.intake.links import IntakeReport
    from pipeline.records.events import Event, Progress
    from pipeline.records.task import Task
    from pipeline.rules.model import Rules
    from pipeline.usecases.workspace import Workspace


# ``run`` finished, and some tasks failed (a script can tell that from "all went well", 0,
# and from "could not run", 1; usage errors stay 2, as argparse has them).
EXIT_TASKS_FAILED = 3


class CommandError(KuaibuError):
    """A command cannot do what was asked; the message is the one line printed."""


def print_intake(report: IntakeReport) -> None:
    print(report.summary())
    for link, existing in report.duplicates:
        print(f"  duplicate of #{existing}: {link}")
    for link, reason in report.rejected:
        print(f"  rejected: {link} — {reason}")


def cmd_add(args: argparse.Namespace, ws: Workspace) -> int:
    from pipeline.intake.links import read_text_source

    text = read_text_source(args.source)
    report = ws.add_links(text, args.cat1, args.cat2, args.folders)
    if not (report.added or report.duplicates or report.rejected):
        where = "standard input" if args.source == "-" else args.source
        raise CommandError(f"no links found in {where}")
    print_intake(report)
    return 0


def cmd_harvest(args: argparse.Namespace, ws: Workspace) -> int:
    """A list page's article links, ranked with why, added as tasks (a detail page as one)."""
    from pipeline.intake.links import PageKind

    try:
        re.compile(args.pattern or "")
    except re.error as e:
        raise CommandError(
            f"--pattern {args.pattern!r} is not a regular expression ({e})") from None
    result = ws.harvest(args.url, args.cat1, args.cat2, pattern=args.pattern,
                        same_site=args.same_site, limit=args.limit, next_pages=args.next_pages,
                        dry_run=args.dry_run)
    print(f"{result.kind} page: {result.reason}")
    for number, page in enumerate(result.pages, start=1):
        print(f"  page {number}: {page}")
    if result.kind is PageKind.LIST:
        chosen = {c.url for c in result.chosen}
        refused = sum(1 for c in result.candidates if c.refused)
        print(f"{len(result.candidates)} candidates, {len(chosen)} chosen"
              + (f", {refused} refused by the address policy" if refused else "")
              + " (rank, score, text, link — why):")
        for c in result.candidates:
            mark = "[x]" if c.url in chosen else "[ ]"
            why = f"refused: {c.refused}" if c.refused else ", ".join(map(str, c.reasons))
            print(f"  {mark} #{c.rank:<3} {c.score:4.1f}  {c.text[:60]}  {c.url} — {why}")
    if result.report is None:
        print("dry run: nothing added")
    else:
        print_intake(result.report)
    return 0


def cmd_status(args: argparse.Namespace, ws: Workspace) -> int:
    from pipeline.records.task import STATUSES

    counts = ws.counts()
    print(f"{sum(counts.values())} tasks in {ws.archive.root}")
    for status in STATUSES:
        if counts[status]:
            print(f"  {status:<10} {counts[status]}")
    if args.failed:
        print_failures(ws.failures())
    return 0


def print_failures(by_kind: Sequence[tuple[ErrorKind, list[Task]]]) -> None:
    """The failed tasks by kind: each kind with its count (the commonest first, so the
    kind worth a ``run --retry-failed --kind`` leads), then its tasks with their reasons."""
    if not by_kind:
        return
    print("failed by kind:")
    width = max(13, *(len(kind) for kind, _ in by_kind))
    for kind, tasks in by_kind:
        print(f"  {kind:<{width}} {len(tasks)}")
    for kind, tasks in by_kind:
        print(f"{kind}:")
        for t in tasks:
            print(f"  #{t.id} {t.url} — {t.error}")


class ProgressBar:
    """Progress on stderr: a redrawn bar on a terminal, a line every few seconds otherwise."""

    def __init__(self, stream: TextIO = sys.stderr) -> None:
        self.stream = stream
        self.tty = stream.isatty()
        self._started = time.monotonic()
        self._last = 0.0

    def __call__(self, event: Event) -> None:
        """A Runner listener: draws on each Progress event."""
        from pipeline.records.events import Progress

        if isinstance(event, Progress):
            if event.is_check:
                detail = (f"changed {event.changed} unchanged {event.unchanged}"
                          f" not checked {event.unchecked}")
            else:
                detail = (f"fetched {event.fetched} cleaned {event.cleaned}"
                          f" localized {event.localized} failed {event.failed}")
            self.draw(event.finished, event.total, detail)

    def draw(self, done: int, total: int, detail: str = "") -> None:
        now = time.monotonic()
        if not (self.tty or now - self._last >= 3 or done == total):
            return
        self._last = now
        elapsed = now - self._started
        rate = done / elapsed if elapsed > 0 else 0.0
        left = (total - done) / rate if rate else None
        eta = "--:--" if left is None else f"{int(left) // 60}:{int(left) % 60:02d}"
        width = 24
        filled = int(width * done / total) if total else width
        line = (f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total}  {detail}"
                f"  {rate:.1f}/s  ETA {eta}")
        self.stream.write(("\r" + line) if self.tty else line + "\n")
        self.stream.flush()

    def finish(self) -> None:
        if self.tty:
            self.stream.write("\n")


def run_archive(ws: Workspace, retry_failed: bool = False, refetch: bool = False,
                task_ids: list[int] | None = None,
                kinds: list[ErrorKind] | None = None) -> Progress:
    """Run the runnable tasks of an archive with a progress bar; prints the outcome."""
    bar = ProgressBar()
    try:
        progress = ws.run(task_ids, retry_failed=retry_failed, refetch=refetch, kinds=kinds,
                          listener=bar)
    finally:
        bar.finish()
    print(f"fetched {progress.fetched}, cleaned {progress.cleaned},"
          f" localized {progress.localized}, failed {progress.failed}"
          f" of {progress.total} tasks in {progress.elapsed:.1f} s")
    return progress


def cmd_run(args: argparse.Namespace, ws: Workspace) -> int:
    if args.cookies:
        if not Path(args.cookies).is_file():
            raise CommandError(f"no such cookies file: {args.cookies}")
        ws.settings = ws.settings.with_overrides(cookies_file=args.cookies)
    if args.refresh:
        code = refresh_archive(ws, args.ids, args.cat1, args.older_than)
        print(f"report: {ws.report()}")
        return code
    if args.cat1 is not None or args.older_than is not None:
        raise CommandError("--cat1 and --older-than choose what --refresh checks;"
                           " add --refresh")
    kinds = [ErrorKind(k) for k in args.kinds] if args.kinds else None
    progress = run_archive(ws, args.retry_failed or kinds is not None, args.refetch, args.ids,
                           kinds)
    print(f"report: {ws.report()}")  # the last line, so a script finds the report there
    return EXIT_TASKS_FAILED if progress.failed else 0


def cmd_report(args: argparse.Namespace, ws: Workspace) -> int:
    """Write 04_logs/report.html (what a run got wrong and where to look) and say so; with
    ``--out FILE`` the page goes there instead, with ``--out -`` to standard output alone."""
    from pipeline.store.archive import write_atomic

    report = ws.run_report()
    if args.out == "-":
        sys.stdout.write(ws.render_report(report))
        return 0
    if args.out:
        path = Path(args.out).resolve()
        write_atomic(path, ws.render_report(report).encode("utf-8"))
    else:
        path = ws.write_report(report)
    for line in report.summary():
        print(line)
    print(f"report: {path}")
    return 0


def shown(text: str, limit: int = 40) -> str:
    """A typed value as an error line quotes it: cut, so a line stays a line."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


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


def refresh_archive(ws: Workspace, task_ids: list[int] | None, cat1: str | None,
                    older_than: timedelta | None) -> int:
    """Check archived articles for updates with a progress bar; prints what changed."""
    from pipeline.store.archive import utc_now

    ids = ws.refresh_ids(task_ids, cat1, older_than)
    if not ids:
        print("no archived articles to check")
        return 0
    started = utc_now()
    bar = ProgressBar()
    try:
        progress = ws.check_updates(ids, listener=bar)
    finally:
        bar.finish()
    print(f"checked {progress.finished} of {len(ids)} articles in {progress.elapsed:.1f} s:"
          f" changed {progress.changed}, unchanged {progress.unchanged},"
          f" could not check {progress.unchecked}")
    for change in ws.changes(since=started):
        print(f"  changed #{change.task_id}: {change.summary}  {change.url}")
    for t in ws.tasks():
        if t.id in ids and t.refresh_error and t.last_checked >= started:
            print(f"  not checked #{t.id}: {t.refresh_error} (the archived version stays)"
                  f"  {t.url}")
    if progress.changed:
        print("the next build binds the new versions; the changes are in 04_logs/changes.csv")
    return 0


def cmd_dupes(args: argparse.Namespace, ws: Workspace) -> int:
    """Exact duplicates (same text) and near ones (SimHash close), for a person to judge;
    with --duplicate/--of, --keep-both or --undecide, a decision on one pair first."""
    from pipeline.text.dedup import NEAR_DUPLICATE_BITS

    if args.duplicate is not None or args.of is not None:
        if args.duplicate is None or args.of is None:
            raise CommandError("--duplicate N needs --of M (the task it copies), and --of"
                               " needs --duplicate")
        ws.mark_duplicate(args.duplicate, args.of)
        print(f"#{args.duplicate} is now a duplicate of #{args.of}: it is not bound")
    if args.keep_both:
        ws.keep_both(*args.keep_both)
        print(f"#{args.keep_both[0]} and #{args.keep_both[1]} are both kept and bound")
    if args.undecide:
        ws.undecide(*args.undecide)
        print(f"#{args.undecide[0]} and #{args.undecide[1]} are undecided again")
    pairs, csv_path, html_path = ws.dupes_report()
    exact = ws.exact_duplicates(pairs)
    decided = sum(1 for p in pairs if p.decided)
    print(f"exact duplicates {len(exact)}, near duplicates {len(pairs)} ({decided} decided,"
          f" {len(pairs) - decided} to judge; within {NEAR_DUPLICATE_BITS} of 64 bits)")
    for t in exact:
        print(f"  #{t.id} = #{t.duplicate_of}  {t.url}")
    for p in pairs:
        state = p.decided.describe() if p.decided else "undecided"
        print(f"  #{p.first.id} ~ #{p.second.id}  {p.distance} bits apart, {state}")
        for t in (p.first, p.second):
            print(f"      #{t.id} {t.display_title}  {t.url}")
    print(f"report: {csv_path}\n        {html_path}")
    return 0


def cmd_clean(args: argparse.Namespace, ws: Workspace) -> int:
    ids = ws.reclean_ids(args.ids, args.domain)
    if not ids:
        raise CommandError("no stored pages match; fetch them first with 'run'")
    progress = ws.reclean(ids)
    print(f"cleaned {progress.cleaned}, failed {progress.failed}"
          f" of {len(ids)} stored pages")
    return 0


def build_archive(ws: Workspace, cat1: str | None = None, split_by: str | None = None,
                  task_ids: list[int] | None = None, title: str | None = None,
                  out: Path | None = None) -> BuildResult:
    """Bind the archive's articles with a progress bar; prints what was made."""
    bar = ProgressBar()
    try:
        result = ws.build(cat1=cat1, split_by=split_by, task_ids=task_ids, title=title,
                          progress=lambda done, total: bar.draw(done, total, "binding"),
                          out=out)
    finally:
        bar.finish()
    for path in result.epubs:
        print(f"EPUB:       {path}")
    print(f"Index:      {result.index}")
    print(f"{result.articles} articles bound")
    if result.left_out:
        print(f"left out {len(result.left_out)} near duplicates (the later of each pair;"
              " 'dupes --keep-both A B' binds both):")
        for dup, of in result.left_out:
            print(f"  #{dup} nearly repeats #{of}  {ws.task(dup).url}")
    return result


def cmd_build(args: argparse.Namespace, ws: Workspace) -> int:
    build_archive(ws, args.cat1, args.split_by, args.ids, args.title,
                  Path(args.out) if args.out else None)
    return 0


def cmd_edit(args: argparse.Namespace, ws: Workspace) -> int:
    """What the window's table edits: a title or categories, on one task or several."""
    changes = {name: value for name in ("title", "cat1", "cat2")
               if (value := getattr(args, name)) is not None}
    if not changes:
        raise CommandError("nothing to change: give --title, --cat1 or --cat2")
    ws.edit(args.ids, **changes)
    ws.save()
    print(f"changed {', '.join(changes)} of {len(args.ids)} tasks")
    return 0


def cmd_remove(args: argparse.Namespace, ws: Workspace) -> int:
    """Move tasks to the trash; their pages and articles stay until it is emptied."""
    ws.remove(args.ids)
    ws.save()
    print(f"moved {len(args.ids)} tasks to the trash ('trash --restore --id N' brings one"
          " back, 'trash --empty' removes them for good)")
    return 0


def cmd_trash(args: argparse.Namespace, ws: Workspace) -> int:
    """The trash: list it, restore tasks from it, or empty it."""
    if args.restore:
        if not args.ids:
            raise CommandError("trash --restore needs --id N")
        ws.restore(args.ids)
        ws.save()
        print(f"restored {len(args.ids)} tasks")
    elif args.empty:
        print(f"removed {ws.empty_trash()} tasks for good, with their pages and articles")
    else:
        trashed = ws.trash()
        print(f"{len(trashed)} tasks in the trash")
        for t in trashed:
            print(f"  #{t.id} {t.display_title}  (since {t.deleted_at})")
    return 0


def cmd_rules(args: argparse.Namespace, ws: Workspace) -> int:
    """``rules check``, ``rules test``, ``rules undo``: the rules editor's checks headless."""
    rules = ws.rules()  # a file that does not validate ends here, naming its line and key
    if args.action == "check":
        print(f"{ws.archive.rules_path}: valid, {len(rules.domains)} domain sections")
        return 0
    if args.action == "set":
        return set_rules(args, ws)
    if args.pairs:
        raise CommandError(f"--value goes with 'rules set', not 'rules {args.action}'")
    if args.action == "undo":
        undone = ws.undo_rules()
        if undone is None:
            raise CommandError(f"nothing to undo: {ws.rules_history} holds no earlier rules")
        print(f"rules.yaml restored from {undone.restored_from.name}"
              f" (sections changed: {', '.join(undone.sections) or 'none'})")
        if undone.task_ids:
            progress = ws.reclean(undone.task_ids)
            print(f"cleaned {progress.cleaned}, failed {progress.failed}"
                  f" of {len(undone.task_ids)} stored pages")
        return 0
    return print_trial(args, ws, rules)


def set_rules(args: argparse.Namespace, ws: Workspace) -> int:
    """``rules set --domain D --value KEY=VALUE…``: what the window's one-click rules write (Render
    with browser), headless. Each value is read as YAML (a word, a number, a [list]); each key
    is one the rules declare, even one being removed (which a file check never sees)."""
    import yaml

    from pipeline.rules.model import rule_spec
    from pipeline.rules.yaml_file import yaml_errors

    if not args.domain or not args.pairs:
        raise CommandError("rules set needs --domain D and one --value KEY=VALUE or more")
    values: dict[str, object | None] = {}
    for pair in args.pairs:
        key, eq, text = pair.partition("=")
        if not eq or not key.strip():
            raise CommandError(f"rules set takes KEY=VALUE, not {pair!r}")
        rule_spec("--value", None, key.strip(), key.strip())
        with yaml_errors(text, "--value", key.strip()):  # one line, as the file's errors
            values[key.strip()] = yaml.safe_load(text) if text.strip() else None
    ws.set_rules(args.domain, values)
    for key, value in values.items():
        said = "removed" if value is None else f"= {value!r}"
        print(f"{ws.archive.rules_path.name}: {args.domain.lower()}: {key} {said}")
    return 0


def print_trial(args: argparse.Namespace, ws: Workspace, rules: Rules) -> int:
    """``rules test``: the domain's stored pages under the rules as given, nothing written."""
    from pipeline.records.task import cap_text

    if not args.domain:
        raise CommandError("rules test needs --domain D")
    changes = {key: value for key, value in (("content_selector", args.content),
                                             ("strip_extra", args.strip),
                                             ("title_selector", args.title)) if value}
    tried = rules.with_section(args.domain, changes) if changes else rules
    trials = ws.try_rules(tried, domain=args.domain)
    if not trials:
        raise CommandError(f"no stored pages of {args.domain}; fetch them first with 'run'")
    lost = sum(t.lost for t in trials)
    worse = sum(t.change < 0 and not t.lost for t in trials)
    print(f"{len(trials)} stored pages of {args.domain}: {lost} would lose their article,"
          f" {worse} get shorter, {sum(t.change > 0 for t in trials)} longer")
    print(f"{'id':>6}  {'before':>14}  {'after':>14}  title")
    for t in trials:
        before = _chars_and_confidence(t.before_chars, t.before_confidence, "—")
        after = _chars_and_confidence(t.after_chars, t.after_confidence, "no article")
        print(f"{t.task.id:>6}  {before:>14}  {after:>14}  {cap_text(t.task.display_title, 60)}"
              + (f"  — {t.error}" if t.error else ""))
    return 0


def _chars_and_confidence(chars: int | None, confidence: float | None, none: str) -> str:
    return none if chars is None else f"{chars:,} ({confidence or 0:.2f})"


def cmd_books(args: argparse.Namespace, ws: Workspace) -> int:
    """The books in 03_output, each saying whether the archive has moved on since."""
    books = ws.books()
    if not books:
        print(f"no books in {ws.archive.output_dir} yet; bind them with 'build'")
    for book in books:
        names = ", ".join(f.name for f in book.files)
        state = "up to date"
        if book.out_of_date:
            said = [f"{n} {what}" for n, what in ((book.added, "added"), (book.gone, "gone"),
                    (book.cleaned_again, "cleaned again")) if n]
            state = "OUT OF DATE: " + (", ".join(said) + " since" if said else "built before"
                                       " books were dated")
        print(f"{names}  {book.articles} articles, built {book.built_at or '?'}  {state}")
    return 0


def cmd_index(args: argparse.Namespace, ws: Workspace) -> int:
    started = time.monotonic()
    count = ws.rebuild_index()
    print(f"search index: {count} articles in {time.monotonic() - started:.1f} s")
    return 0


def cmd_search(args: argparse.Namespace, ws: Workspace) -> int:
    hits = ws.search(args.query, args.limit,
                     note=lambda line: print(f"note: {line}", file=sys.stderr))
    if not hits:
        print(f"no article holds {shown(args.query)}")
        return 0
    for hit in hits:
        print(f"#{hit.task_id}  {hit.title}\n    {hit.snippet}")
    return 0


def cmd_demo(args: argparse.Namespace, ws: Workspace) -> int:
    from pipeline.usecases.demo import DEMO_CATEGORY, demo_site

    with demo_site() as site:
        print(f"Demo site serving at {site.base_url}/ (127.0.0.1 only)")
        print_intake(ws.add_links(site.paste_text(), cat1=DEMO_CATEGORY))
        run_archive(ws)
    build_archive(ws)
    print(f"Archive:    {ws.archive.root}")
    print(f"Task list:  {ws.archive.tasks_path}")
    print(f"Clean HTML: {ws.archive.clean_dir}")
    return 0


def cmd_render(args: argparse.Namespace, ws: Workspace) -> int:
    """A page rendered in the browser and its article, printed: what ``render: browser``
    would archive, checked before a rule is written. Nothing is stored."""
    article = ws.render(args.url)
    print(f"title:   {article.title}")
    print(f"method:  {article.method}")
    print(f"chars:   {article.chars:,}")
    print()
    print(article.text)
    return 0


def cmd_extract(args: argparse.Namespace, settings: Settings) -> int:
    from pipeline.extract.batch import extract_folder

    pages = Path(args.dir)
    if not pages.is_dir():
        raise CommandError(f"no such folder: {pages}")
    count = extract_folder(pages, Path(args.jsonl))
    print(f"{count} pages → {args.jsonl}")
    return 0


def cmd_recover(args: argparse.Namespace, settings: Settings) -> int:
    """Rebuild the task list from 00_raw's records, the rows still in the file kept."""
    from pipeline.usecases.workspace import Workspace

    ws, recovery = Workspace.recover(Path(args.archive) if args.archive else DEFAULT_ARCHIVE,
                                     settings)
    try:
        print(f"recovered {len(recovery.restored)} tasks from 00_raw into"
              f" {ws.archive.tasks_path} ({recovery.held} were in it already,"
              f" {len(recovery.left_out)} left out)")
        for task_id, why in recovery.left_out:
            print(f"  left out #{task_id}: {why}")
    finally:
        ws.close()
    return 0


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


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="main.py",
        description="Kuaibu 快捕: capture web articles for offline reading, bound into EPUB.",
    )
    archive_help = f"the archive folder (default: {DEFAULT_ARCHIVE})"
    set_help = "change a setting for this command, e.g. --set read_timeout=30 (repeatable)"
    parser.add_argument("--archive", metavar="DIR", help=archive_help)
    parser.add_argument("--set", metavar="NAME=VALUE", action="append", default=[],
                        dest="overrides", help=set_help)
    common = Parser(add_help=False)
    # SUPPRESS: an --archive given before the command is not overwritten by the default here
    common.add_argument("--archive", metavar="DIR", default=argparse.SUPPRESS, help=archive_help)
    common.add_argument("--set", metavar="NAME=VALUE", action="append",
                        default=argparse.SUPPRESS, dest="overrides", help=set_help)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

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
    p.add_argument("--out", metavar="DIR",
                   help="bind into this folder instead of 03_output (how a read-only"
                        " archive is bound)")
    p.set_defaults(func=cmd_build)

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
    p.set_defaults(func=cmd_dupes)

    p = sub.add_parser("edit", parents=[common], help="set the title or categories of tasks")
    p.add_argument("--id", type=task_id, action="append", dest="ids", metavar="N", required=True,
                   help="task N (repeatable)")
    p.add_argument("--title", help="the title a book shows (empty: the extracted one)")
    p.add_argument("--cat1", help="first-level category")
    p.add_argument("--cat2", help="second-level category")
    p.set_defaults(func=cmd_edit)

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

    p = sub.add_parser("demo", parents=[common],
                       help="archive the bundled sample site (served on 127.0.0.1)")
    p.set_defaults(func=cmd_demo)
    return parser


def writes(args: argparse.Namespace) -> str | None:
    """What a command would write in its archive, None when it only reads: on a read-only
    archive (a mounted backup, a disc, another user's folder) a writing command is refused
    before it starts, in one line, instead of failing on its first file."""
    if args.func in (cmd_status, cmd_search, cmd_books, cmd_render):
        return None
    if args.func is cmd_report:
        return None if args.out else "'report' writes 04_logs/report.html (--out - prints it)"
    if args.func is cmd_build:
        return None if args.out else "'build' writes 03_output (--out DIR binds elsewhere)"
    if args.func is cmd_rules and args.action in ("check", "test"):
        return None
    return f"'{args.command}' writes to it"


# the commands that make a missing archive folder; the others on one say it is not there
CREATES = ("add", "harvest", "demo")


def run_command(args: argparse.Namespace) -> int:
    """One parsed command on its archive (or, ``extract``, on a folder of pages)."""
    from pipeline.usecases.workspace import Workspace

    try:
        settings = Settings().with_text_overrides(args.overrides)
    except ValueError as e:
        raise CommandError(str(e)) from None
    if args.func in (cmd_extract, cmd_recover):  # no archive / one its list refuses
        return int(args.func(args, settings))
    ws = Workspace.open(Path(args.archive) if args.archive else DEFAULT_ARCHIVE, settings,
                        create=args.command in CREATES)
    try:
        if what := writes(args):
            ws.refuse_writing(what)
        return int(args.func(args, ws))
    finally:
        ws.close()


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command (``args.command`` must be set: no command is the launcher's window).
    Whatever happens ends in one line on stderr and a status: 1 for a failure, 2 for a
    usage error, 130 when interrupted; never a traceback (a bug's goes to errors.log)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        return run_command(args)
    except KuaibuError as e:
        print(f"error: {one_line(str(e))}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"error: {os_error(e)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
        return 130
    except Exception as e:  # a bug: said in one line, its traceback kept for a report
        where = keep_traceback(args)
        print(f"error: internal error ({type(e).__name__}: {one_line(str(e))}); the details"
              f" are in {where}", file=sys.stderr)
        return 1


def one_line(text: str, limit: int = 1000) -> str:
    """A message as one line of at most ``limit`` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit] + "…"


def os_error(e: OSError) -> str:
    """An OSError as a person reads it: the file and what went wrong, a full disk named so."""
    where = f"{e.filename}: " if e.filename else ""
    what = e.strerror or one_line(str(e))
    if e.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"disk full: {where}{what}"
    return f"{where}{what}"


def keep_traceback(args: argparse.Namespace) -> str:
    """The current exception's traceback appended to the archive's 04_logs/errors.log, or to a
    temp file when that cannot be written; where it went."""
    import tempfile
    import traceback

    from pipeline.store.archive import utc_now

    text = f"{utc_now()} main.py {args.command}\n{traceback.format_exc()}"
    logs = (Path(args.archive) if getattr(args, "archive", None) else DEFAULT_ARCHIVE) / "04_logs"
    try:
        if logs.is_dir():
            with open(logs / "errors.log", "a", encoding="utf-8") as f:
                f.write(text)
            return str(logs / "errors.log")
    except OSError:
        pass
    try:
        with tempfile.NamedTemporaryFile("w", prefix="kuaibu-error-", suffix=".log",
                                         delete=False, encoding="utf-8") as f:
            f.write(text)
            return f.name
    except OSError:
        return "no file (none could be written)"
