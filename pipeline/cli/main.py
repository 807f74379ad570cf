"""The command line: the same pipeline as the window, headless.

Every command takes ``--archive DIR`` (before or after the command name; default: the
``archive/`` folder beside main.py); only add, harvest, import, demo and install-browser make a
folder that is not there. Exit status 0 on success; otherwise one line on stderr and status 1
(2 for a usage error: every number has its range, ``pipeline.records.bounds``); ``run`` exits
3 when it finished but some tasks failed, ``build --format chm`` 4 when it wrote a CHM
project that no chmcmd was there to compile. Never a traceback: a bug is one line too, its
traceback in errors.log.
An archive this process cannot write is read (status, search, books, report --out, build
--out); a command that would write it says so before it starts.
"""


from __future__ import annotations

import argparse
import errno
import gc
import sys
from collections.abc import Sequence
from pathlib import Path

from pipeline.cli.commands import (
    CommandError,
    cmd_books,
    cmd_build,
    cmd_capture_host,
    cmd_export,
    cmd_extract,
    cmd_install_browser,
    cmd_install_desktop,
    cmd_recover,
    cmd_render,
    cmd_report,
    cmd_rules,
    cmd_search,
    cmd_status,
)
from pipeline.cli.parser import build_parser
from pipeline.cli.traceback_log import keep_traceback
from pipeline.records.errors import BuildCancelled, KuaibuError
from pipeline.records.settings import Settings
from pipeline.store.default_archive import archive_for

# The commands' own modules are imported by the commands: `extract` over a folder of pages is
# timed as a whole process against trafilatura's, and the fetcher, the runner and the book
# builder (requests, Pillow, ebooklib) cost it a third of a second it never uses.

def writes(args: argparse.Namespace) -> str | None:
    """What a command would write in its archive, None when it only reads: on a read-only
    archive (a mounted backup, a disc, another user's folder) a writing command is refused
    before it starts, in one line, instead of failing on its first file."""
    if args.func in (cmd_status, cmd_search, cmd_books, cmd_render, cmd_export):
        return None
    if args.func is cmd_report:
        return None if args.out else "'report' writes 04_logs/report.html (--out - prints it)"
    if args.func is cmd_build:
        return None if args.out else "'build' writes 03_output (--out DIR binds elsewhere)"
    if args.func is cmd_rules and args.action in ("check", "test"):
        return None
    return f"'{args.command}' writes to it"


# the commands that make a missing archive folder; the others on one say it is not there
CREATES = ("add", "harvest", "import", "demo", "install-browser", "book")


def archive_root(args: argparse.Namespace) -> Path:
    """The archive a command works in (``default_archive.archive_for``)."""
    return archive_for(args.command, getattr(args, "archive", None))


def run_command(args: argparse.Namespace, own_process: bool = False) -> int:
    """One parsed command on its archive (or, ``extract``, on a folder of pages).
    ``own_process``: the process is the command's (not a test's or a caller's), so what
    opening the archive made is frozen out of the garbage collector's walks (``gc.freeze``:
    100,000 tasks' records walked again cost a command a third of a second), and ``extract``
    tunes the collector for its batch. The one rule: only a command's own process has its
    collector tuned; a caller's is left as it was."""
    try:
        settings = Settings().with_text_overrides(args.overrides)
    except ValueError as e:
        raise CommandError(str(e)) from None
    # no archive (extract, install-desktop) / one its list refuses (recover) / opened only
    # for a message that passed its checks (capture-host, install-browser)
    if args.func is cmd_extract:
        return cmd_extract(args, settings, own_process)
    if args.func in (cmd_recover, cmd_capture_host, cmd_install_browser, cmd_install_desktop):
        return int(args.func(args, settings))
    from pipeline.usecases.workspace import Workspace  # not for extract: see the imports above

    # the list's records are made with the collector paused (``TaskStore``) ...
    ws = Workspace.open(archive_root(args), settings, create=args.command in CREATES)
    if own_process:  # ... nor walked by it later: they live until the command ends
        gc.freeze()
    try:
        if what := writes(args):
            ws.refuse_writing(what)
        return int(args.func(args, ws))
    finally:
        ws.close()


def entry() -> None:
    """The installed ``kuaibu`` command: the command line only (``kuaibu-gui`` is the window),
    so no command prints the help, with or without a display."""
    sys.exit(main(prog="kuaibu", own_process=True))


def main(argv: Sequence[str] | None = None, prog: str = "main.py",
         own_process: bool = False) -> int:
    """Run one command (``args.command`` must be set: no command is the launcher's window)."""
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    return run_parsed(args, own_process)


def run_parsed(args: argparse.Namespace, own_process: bool = False) -> int:
    """Run one command the parser has read (the launcher reads the line once, to choose
    between the window and a command, and hands its reading here: building the parser of
    every command again cost each process 6-8 ms). Whatever happens ends in one line on stderr
    and a status: 1 for a failure, 2 for a usage error, 130 when interrupted; never a
    traceback (a bug's goes to errors.log)."""
    try:
        return run_command(args, own_process)
    except BuildCancelled as e:  # Ctrl+C during a build: stopped between articles
        print(f"stopped: {e}", file=sys.stderr)
        return 130
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
