"""The commands, one function each: the arguments in, the workspace's use case called, its
answer printed. Printing only; the work is the workspace's.
"""


from __future__ import annotations

import argparse
import gc
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.cli.progress import (
    bind,
    build_archive,
    import_paths,
    reclean_outcome,
    refresh_archive,
    run_archive,
)
from pipeline.cli.wording import counted, to_second
from pipeline.records.errors import ErrorKind, KuaibuError
from pipeline.records.settings import Settings
from pipeline.store.default_archive import archive_for

CHM_NOT_COMPILED = 4  # build's exit status when chmcmd is missing (the project is written)

# The commands' own modules are imported by the commands: `extract` over a folder of pages is
# timed as a whole process against trafilatura's, and the fetcher, the runner and the book
# builder (requests, Pillow, ebooklib) cost it a third of a second it never uses.
if TYPE_CHECKING:
    from pipeline.intake.links import IntakeReport
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
            if c.url in result.known:
                why += f" (already task #{result.known[c.url]})"
            print(f"  {mark} #{c.rank:<3} {c.score:4.1f}  {c.text[:60]}  {c.url} — {why}")
    if result.report is None:
        print("dry run: nothing added")
    else:
        print_intake(result.report)
    return 0


def cmd_import(args: argparse.Namespace, ws: Workspace) -> int:
    """Saved pages made tasks whose raw page is the saved file; the summary printed."""
    summary = import_paths(ws, [Path(p) for p in args.paths], args.cat1, args.cat2,
                           fetch_missing=args.fetch_missing)
    for task in summary.imported:
        images = f", images {task.images_ok}/{task.images_total}" if task.images_total else ""
        restored = " (restored from the trash)" if task.id in summary.restored else ""
        print(f"  imported #{task.id}{restored}{images}: {task.url}")
    for task in summary.failed:
        print(f"  failed #{task.id}: {task.error} — {summary.origins[task.id]}")
    for origin, existing in summary.duplicates:
        print(f"  duplicate of #{existing}: {origin}")
    for refused in summary.refused:
        print(f"  refused: {refused.origin} — {refused.text}")
    print(f"imported {len(summary.imported)}, failed {len(summary.failed)},"
          f" duplicates {len(summary.duplicates)}, refused {len(summary.refused)}")
    return EXIT_TASKS_FAILED if summary.failed else 0


def cmd_status(args: argparse.Namespace, ws: Workspace) -> int:
    from pipeline.records.task import STATUSES

    counts = ws.counts()
    print(f"{counted(sum(counts.values()), 'task')} in {ws.archive.root}")
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


def cmd_dupes(args: argparse.Namespace, ws: Workspace) -> int:
    """Exact duplicates (same text) and near ones (SimHash close), for a person to judge;
    with --duplicate/--of, --keep-both or --undecide, a decision on one pair first."""
    from pipeline.text.dedup import NEAR_DUPLICATE_BITS

    if args.diff:
        print_differences(ws, *args.diff)
        return 0
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


def print_differences(ws: Workspace, first: int, second: int) -> None:
    """``dupes --diff A B``: each place the texts differ, its words removed [-…-] and added
    {+…+} between their context (the report page's marks, in plain text)."""
    found = ws.differences(first, second)
    if not found:
        print(f"#{first} and #{second}: the same words (or one has no article)")
        return
    print(f"#{first} → #{second} differ in {counted(len(found), 'place')}:")
    for h in found:
        removed = f"[-{h.removed}-]" if h.removed else ""
        added = f"{{+{h.added}+}}" if h.added else ""
        print(f"  …{h.before}{removed}{added}{h.after}…")


def cmd_clean(args: argparse.Namespace, ws: Workspace) -> int:
    ids = ws.reclean_ids(args.ids, args.domain)
    if not ids:
        raise CommandError("no stored pages match; fetch them first with 'run'")
    print(reclean_outcome(ws.reclean(ids), len(ids)))
    return 0


