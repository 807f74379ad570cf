"""Full-text search of an archive's articles: SQLite FTS5, in ``<archive>/search.db``.

The index is derived from 01_clean/ (every clean puts its article in, ``rebuild`` makes it
again from the files), so deleting it loses nothing. FTS5's tokenizers cut Chinese badly:
``unicode61`` reads a run of ideographs as one token, so "廊桥" is never found inside "一座廊桥的
修缮笔记", and ``trigram`` misses every two-character word. So CJK runs are indexed as
overlapping character pairs (and their last character alone): "廊桥的" → "廊桥 桥的 的", and a
query is cut the same way into a phrase of pairs, so a word of two or more characters is found
exactly, a single character as a prefix. Latin words go through ``unicode61`` as they are.

Snippets come from the original text, not the indexed pairs, with the matches marked.

SQLite's failures leave here as ``SearchIndexError``, one line naming the file and the
problem (a full disk, a read-only folder, a damaged file), never as ``sqlite3`` exceptions:
the faces print them, the workspace decides when to search without the file.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from pipeline.records.article import Article
from pipeline.records.errors import KuaibuError
from pipeline.text.cjk import CJK_CHARS

INDEX_NAME = "search.db"
SNIPPET_CHARS = 120  # around the first match
MARK = ("[", "]")  # around each match in a snippet: plain text, any face can show it
# title matches count this many times a body match (bm25 column weights)
TITLE_WEIGHT = 5.0

_CJK_RUN = re.compile(f"[{CJK_CHARS}]+")
_TERM = re.compile(rf"[{CJK_CHARS}]+|[^\s{CJK_CHARS}\"'()*:^+-]+")

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS docs (
    id INTEGER PRIMARY KEY, title TEXT NOT NULL, text TEXT NOT NULL,
    title_tokens TEXT NOT NULL, text_tokens TEXT NOT NULL
);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
    title_tokens, text_tokens, content='docs', content_rowid='id',
    tokenize='unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS docs_in AFTER INSERT ON docs BEGIN
    INSERT INTO fts(rowid, title_tokens, text_tokens)
    VALUES (new.id, new.title_tokens, new.text_tokens);
END;
CREATE TRIGGER IF NOT EXISTS docs_out AFTER DELETE ON docs BEGIN
    INSERT INTO fts(fts, rowid, title_tokens, text_tokens)
    VALUES ('delete', old.id, old.title_tokens, old.text_tokens);
END;
PRAGMA user_version = {1};
"""


def tokens(text: str) -> str:
    """The text as it is indexed: each CJK run as overlapping pairs and its last character."""
    def pairs(m: re.Match[str]) -> str:
        run = m.group(0)
        return " " + " ".join([run[i:i + 2] for i in range(len(run) - 1)] + [run[-1]]) + " "

    return _CJK_RUN.sub(pairs, text)


def match_query(query: str) -> str | None:
    """A person's query as an FTS5 MATCH expression: every word must be there (AND); a CJK
    word a phrase of its pairs, one CJK character a prefix. None when no word is left."""
    parts = []
    for term in _TERM.findall(query):
        if _CJK_RUN.fullmatch(term):
            if len(term) == 1:
                parts.append(f'"{term}"*')
            else:
                parts.append('"' + " ".join(term[i:i + 2] for i in range(len(term) - 1)) + '"')
        else:
            parts.append('"' + term.replace('"', '""') + '"')
    return " AND ".join(parts) or None


@dataclass(frozen=True)
class Hit:
    task_id: int
    title: str
    snippet: str  # the matches between MARK
    rank: float  # bm25: lower is better


class IndexProblem(Enum):
    """Why the index file failed, as a caller acts on it."""

    FULL = "full"  # no space to write it: searching can go on without the file
    READ_ONLY = "read-only"  # it cannot be written here: likewise
    DAMAGED = "damaged"  # not a database, or a broken one: ``index`` makes it again
    OTHER = "other"


# SQLite's primary result codes (https://sqlite.org/rescode.html) by what they mean here
_PROBLEMS = {13: IndexProblem.FULL, 8: IndexProblem.READ_ONLY, 14: IndexProblem.READ_ONLY,
             23: IndexProblem.READ_ONLY, 11: IndexProblem.DAMAGED, 26: IndexProblem.DAMAGED}


class SearchIndexError(KuaibuError):
    """The index file cannot be opened, read or written; the message is one line."""

    def __init__(self, path: Path | str, problem: IndexProblem, detail: str) -> None:
        said = {IndexProblem.FULL: f"disk full: the search index {path} cannot be written",
                IndexProblem.READ_ONLY: f"the search index {path} cannot be written here",
                IndexProblem.DAMAGED: f"the search index {path} is damaged ({detail});"
                                      " 'main.py index' makes it again from 01_clean",
                IndexProblem.OTHER: f"the search index {path}: {detail}"}[problem]
        super().__init__(said)
        self.problem = problem


