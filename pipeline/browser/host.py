"""The native messaging host (``main.py capture-host``): one message in, one answer out.

The browser starts the host for each message the extension sends, naming the caller in its
arguments. The caller is checked first (``identity.caller_problem``), then the message's
size and framing (``framing``), then its shape (``messages``); only then is the archive
opened and the use case called (``Workspace.capture_page``, ``capture_link``,
``categories``). Anything refused is answered ``{"ok": false, "error": reason}`` with the
archive untouched; nothing but the framed answer ever reaches stdout (it is the browser's
pipe).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, BinaryIO

from pipeline.browser.framing import MessageRefused, read_message, write_message
from pipeline.browser.identity import caller_problem
from pipeline.browser.messages import AskCategories, Message, parse_message
from pipeline.records.capture import CapturedLink, CaptureResult
from pipeline.records.errors import KuaibuError

if TYPE_CHECKING:
    from pipeline.usecases.workspace import Workspace

# the most categories sent to the extension's chooser (its answer must stay under 1 MB)
MAX_CATEGORIES = 500


def serve(stdin: BinaryIO, stdout: BinaryIO, argv: Sequence[str],
          open_workspace: Callable[[], Workspace],
          keep_traceback: Callable[[], str]) -> int:
    """Answer one message; 0 when it was acted on, 1 when it was refused or failed (the
    answer says why either way). ``keep_traceback`` keeps a bug's traceback and says where."""
    try:
        with contextlib.redirect_stdout(sys.stderr):  # a stray print must not break framing
            problem = caller_problem(argv)
            if problem is not None:
                raise MessageRefused(problem)
            answer = _answer(parse_message(read_message(stdin)), open_workspace)
    except MessageRefused as e:
        answer = {"ok": False, "refused": True, "error": str(e)}
    except KuaibuError as e:
        answer = {"ok": False, "error": " ".join(str(e).split())[:1000]}
    except OSError as e:
        answer = {"ok": False, "error": f"{e.filename or ''} {e.strerror or e}".strip()}
    except Exception as e:  # a bug: one line for the extension, the traceback kept
        answer = {"ok": False, "error": f"internal error ({type(e).__name__}); the details"
                                        f" are in {keep_traceback()}"}
    write_message(stdout, answer)
    return 0 if answer.get("ok") else 1


def _answer(message: Message, open_workspace: Callable[[], Workspace]) -> dict[str, object]:
    ws = open_workspace()
    try:
        if isinstance(message, AskCategories):
            return {"ok": True, "categories": ws.categories()[:MAX_CATEGORIES]}
        result = (ws.capture_link(message) if isinstance(message, CapturedLink)
                  else ws.capture_page(message))
        return _result(result)
    finally:
        ws.close()


def _result(result: CaptureResult) -> dict[str, object]:
    return {"ok": True, "task": result.task_id, "added": result.added,
            "status": result.status, "waiting": result.waiting, "error": result.error}
