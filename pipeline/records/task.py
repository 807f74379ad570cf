"""A task: one link in the list, its place in the pipeline and what went wrong.

The record every layer speaks (the store reads and writes it, the run moves it along, the
window shows it); the file it lives in is ``pipeline.store.tasks``'s business.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from pipeline.records.errors import ErrorKind
from pipeline.records.failures import Failure, dump_args, load_failure

# Free text that a remote page or a run writes (titles, error messages) is cut to this many
# characters, the cut marked with CUT_MARK: a 140 KB <title> must not make the list unreadable.
MAX_TEXT_CHARS = 1_000
CUT_MARK = "…"
# The ids a task may have: whole numbers a spreadsheet keeps exactly (a double holds every
# integer below 2**53; Excel and JavaScript round larger ones, which would merge two tasks).
# A hand-typed id outside is refused naming its line; the CLI checks its --id against it.
TASK_IDS = range(1, 2**53)


class Status(StrEnum):
    """A task's status; the value is the word in tasks.csv (a person may type it, so it
    stays a plain English word). The progress statuses come first, in the pipeline's order."""

    PENDING = "pending"
    FETCHED = "fetched"
    CLEANED = "cleaned"
    LOCALIZED = "localized"
    DONE = "done"  # bound into a book
    RUNNING = "running"  # a worker has taken the task (reclaimed after a crash)
    FAILED = "failed"
    DUPLICATE = "duplicate"


# The statuses of a task whose article is in the archive (what a book binds, a refresh checks).
HAS_ARTICLE = frozenset((Status.CLEANED, Status.LOCALIZED, Status.DONE))
PROGRESS = (Status.PENDING, Status.FETCHED, Status.CLEANED, Status.LOCALIZED, Status.DONE)
STATUSES = tuple(Status)
# Loading looks words up here: Status(word) takes 20 times as long (64 ms a 100,000 rows).
STATUS_OF = {s.value: s for s in Status}


@dataclass
class Task:
    id: int
    url: str
    original_url: str = ""
    title: str = ""  # the title a person expects; wins over the extracted one
    extracted_title: str = ""
    cat1: str = ""
    cat2: str = ""
    status: Status = Status.PENDING
    attempts: int = 0
    error: str = ""
    error_kind: str = ""  # an ErrorKind's value while failed; read it through failure_kind
    duplicate_of: int | None = None
    added_at: str = ""
    fetched_at: str = ""
    updated_at: str = ""
    # when a person took it off the list: in the trash, hidden from runs, books and the window
    # until restored or the trash is emptied (its files are kept until then)
    deleted_at: str = ""
    content_hash: str = ""
    fingerprint: str = ""  # the text's SimHash, 16 hex digits (pipeline.text.dedup)
    # a refresh (``run --refresh``): when it last asked the site; when it found the article
    # changed (the book says "updated on"); why it could not check, while it cannot (the
    # archived article stays as it was, so this is not the task's status)
    last_checked: str = ""
    revised_at: str = ""
    refresh_error: str = ""
    chars: int | None = None
    images_total: int | None = None
    images_ok: int | None = None
    confidence: float | None = None
    # the list page a harvest found the link on (as given to it), "" for a link a person
    # added: a found link is the page's, fetched under the page's address policy
    found_on: str = ""
    # the ``error`` as a code and its arguments (``pipeline.records.failures``), so the window and
    # the report say it in their words; "" in rows written before codes (or by a person)
    error_code: str = ""
    error_args: str = ""  # a JSON list
    extra: dict[str, str] = field(default_factory=dict)  # columns a person added

    @property
    def deleted(self) -> bool:
        return bool(self.deleted_at)

    @property
    def display_title(self) -> str:
        return self.title or self.extracted_title or self.url

    @property
    def failure_kind(self) -> ErrorKind | None:
        """Why the task failed, None while it has not. A kind the file does not hold (an old
        tasks.csv, a status a person typed, a word this version does not know) is UNKNOWN:
        the cell is kept as it is, never refused."""
        if self.status != Status.FAILED:
            return None
        try:
            return ErrorKind(self.error_kind)
        except ValueError:
            return ErrorKind.UNKNOWN

    @property
    def failure(self) -> Failure | None:
        """The ``error`` as a code and its arguments; None for a row written before codes,
        or whose cells no longer say the ``error`` they sit beside (a person edited one):
        the sentence is then all there is, and never contradicted."""
        found = load_failure(self.error_code, self.error_args) if self.error_code else None
        return found if found is not None and found.text == self.error else None


def failure_changes(failure: Failure) -> dict[str, object]:
    """A task's changes that record ``failure`` as its error: the sentence and its code."""
    return {"error": failure.text, "error_code": failure.code.value,
            "error_args": dump_args(failure.args)}


def cap_text(text: str, limit: int = MAX_TEXT_CHARS) -> str:
    """``text`` cut to ``limit`` characters, the cut marked, so a cut title says it was cut."""
    if len(text) <= limit:
        return text
    return text[: limit - len(CUT_MARK)] + CUT_MARK