def index_error(path: Path | str, error: sqlite3.Error) -> SearchIndexError:
    """An SQLite failure on ``path`` as the one line a person reads."""
    code = getattr(error, "sqlite_errorcode", None)
    problem = _PROBLEMS.get(code & 0xFF, IndexProblem.OTHER) if code is not None else (
        IndexProblem.OTHER)
    return SearchIndexError(path, problem, " ".join(str(error).split()))


class SearchIndex:
    """One archive's index. Thread-safe (the run's workers put articles in as they clean);
    other processes may read while one writes (WAL)."""

    def __init__(self, path: Path, *, read_only: bool = False) -> None:
        """The index at ``path``, made when missing; ``read_only``: the file as it is, opened
        for reading only (a read-only archive: nothing is made, nothing written)."""
        self.path = path
        self._lock = threading.Lock()
        with self._named():
            if read_only:
                self._db = _reader(path)
            else:
                self._db = sqlite3.connect(path, check_same_thread=False, timeout=30)
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.executescript(_SCHEMA)

    @classmethod
    def of(cls, root: Path, *, read_only: bool = False) -> SearchIndex:
        return cls(root / INDEX_NAME, read_only=read_only)

    @classmethod
    def in_memory(cls) -> SearchIndex:
        """An index that lives while it is open: search without a file to write."""
        return cls(Path(":memory:"))

    @contextmanager
    def _named(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as e:
            raise index_error(self.path, e) from None

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def put(self, task_id: int, article: Article) -> None:
        """Index (or index again) one task's article."""
        with self._lock, self._named(), self._db:
            self._db.execute("DELETE FROM docs WHERE id = ?", (task_id,))
            self._db.execute("INSERT INTO docs VALUES (?, ?, ?, ?, ?)",
                             (task_id, article.title, article.text, tokens(article.title),
                              tokens(article.text)))

    def drop(self, task_ids: Iterable[int]) -> None:
        with self._lock, self._named(), self._db:
            self._db.executemany("DELETE FROM docs WHERE id = ?", ((i,) for i in task_ids))

    def rebuild(self, articles: Iterable[tuple[int, Article]]) -> int:
        """Make the index again from these articles alone; how many went in."""
        count = 0
        with self._lock, self._named(), self._db:
            self._db.execute("DELETE FROM docs")
            for task_id, article in articles:
                self._db.execute("INSERT INTO docs VALUES (?, ?, ?, ?, ?)",
                                 (task_id, article.title, article.text, tokens(article.title),
                                  tokens(article.text)))
                count += 1
            self._db.execute("INSERT INTO fts(fts) VALUES ('optimize')")
        return count

    def __len__(self) -> int:
        with self._lock, self._named():
            return int(self._db.execute("SELECT count(*) FROM docs").fetchone()[0])

    def is_empty(self) -> bool:
        """Whether the index holds no article: one row looked at (``len`` counts them all,
        reading every page of a 100,000-article index)."""
        with self._lock, self._named():
            return self._db.execute("SELECT 1 FROM docs LIMIT 1").fetchone() is None

    def search(self, query: str, limit: int = 50) -> list[Hit]:
        """The best ``limit`` articles holding every word of ``query``, best first."""
        expression = match_query(query)
        if expression is None:
            return []
        with self._lock, self._named():
            rows = self._db.execute(
                "SELECT d.id, d.title, d.text, bm25(fts, ?, 1.0) AS rank FROM fts"
                " JOIN docs d ON d.id = fts.rowid WHERE fts MATCH ? ORDER BY rank LIMIT ?",
                (TITLE_WEIGHT, expression, limit)).fetchall()
        words = _TERM.findall(query)
        return [Hit(task_id, title, snippet(text, words), rank)
                for task_id, title, text, rank in rows]


def _reader(path: Path) -> sqlite3.Connection:
    """``path`` opened for reading only. A WAL index in a folder that cannot be written has
    no -shm file to share: it is then read as immutable (a backup, a disc: no one writes
    it). A missing file is READ_ONLY's "cannot be made here", not an empty index."""
    if not path.is_file():
        raise SearchIndexError(path, IndexProblem.READ_ONLY, "missing")
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True,
                         check_same_thread=False)
    try:
        db.execute("SELECT count(*) FROM docs").fetchone()
        return db
    except sqlite3.OperationalError as e:
        if _PROBLEMS.get(e.sqlite_errorcode & 0xFF) is not IndexProblem.READ_ONLY:
            raise
        db.close()
    return sqlite3.connect(f"{path.resolve().as_uri()}?immutable=1", uri=True,
                           check_same_thread=False)


def snippet(text: str, words: list[str], width: int = SNIPPET_CHARS) -> str:
    """A window of ``text`` around the first word found, each word found marked."""
    pattern = re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)),
                         re.IGNORECASE) if words else None
    flat = " ".join(text.split())
    first = pattern.search(flat) if pattern else None
    start = max(0, (first.start() if first else 0) - width // 3)
    piece = flat[start:start + width]
    if pattern is not None:
        piece = pattern.sub(lambda m: f"{MARK[0]}{m.group(0)}{MARK[1]}", piece)
    return ("…" if start else "") + piece + ("…" if start + width < len(flat) else "")