def cmd_build(args: argparse.Namespace, ws: Workspace) -> int:
    """Exit status 4 when a CHM project is written but not compiled (no chmcmd)."""
    result = build_archive(ws, args.cat1, args.split_by, args.ids, args.title,
                           Path(args.out) if args.out else None, order=args.order,
                           format=args.format)
    return CHM_NOT_COMPILED if result.chm_projects else 0


def cmd_export(args: argparse.Namespace, ws: Workspace) -> int:
    """What the archive fetched as WARC/1.1 (--warc) or a WACZ package (--wacz)."""
    from pipeline.cli.progress import ProgressBar

    bar = ProgressBar()
    try:
        result = ws.export_warc(Path(args.wacz or args.warc), wacz=bool(args.wacz),
                                cat1=args.cat1, cat2=args.cat2,
                                progress=lambda done, total: bar.draw(done, total, "exporting"))
    finally:
        bar.finish()
    print(f"{'WACZ' if args.wacz else 'WARC'}: {result.path} ({counted(result.pages, 'page')},"
          f" {counted(result.images, 'image')})")
    for task_id in result.unreadable:
        print(f"  left out #{task_id}: its record in 00_raw cannot be read")
    return 0


def cmd_edit(args: argparse.Namespace, ws: Workspace) -> int:
    """What the window's table edits: a title or categories, on one task or several."""
    changes = {name: value for name in ("title", "cat1", "cat2")
               if (value := getattr(args, name)) is not None}
    if not changes:
        raise CommandError("nothing to change: give --title, --cat1 or --cat2")
    ws.edit(args.ids, **changes)
    ws.save()
    print(f"changed {', '.join(changes)} of {counted(len(args.ids), 'task')}")
    return 0


def cmd_move(args: argparse.Namespace, ws: Workspace) -> int:
    """What the window's Move up / Move down do: arrange the list, whose order is the order a
    book binds its chapters in (``build --order list``, the default)."""
    place = next(name for name in ("before", "after", "top", "bottom")
                 if getattr(args, name) not in (None, False))
    other = getattr(args, place) if place in ("before", "after") else None
    ws.move(args.ids, place, other)
    ws.save()
    where = f"{place} #{other}" if other is not None else f"to the {place}"
    print(f"moved {counted(len(set(args.ids)), 'task')} {where}")
    return 0


def cmd_remove(args: argparse.Namespace, ws: Workspace) -> int:
    """Move tasks to the trash; their pages and articles stay until it is emptied."""
    ws.remove(args.ids)
    ws.save()
    print(f"moved {counted(len(args.ids), 'task')} to the trash ('trash --restore --id N'"
          " brings one back, 'trash --empty' removes them for good)")
    return 0


def cmd_trash(args: argparse.Namespace, ws: Workspace) -> int:
    """The trash: list it, restore tasks from it, or empty it."""
    if args.restore:
        if not args.ids:
            raise CommandError("trash --restore needs --id N")
        ws.restore(args.ids)
        ws.save()
        print(f"restored {counted(len(args.ids), 'task')}")
    elif args.empty:
        print(f"removed {counted(ws.empty_trash(), 'task')} for good, with their pages and"
              " articles")
    else:
        trashed = ws.trash()
        print(f"{counted(len(trashed), 'task')} in the trash")
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
            print(reclean_outcome(ws.reclean(undone.task_ids), len(undone.task_ids)))
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
    print(f"{counted(len(trials), 'stored page')} of {args.domain}: {lost} would lose their"
          f" article, {worse} get shorter, {sum(t.change > 0 for t in trials)} longer")
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
                    (book.cleaned_again, "cleaned again"), (book.retitled, "retitled")) if n]
            state = "OUT OF DATE: " + (", ".join(said) + " since" if said else "built before"
                                       " books were dated")
        print(f"{names}  {counted(book.articles, 'article')}, built {to_second(book.built_at)}"
              f"  {state}")
    return 0


