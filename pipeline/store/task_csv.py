"""tasks.csv as text and rows: its cells, its columns, reading it back as Excel may leave it.

Every cell Kuaibu writes is bounded (so the file always reads back) and inert (no cell starts a
formula when Excel opens the file); a file that does not parse raises ``TaskFileError`` naming
the line and what to fix. ``pipeline.store.tasks`` (the store, its merge and its lock) is built
on these.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import fields
from itertools import repeat
from operator import attrgetter, itemgetter, methodcaller
from pathlib import Path
from types import NoneType
from typing import Any

from pipeline.records.errors import TaskFileError
from pipeline.records.task import Task

# The most any cell may hold, a person's own columns included; a longer one in the file is an
# error naming its line. Well under Python's default csv field limit (131,072), so a file
# Kuaibu wrote also reads back with a plain csv reader.
MAX_CELL_CHARS = 100_000
# Cells starting with one of these run as formulas in Excel (OWASP, "CSV Injection"): they are
# written after FORMULA_GUARD and read back without it.
FORMULA_STARTS = frozenset("=+-@\t\r")
FORMULA_GUARD = "'"

COLUMNS = tuple(f.name for f in fields(Task) if f.name != "extra")
# Free text from remote pages and runs: cut to MAX_TEXT_CHARS when set.
TEXT_COLUMNS = frozenset({"title", "extracted_title", "error", "refresh_error"})
# Columns earlier versions wrote that mean nothing now; a file that has one loses it on the
# next save. simhash: the fingerprint of before (other values; ``fingerprint`` replaced it).
RETIRED_COLUMNS = frozenset({"simhash"})
# Numbers are formatted by Kuaibu and checked on reading, so they never start a formula and
# stay numbers in Excel; every other column (and a person's) gets the formula guard.
_NUMBER_COLUMNS = frozenset({"id", "attempts", "duplicate_of", "chars", "images_total",
                             "images_ok", "confidence"})
TEXT_FIELDS = tuple(name for name in COLUMNS if name not in _NUMBER_COLUMNS)
NUMBER_FIELDS = tuple(name for name in COLUMNS if name in _NUMBER_COLUMNS)
get_texts = attrgetter(*TEXT_FIELDS)
FIELD_NAMES = (*COLUMNS, "extra")
# What follows FORMULA_GUARD in a guarded cell: a formula start, or the guard itself (a text
# that really starts with "'=" or "''" is written with one more "'").
AFTER_GUARD = FORMULA_STARTS | {FORMULA_GUARD}
# The csv module's own limit, one above MAX_CELL_CHARS for the guard; see _ensure_field_limit.
_CSV_FIELD_LIMIT = MAX_CELL_CHARS + len(FORMULA_GUARD)
# Line breaks as io.StringIO(newline="") and so csv.reader count them.
_LINE_BREAK = re.compile(r"\r\n?|\n")
BARE_LINK = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)


def guard_cell(cell: str) -> str:
    """The cell as written: a would-be formula (or a text that starts like a guarded cell)
    gets FORMULA_GUARD in front, so Excel shows text and ``unguard_cell`` gives it back."""
    if cell[:1] in FORMULA_STARTS or (cell[:1] == FORMULA_GUARD and cell[1:2] in AFTER_GUARD):
        return FORMULA_GUARD + cell
    return cell


def unguard_cell(cell: str) -> str:
    """The inverse of ``guard_cell``. A person's "'tis" (guard followed by anything else) is
    left as typed; Excel itself never writes a leading "'" (it is its text prefix)."""
    if cell[:1] == FORMULA_GUARD and cell[1:2] in AFTER_GUARD:
        return cell[1:]
    return cell


def with_missing(columns: list[str]) -> list[str]:
    """A file's columns with Kuaibu's missing ones added. One whose neighbours in COLUMNS are
    both there is a column a later version added (``error_kind`` in a file written before
    kinds): it goes beside them. The rest (a file a person started) go at the end."""
    out = list(columns)
    for i, name in enumerate(COLUMNS):
        if name in out:
            continue
        neighbours = COLUMNS[i - 1 : i] + COLUMNS[i + 1 : i + 2]
        if i and len(neighbours) == 2 and all(n in out for n in neighbours):
            out.insert(out.index(neighbours[0]) + 1, name)
        else:
            out.append(name)
    return out


def _int_or_none(raw: str) -> int | None:
    return int(raw) if raw else None


def cell_parser(name: str) -> Callable[[str], object]:
    """How one column's stripped cell text becomes a Task field."""
    if name == "attempts":
        return lambda raw: int(raw) if raw else 0
    if name in ("id", "duplicate_of", "chars", "images_total", "images_ok"):
        return _int_or_none
    if name == "confidence":
        return lambda raw: float(raw) if raw else None
    return str


