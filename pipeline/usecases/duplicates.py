"""Near duplicates: the proposals, a person's decisions, the report.

A part of ``Workspace`` (``pipeline.usecases.workspace``), the use cases both faces call;
split by area as Anki's ``aqt/operations`` is.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from itertools import filterfalse
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.records.errors import KuaibuError
from pipeline.records.task import HAS_ARTICLE, Status, Task
from pipeline.store.tasks import TaskStore
from pipeline.usecases.base import WorkspaceBase
from pipeline.usecases.changed import Changed

_FINGERPRINT = attrgetter("fingerprint")  # the tasks without one looked at, not all 100,000
_DELETED_AT = attrgetter("deleted_at")
# Asked about this few tasks (a one-article build), only theirs and the tasks whose
# fingerprints share a block with theirs are read (``TaskStore.near``), not the whole list.
ASKED_BY_FINGERPRINT = 64

if TYPE_CHECKING:  # the runner, extractor and binder are imported when a use case needs them

    from pipeline.store.duplicates import Decided, NearPair
    from pipeline.text.textdiff import Hunk


class Duplicates(WorkspaceBase):
    """Near duplicates: the proposals, a person's decisions, the report."""

    def near_duplicates(self, involving: Collection[int] | None = None) -> list[NearPair]:
        """Pairs of articles whose texts are nearly the same, closest first, with what a
        person decided of each (see pipeline.store.duplicates); editions of one page are left out.
        ``involving``: only the pairs one of these tasks is in (what one book holds).
        Articles cleaned before fingerprints were what they are now get theirs first."""
        from pipeline.store.duplicates import near_pairs, read_decisions

        if involving is not None and len(involving) <= ASKED_BY_FINGERPRINT:
            tasks = self._near_tasks(involving)
        else:
            tasks = self.tasks()  # 100,000 tasks: copied again only if a task changed
            if self._fill_fingerprints(tasks):
                tasks = self.tasks()
        return near_pairs(tasks, read_decisions(self.archive.decisions_path),
                          self.article, involving=involving)

    def _near_tasks(self, involving: Collection[int]) -> list[Task]:
        """The tasks asked about and those whose fingerprints may be close to theirs (the
        store's ``near``: through the mirror, a few of 100,000), the trash left out: every
        pair one of them is in is among these tasks."""
        from pipeline.text.dedup import NEAR_DUPLICATE_BITS

        asked = list(filterfalse(_DELETED_AT, self.store.some(involving)))
        if self._fill_fingerprints(asked):
            asked = list(filterfalse(_DELETED_AT, self.store.some(involving)))
        near = self.store.near(filter(None, map(_FINGERPRINT, asked)), NEAR_DUPLICATE_BITS)
        if self._fill_fingerprints(near):
            near = self.store.near(filter(None, map(_FINGERPRINT, asked)),
                                   NEAR_DUPLICATE_BITS)
        held = {t.id for t in asked}
        return asked + [t for t in filterfalse(_DELETED_AT, near) if t.id not in held]

    def left_out(self, involving: Collection[int] | None = None) -> dict[int, int]:
        """What a build leaves out: the later task of each near-duplicate pair no one has
        judged → the task it nearly repeats (of the pairs ``involving`` these tasks, when
        given: a book asks about what it holds)."""
        return {p.second.id: p.first.id for p in self.near_duplicates(involving)
                if p.decided is None}

    def exact_duplicates(self, pairs: Iterable[NearPair]) -> list[Task]:
        """The duplicates a run set aside (the same text, or the same link at intake): every
        task marked duplicate except those a person's decision on one of ``pairs`` made so."""
        judged = {(p.first.id, p.second.id) for p in pairs}
        judged |= {(b, a) for a, b in judged}
        return [t for t in self.tasks() if t.status == Status.DUPLICATE
                and (t.id, t.duplicate_of) not in judged]

    def dupes_report(self) -> tuple[list[NearPair], Path, Path]:
        """The near duplicates, written to 04_logs/near_duplicates.csv and .html."""
        from pipeline.store.duplicates import write_report

        pairs = self.near_duplicates()
        csv_path, html_path = write_report(self.archive, pairs, self.article)
        return pairs, csv_path, html_path

    def pair_differences(self, pair: NearPair) -> list[Hunk]:
        """Where the two texts of a pair differ, word by word."""
        return self.differences(pair.first.id, pair.second.id)

    def differences(self, first: int, second: int) -> list[Hunk]:
        """Where the texts of two tasks' articles differ, word by word (``dupes --diff``):
        a pair is diffed when someone asks, not when the pairs are listed."""
        from pipeline.store.duplicates import text_hunks

        for task_id in (first, second):
            self.task(task_id)  # NoSuchTask for an id the list does not hold
        return text_hunks(first, second, self.article)

    def mark_duplicate(self, duplicate: int, original: int, decided_at: str = "") -> None:
        """A person's decision: ``duplicate`` is a copy of ``original``, so it is not bound
        (nor run or refreshed) until the decision changes. ``decided_at``: when, for a
        decision put back as it was (``put_decision``); now by default."""
        from pipeline.store.duplicates import Decision, record

        if duplicate == original:
            raise KuaibuError(f"#{duplicate} cannot be a duplicate of itself")
        first, second = self.task(duplicate), self.task(original)
        record(self.archive.decisions_path, first.id, second.id, Decision.DUPLICATE,
               decided_at)
        with self.store.transaction() as store:
            self._undo_decided(store, original, duplicate)
            store.update(duplicate, status=Status.DUPLICATE, duplicate_of=original)
        self.changed(Changed.TASKS)

    def keep_both(self, a: int, b: int, decided_at: str = "") -> None:
        """A person's decision: both of a near-duplicate pair are bound (``decided_at`` as
        for ``mark_duplicate``)."""
        from pipeline.store.duplicates import Decision, record

        first, second = sorted((self.task(a).id, self.task(b).id))
        record(self.archive.decisions_path, second, first, Decision.KEEP_BOTH, decided_at)
        self._undecide_tasks(first, second)

    def undecide(self, a: int, b: int) -> None:
        """Take a pair's decision back: it is proposed again, as if never judged."""
        from pipeline.store.duplicates import record

        record(self.archive.decisions_path, a, b, None)
        self._undecide_tasks(a, b)

    def decision(self, a: int, b: int) -> Decided | None:
        """What a person decided of the pair ``a``, ``b`` (either order); None: undecided."""
        from pipeline.store.duplicates import read_decisions

        return read_decisions(self.archive.decisions_path).get((min(a, b), max(a, b)))

    def put_decision(self, a: int, b: int, decided: Decided | None) -> None:
        """Make the pair's decision ``decided`` again, as ``decision`` read it (its time
        too), or undecided for None, through the decision's own use case, so tasks.csv
        follows as it did then: how a face undoes (and redoes) a decision."""
        from pipeline.store.duplicates import Decision

        if decided is None:
            self.undecide(a, b)
        elif decided.pair != (min(a, b), max(a, b)):
            raise KuaibuError(f"the decision on #{decided.duplicate} and #{decided.original}"
                              f" is not one on #{a} and #{b}")
        elif decided.decision == Decision.KEEP_BOTH:
            self.keep_both(a, b, decided.decided_at)
        else:
            self.mark_duplicate(decided.duplicate, decided.original, decided.decided_at)

    def _undecide_tasks(self, a: int, b: int) -> None:
        with self.store.transaction() as store:
            self._undo_decided(store, a, b)
            self._undo_decided(store, b, a)
        self.changed(Changed.TASKS)

    def _undo_decided(self, store: TaskStore, task_id: int, of: int) -> None:
        """``task_id`` back to what its outputs show if it was made a duplicate of ``of``."""
        from pipeline.run.reconcile import stage_reached

        task = store.get(task_id)
        if task.status == Status.DUPLICATE and task.duplicate_of == of:
            store.update(task_id, status=stage_reached(self.archive, task_id),
                         duplicate_of=None)

    def _fill_fingerprints(self, tasks: list[Task]) -> bool:
        """The fingerprints ``tasks`` lack, put in the store; False when none was made."""
        from pipeline.text.dedup import simhash

        missing = [t for t in filterfalse(_FINGERPRINT, tasks) if t.status in HAS_ARTICLE]
        made = False
        for t in missing:
            if (article := self.article(t.id)) is not None:
                self.store.update(t.id, fingerprint=f"{simhash(article.text):016x}")
                made = True
        if missing and not self.read_only:  # read-only: computed for this look, not kept
            self.store.save()
        return made