def cmd_index(args: argparse.Namespace, ws: Workspace) -> int:
    started = time.monotonic()
    count = ws.rebuild_index()
    print(f"search index: {counted(count, 'article')} in {time.monotonic() - started:.1f} s")
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


BOOK_FORMATS = {".epub": "epub", ".pdf": "pdf"}  # book -o's suffix → the build's format


def book_output(text: str) -> str:
    """An argparse ``type`` for ``book -o``: refused before the archive is opened."""
    if Path(text).suffix.lower() not in BOOK_FORMATS:
        raise argparse.ArgumentTypeError(f"{shown(text)}: a book is an .epub or a .pdf")
    if not Path(text).parent.is_dir():
        raise argparse.ArgumentTypeError(f"{shown(text)}: no such folder")
    return text


def cmd_book(args: argparse.Namespace, ws: Workspace) -> int:
    """The whole job in one command (percollate's shape): the links added, the new and the
    failed ones run, the lot bound into one book, moved where ``-o`` says (else to
    ``<title>.epub`` in the current folder), its path printed. Exit 3 when some pages are
    not in the book, each named; a second ``book`` of the same links finds them archived
    and only binds."""
    import shutil
    import tempfile

    from pipeline.book import safe_stem
    from pipeline.intake.links import read_text_source
    from pipeline.records.task import Status

    target = Path(args.output) if args.output else None
    format = BOOK_FORMATS[target.suffix.lower() if target else ".epub"]  # the parser checked
    folder = target.parent if target else Path.cwd()
    text = "\n".join(read_text_source(s) if s == "-" or Path(s).is_file() else s
                     for s in args.sources)
    report = ws.add_links(text)
    print_intake(report)
    ids = [t.id for t in report.added] + [task_id for _, task_id in report.duplicates]
    if not ids:
        raise CommandError("no links to make a book of")
    run_archive(ws, retry_failed=True, task_ids=ids)
    tasks = [ws.task(i) for i in ids]
    failed = [t for t in tasks if t.status is Status.FAILED]
    missing = ([f"  not in the book: #{t.id} {t.url} — {t.error}" for t in failed]
               + [f"  not in the book: {link} — {why}" for link, why in report.rejected])
    if len(failed) == len(tasks):
        print("\n".join(missing))
        raise CommandError(f"no page could be archived, so no book was made"
                           f" ({counted(len(failed), 'page')} failed)")
    title = args.title or next((t.title or t.extracted_title for t in tasks
                                if t.status is not Status.FAILED), "") or ws.archive.name
    target = target or folder / f"{safe_stem(title)}.{format}"
    with tempfile.TemporaryDirectory(prefix=".kuaibu-book-", dir=folder) as tmp:
        result = bind(ws, task_ids=ids, title=title, out=Path(tmp), format=format)
        made = result.pdfs if format == "pdf" else result.epubs
        if len(made) == 1:
            places = [target]
        else:  # volumes (the book is over the size budget): OUT-1.epub, OUT-2.epub, …
            places = [target.with_name(f"{target.stem}-{n}{target.suffix}")
                      for n in range(1, len(made) + 1)]
        for made_path, place in zip(made, places, strict=True):
            shutil.move(made_path, place)
    print(f"{counted(result.articles, 'article')} bound")
    for line in missing:
        print(line)
    for dup, of in result.left_out:
        print(f"  left out: #{dup} {ws.task(dup).url} nearly repeats #{of}"
              f" ('dupes --keep-both {dup} {of}' binds both)")
    for place in places:
        print(f"book: {place.resolve()}")  # the last lines, so a script finds the book there
    return EXIT_TASKS_FAILED if missing else 0