class RowFields:
    """Which cells of a file's rows are which Task fields, looked up once per file. A row's
    values are then taken by C-level calls (one ``str.strip`` mapped over the row, one
    itemgetter for the text columns) and a number cell is parsed only when it holds
    something: 100,000 rows of 31 cells cost no Python step per cell. Text cells are stripped
    before they are unguarded, so a guarded "'\\tx" keeps its tab; a person's cells (``extra``)
    are kept as typed."""

    def __init__(self, header: list[str], keep: list[int]) -> None:
        texts = [i for i in keep if header[i] in COLUMNS and header[i] not in _NUMBER_COLUMNS]
        self.text_names = tuple(header[i] for i in texts)  # "url" among them, always
        self._texts: Callable[[list[str]], tuple[str, ...]] = (
            itemgetter(*texts) if len(texts) > 1 else lambda cells: (cells[texts[0]],))
        self.numbers = [(i, header[i], cell_parser(header[i])) for i in keep
                        if header[i] in _NUMBER_COLUMNS]
        self.extra = [(i, header[i]) for i in keep if header[i] not in COLUMNS]

    def values(self, row: list[str], guarded: bool) -> dict[str, object]:
        """The row's Task fields by name; an empty number cell is left out (the field's
        default: what parsing "" gives). ``guarded=False`` says no cell holds FORMULA_GUARD.
        Raises ValueError for a number cell that is not one (``bad_number`` names it)."""
        cells = list(map(str.strip, row))
        texts: Iterable[str] = self._texts(cells)
        if guarded:
            texts = map(unguard_cell, texts)
        values: dict[str, object] = dict(zip(self.text_names, texts, strict=True))
        for i, name, parse in self.numbers:
            if cells[i]:
                values[name] = parse(cells[i])
        return values

    def bad_number(self, row: list[str]) -> tuple[str, str]:
        """The first number column whose cell is not one, and the cell (after a ValueError)."""
        return next((name, row[i]) for i, name, parse in self.numbers
                    if not cell_parses(parse, row[i].strip()))

    def extras(self, row: list[str], guarded: bool) -> dict[str, str]:
        """The person's cells of the row, as typed (unguarded)."""
        return {name: unguard_cell(row[i]) if guarded else row[i] for i, name in self.extra}


def cell_parses(parse: Callable[[str], object], raw: str) -> bool:
    try:
        parse(raw)
    except ValueError:
        return False
    return True


def format_cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return str(round(value, 3))
    return str(value)


_FIRST = itemgetter(slice(0, 1))


