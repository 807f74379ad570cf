"""What in the archive an action changed, said to whoever listens (the window's views).

A face that shows the archive keeps what it shows only until the archive changes; the use
cases say when it does and what changed, so that a view refreshes from the one source instead
of each action remembering which views to tell. Said after the change is made (and saved when
the use case saves), possibly on the thread the use case ran on; a listener that draws must
hand the news to its own thread.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Flag, auto


class Changed(Flag):
    """The parts of the archive that changed; views refresh from the parts they show."""

    TASKS = auto()  # tasks.csv: a row added, edited, trashed, restored, its status or article
    REPORT = auto()  # 04_logs/report.html written again
    BOOKS = auto()  # 03_output: a book bound
    RULES = auto()  # rules.yaml saved or put back


ChangeListener = Callable[[Changed], None]