def cmd_install_desktop(args: argparse.Namespace, settings: Settings) -> int:
    """The desktop's menu entry and icons, in the user's data folder (no archive)."""
    from pipeline.desktop.entry import DesktopError, install, uninstall

    try:
        changed = uninstall() if args.uninstall else install()
    except DesktopError as e:
        raise CommandError(str(e)) from None
    for path in changed:
        print(f"{'removed' if args.uninstall else 'wrote'} {path}")
    if not changed:
        print("nothing to remove" if args.uninstall else "nothing written")
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


def cmd_extract(args: argparse.Namespace, settings: Settings, own_process: bool = False) -> int:
    """``own_process``: the process is the command's (see ``run_command``), so its collector
    is tuned for the batch; a caller's is left as it was."""
    pages = Path(args.dir)
    if not pages.is_dir():
        raise CommandError(f"no such folder: {pages}")
    # A folder of pages allocates and frees objects by the hundred thousand, nearly none of
    # them in cycles: the collector's default passes (one per 700 more objects alive) cost a
    # twentieth of the batch (issue 27 §10). What the imports made lives as long as the
    # process and is never walked again; a pass comes once 200,000 more objects are alive,
    # from the extraction's own imports on (they make objects by the ten thousand too). At
    # 50,000 a page's tree and the caches reached it once a batch, and that pass, the first
    # after the imports, walked the older generations too: 15-60 ms of a dev set's batch,
    # where the few cycles a page leaves (about ten objects) wait at no cost in memory.
    if own_process:
        gc.set_threshold(200_000)
    from pipeline.extract.batch import extract_folder

    if own_process:
        gc.freeze()
    count = extract_folder(pages, Path(args.jsonl))
    print(f"{counted(count, 'page')} → {args.jsonl}")
    return 0


def cmd_recover(args: argparse.Namespace, settings: Settings) -> int:
    """Rebuild the task list from 00_raw's records, the rows still in the file kept."""
    from pipeline.usecases.workspace import Workspace

    ws, recovery = Workspace.recover(archive_for(args.command, args.archive),
                                     settings)
    try:
        print(f"recovered {counted(len(recovery.restored), 'task')} from 00_raw into"
              f" {ws.archive.tasks_path} ({recovery.held} were in it already,"
              f" {len(recovery.left_out)} left out)")
        for task_id, why in recovery.left_out:
            print(f"  left out #{task_id}: {why}")
    finally:
        ws.close()
    return 0


def cmd_capture_host(args: argparse.Namespace, settings: Settings) -> int:
    """The browser extension's native messaging host: one framed message on stdin, one
    framed answer on stdout (``pipeline.browser.host``); started by the browser, never by a
    person. The archive is opened only for a message that passed every check."""
    from pipeline.browser.host import serve
    from pipeline.cli.traceback_log import keep_traceback

    def open_archive() -> Workspace:  # imported only for a message that passed its checks
        from pipeline.usecases.workspace import Workspace

        return Workspace.open(archive_for(args.command, args.archive),
                              settings, create=False)  # a drive not mounted stays unmade

    return serve(sys.stdin.buffer, sys.stdout.buffer, args.caller, open_archive,
                 lambda: keep_traceback(args))


def cmd_install_browser(args: argparse.Namespace, settings: Settings) -> int:
    """Register the capture host with Chromium, Google Chrome and Firefox for this user
    (``--uninstall``: remove it); the files written or removed, one a line."""
    from pipeline.browser.install import install, uninstall
    from pipeline.records.places import EXTENSION

    home = Path.home()
    if args.uninstall:
        removed = uninstall(home)
        for path in removed:
            print(f"removed {path}")
        if not removed:
            print("nothing to remove: the host was not registered")
        return 0
    from pipeline.usecases.workspace import Workspace

    root = archive_for(args.command, args.archive)
    Workspace.open(root, settings).close()  # made now if missing: the host never makes one
    for path in install(home, root):
        print(f"wrote {path}")
    print(f"captures go to {root.resolve()}")
    print(f"load the extension unpacked from {EXTENSION} (see README)")
    return 0