def rows_of(tasks: Sequence[Task], columns: Sequence[str]
            ) -> tuple[Iterator[tuple[str, ...]], list[list[Any]]]:
    """The tasks' rows as written, cells in ``columns``' order, and each text field's
    values as the tasks hold them (``TEXT_FIELDS``' order: what a snapshot's check reads).
    Made a column at a time, each by builtins mapped over every task: numbers as they are,
    every text guarded (``guard_cell``, asked only of a column where some cell starts like
    a formula), a person's cells by their column's name. 100,000 tasks' cells were a
    dictionary each, made a field at a time in Python: most of a save's time."""
    texts = {name: list(map(attrgetter(name), tasks)) for name in TEXT_FIELDS}
    cells: list[Iterable[str]] = []
    for name in columns:
        if name in texts:
            cells.append(_guarded(texts[name]))
        elif name in _NUMBER_COLUMNS:
            cells.append(_numbers(list(map(attrgetter(name), tasks))))
        else:
            cells.append(_guarded(list(map(methodcaller("get", name, ""), map(_EXTRA, tasks)))))
    return zip(*cells, strict=True), list(texts.values())


_EXTRA = attrgetter("extra")


def _guarded(column: list[Any]) -> list[str]:
    try:
        firsts = {*map(_FIRST, column)}
    except TypeError:  # a None or a number set into a text field
        column = list(map(format_cell, column))
        firsts = {*map(_FIRST, column)}
    if AFTER_GUARD.isdisjoint(firsts):
        return column
    return list(map(guard_cell, column))


def _numbers(column: list[Any]) -> list[str]:
    """``format_cell`` of each, in builtins for a column of whole numbers or of fractions,
    with or without blanks (every column Kuaibu writes)."""
    kinds = {*map(type, column)}
    if kinds <= {int, NoneType}:
        return list(map(_EMPTY_FOR_NONE, column, map(str, column)))
    if kinds <= {float, NoneType}:
        fractions: Iterator[float] = map(_ZERO_FOR_NONE, column, column)
        rounded = map(round, fractions, repeat(3))
        return list(map(_EMPTY_FOR_NONE, column, map(str, rounded)))
    return list(map(format_cell, column))


# dict.get(value, default): "" (0.0) for None, else the default given, in C
_EMPTY_FOR_NONE, _ZERO_FOR_NONE = {None: ""}.get, {None: 0.0}.get


# -- reading the file as text and rows ------------------------------------------------------------

_SAVE_AS = "save it from Excel as 'CSV UTF-8 (Comma delimited)'"
DELIMITERS = (",", "\t", ";")  # the separators a task list is read with, the first preferred
_QUOTE_HINT = 'a quote inside a cell is written "" and a cell holding one is put in quotes'


def _line_of(text: str, index: int) -> int:
    return len(_LINE_BREAK.findall(text, 0, index)) + 1


def decode_tasks(data: bytes, path: Path) -> tuple[str, str]:
    """The file's text, and the codec a save writes it back in (its own, so Excel opens it
    as before): "utf-16" (with its byte-order mark), "gb18030", else "utf-8-sig".

    UTF-16 needs its byte-order mark (Excel's "Unicode text" has one); otherwise UTF-8 with or
    without BOM, then GB18030 (what Excel on Chinese Windows saves as "CSV"). Bytes neither
    reads are an error naming the line, rather than text guessed and then saved over.
    """
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text, encoding = _decode_utf16(data, path), "utf-16"
    else:
        text, encoding = _decode_utf8_or_gb18030(data, path)
    text = text.removeprefix("\ufeff")
    nul = text.find("\x00")
    if nul >= 0:
        raise TaskFileError(f"{path}, line {_line_of(text, nul)}: the file holds NUL characters"
                            f" (UTF-16 without a byte-order mark?); {_SAVE_AS}")
    return text, encoding


def _decode_utf16(data: bytes, path: Path) -> str:
    try:
        return data.decode("utf-16")
    except UnicodeDecodeError as e:
        before = data[: e.start].decode("utf-16", errors="replace")
        raise TaskFileError(f"{path}, line {_line_of(before, len(before))}: broken UTF-16"
                            f" text at byte {e.start:,}; {_SAVE_AS}") from None


def _decode_utf8_or_gb18030(data: bytes, path: Path) -> tuple[str, str]:
    """UTF-8, else GB18030, with the codec to write it back in. A BOM, or valid UTF-8
    before the first bad byte, says the file is UTF-8 with a broken byte rather than GB18030
    (whose bytes are almost never valid UTF-8): the error names that byte's line."""
    has_bom = data.startswith(codecs.BOM_UTF8)
    body = data[len(codecs.BOM_UTF8):] if has_bom else data
    try:
        return body.decode("utf-8"), "utf-8-sig"  # written with the BOM Excel needs
    except UnicodeDecodeError as utf8_error:
        bad = utf8_error.start
        if not has_bom and max(body[:bad], default=0) < 0x80:
            try:
                return body.decode("gb18030"), "gb18030"
            except UnicodeDecodeError as gb_error:
                bad = gb_error.start
    line = len(re.findall(rb"\r\n?|\n", body[:bad])) + 1
    raise TaskFileError(f"{path}, line {line}: byte 0x{body[bad]:02X} is neither UTF-8 nor"
                        f" GB18030 text (nor UTF-16 with its byte-order mark); {_SAVE_AS}")


def sniff_delimiter(text: str) -> str:
    """The separator that finds the url column in the first line: ",", else a tab (Excel's
    "Unicode text" and "Text (Tab delimited)"), else ";" (Excel's "CSV" where the decimal
    mark is a comma, as in German or French settings); "," when none does."""
    first = _LINE_BREAK.split(text, 1)[0]
    return next((sep for sep in DELIMITERS
                 if "url" in (c.strip().strip('"').strip() for c in first.split(sep))), ",")


def _ensure_field_limit() -> None:
    """The csv module's field limit is process-wide: raise it to what a Kuaibu file may hold
    (never lower it under another user of csv). Longer cells are caught by ``check_cells``."""
    if csv.field_size_limit() < _CSV_FIELD_LIMIT:
        csv.field_size_limit(_CSV_FIELD_LIMIT)


def parse_rows(text: str, delimiter: str, path: Path) -> Iterator[tuple[int, list[str]]]:
    """Each row with the line it starts on; a file whose quoting is broken is an error.
    A generator: holding 100,000 rows at once costs a sixth more load time (in the GC).

    ``strict=True`` is what finds an unbalanced quote: without it the csv module reads a
    quoted cell that is never closed to the end of the file and returns it as one cell, every
    row after the quote inside it. In strict mode the parser's state machine raises
    "unexpected end of data" when the input ends inside quotes, and "',' expected" when a
    closing quote is followed by text (which non-strict mode would silently glue together).
    A quote closed by a second stray quote further down is found by ``check_swallowed``.
    """
    _ensure_field_limit()
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    start = 1
    try:
        for row in reader:
            yield start, row
            start = reader.line_num + 1
    except csv.Error as e:
        raise TaskFileError(_csv_problem(path, start, reader.line_num, str(e))) from None


class Lookahead:
    """Rows one at a time, with a look at the ones after (a row cut in pieces needs them)."""

    def __init__(self, rows: Iterable[tuple[int, list[str]]]) -> None:
        self._rows = iter(rows)
        self._ahead: deque[tuple[int, list[str]]] = deque()

    def __iter__(self) -> Lookahead:
        return self

    def __next__(self) -> tuple[int, list[str]]:
        return self._ahead.popleft() if self._ahead else next(self._rows)

    def peek(self, n: int) -> tuple[int, list[str]] | None:
        """The n-th row after the one last taken (0: the next), None past the end."""
        while len(self._ahead) <= n:
            row = next(self._rows, None)
            if row is None:
                return None
            self._ahead.append(row)
        return self._ahead[n]


def _csv_problem(path: Path, start: int, line: int, error: str) -> str:
    """The csv module's complaint as a person can act on it, naming the line to look at."""
    if error.startswith("unexpected end of data"):
        return (f"{path}, line {start}: a quoted cell in this row is never closed, so the rest"
                f" of the file would be one cell; close it ({_QUOTE_HINT})")
    if error.startswith("field larger than field limit"):
        if line > start:
            return (f"{path}, line {start}: a cell starting in this row runs past line {line}"
                    f" and {MAX_CELL_CHARS:,} characters: most likely a quote that is never"
                    f" closed ({_QUOTE_HINT})")
        return f"{path}, line {line}: a cell holds more than {MAX_CELL_CHARS:,} characters"
    if "expected after" in error:
        return (f"{path}, line {line}: text after the closing quote of a quoted cell;"
                f" {_QUOTE_HINT}")
    return f"{path}, line {line}: not readable as CSV ({error})"


def _row_lines(row: list[str]) -> list[int]:
    """How many line breaks each cell of a row holds (to name the line a cell starts on)."""
    return [len(_LINE_BREAK.findall(cell)) if "\n" in cell or "\r" in cell else 0
            for cell in row]


def _looks_like_row(line: str, width: int, delimiter: str, url_at: int,
                    id_at: int | None) -> bool:
    """Whether a line inside a cell reads as a row of the list: the header's number of cells
    (what Kuaibu and Excel write), a bare link in the url column and a number or nothing in
    the id column. A person's multi-line note practically never looks like that."""
    if line.count(delimiter) < width - 1:  # too few cells even unquoted: cheap, and most
        return False
    cells = next(csv.reader([line], delimiter=delimiter), [])
    if len(cells) != width or not BARE_LINK.fullmatch(cells[url_at].strip()):
        return False
    return id_at is None or not cells[id_at].strip() or cells[id_at].strip().isdigit()


def check_swallowed(path: Path, line: int, row: list[str], width: int, delimiter: str,
                     url_at: int, id_at: int | None) -> None:
    """Refuse a cell that holds whole rows of the list: a stray quote opened it and a second
    stray quote further down closed it, so the row's cell count may still look right."""
    breaks = _row_lines(row)
    if not any(breaks):
        return
    at, last = line, line + sum(breaks)
    for cell, n in zip(row, breaks, strict=True):
        inner_lines = _LINE_BREAK.split(cell)[1:] if n else []
        for k, inner in enumerate(inner_lines, start=1):
            if _looks_like_row(inner, width, delimiter, url_at, id_at):
                raise TaskFileError(
                    f"{path}, line {at}: a quoted cell opened here holds the row on line"
                    f" {at + k} ({inner[:60]!r}) and is closed only on line {last};"
                    f" close it where it should end ({_QUOTE_HINT})"
                )
        at += n


def split_row_end(row: list[str], rows: Lookahead, width: int,
                   id_at: int | None) -> int | None:
    """The last line of a row that a line break outside quotes cut in pieces, else None.

    Kuaibu and Excel write every cell of a row with an id, so such a row with too few cells,
    followed by rows without ids whose cells make up exactly the missing ones, is one row
    broken apart; read as it stands, the pieces would be saved back as two wrong tasks.
    """
    if id_at is None or len(row) >= width or id_at >= len(row) or not row[id_at].strip().isdigit():
        return None
    total, j, end = len(row), 0, None
    while total < width and (after := rows.peek(j)) is not None:
        end, piece = after
        if not piece or len(piece) >= width or (id_at < len(piece)
                                                 and piece[id_at].strip().isdigit()):
            return None
        total += len(piece) - 1  # the cut cell is counted in both pieces
        j += 1
    return end if total == width else None


def check_cells(path: Path, line: int, row: list[str], header: list[str]) -> None:
    """Refuse a cell over MAX_CELL_CHARS (when another csv user raised the module's limit)."""
    for i, cell in enumerate(row):
        if len(cell) > MAX_CELL_CHARS and len(unguard_cell(cell)) > MAX_CELL_CHARS:
            name = header[i] if i < len(header) else f"#{i + 1}"
            raise TaskFileError(f"{path}, line {line}: the {name!r} cell holds {len(cell):,}"
                                f" characters; the most a cell may hold is {MAX_CELL_CHARS:,}")
