"""rules.yaml read as YAML within bounds, every failure one line naming the file and line.

A rules file is a person's hand edit, so it is read as hostile input: at most
``MAX_RULES_BYTES`` of UTF-8 (a file of 200,000 sections kept every command busy for minutes),
at most ``MAX_SECTIONS`` sections, collections nested at most ``MAX_NESTING`` deep, and no key
written twice in one mapping (PyYAML keeps the later without a word, so a person editing the
first would see nothing change). Otherwise it is ``yaml.safe_load``: the same loader, tags and
types. What the values mean is ``pipeline.rules.model``'s business.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import yaml

from pipeline.records.errors import RulesError
from pipeline.records.failures import Code, Failure, failure

MAX_RULES_BYTES = 256 * 1024  # the bundled file is 5 KB; a thousand hand-written sections fit
MAX_SECTIONS = 2000
# A rules file is three levels deep (sections, their keys, a list or the headers); PyYAML's
# composer recurses once a level, so a file of 5,000 nested `[` ends in RecursionError unless
# the depth is checked as the file is composed.
MAX_NESTING = 20
_MERGE_TAG = "tag:yaml.org,2002:merge"


class KeyTwice(yaml.YAMLError):
    """A mapping holds the same key twice: its key and the 1-based lines of both."""

    def __init__(self, key: str, first: int, again: int) -> None:
        super().__init__(f"{key} on lines {first} and {again}")
        self.key, self.first, self.again = key, first, again


class RulesLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that counts depth and sections as it composes and refuses a key
    written twice in one mapping (a ``<<`` merge may still be overridden, as YAML means)."""

    def __init__(self, text: str, path: str) -> None:
        super().__init__(text)
        self.path = path
        self._depth = 0
        self._sections = 0

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node:
        self._depth += 1
        try:
            event = self.peek_event()
            line = event.start_mark.line + 1
            if self._depth > MAX_NESTING and isinstance(event, yaml.CollectionStartEvent):
                raise RulesError(self.path, line, None,
                                 failure(Code.RULES_TOO_DEEP, MAX_NESTING))
            if self._depth == 2 and index is None:  # a key of the top mapping: a section
                self._sections += 1
                if self._sections > MAX_SECTIONS:
                    raise RulesError(self.path, line, None,
                                     failure(Code.RULES_TOO_MANY_SECTIONS, MAX_SECTIONS))
            return super().compose_node(parent, index)  # type: ignore[no-any-return]
        finally:
            self._depth -= 1

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep=deep)
        except ValueError as e:  # int() of more than 4,300 digits, a date of month 13
            raise yaml.constructor.ConstructorError(
                None, None, str(e).split(":")[0], node.start_mark) from None

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, yaml.Node] = {}
        for key_node, _value in node.value:
            if key_node.tag == _MERGE_TAG:
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                before = seen.setdefault(key, key_node)
            except TypeError:  # an unhashable key: SafeConstructor says so below
                continue
            if before is not key_node:
                raise KeyTwice(str(key), _line(before), _line(key_node))
        return super().construct_mapping(node, deep=deep)  # type: ignore[no-any-return]


def read_rules_text(path: Path) -> str:
    """The text of a rules file: refused unread when too large, and when not UTF-8."""
    size = path.stat().st_size
    if size > MAX_RULES_BYTES:
        raise RulesError(str(path), None, None, _too_large(size))
    data = path.read_bytes()[:MAX_RULES_BYTES + 1]  # it may have grown since
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise RulesError(str(path), line, None,
                         failure(Code.RULES_NOT_UTF8, f"0x{data[e.start]:02x}")) from None


def compose_rules(text: str, path: str) -> tuple[yaml.Node | None, RulesLoader]:
    """The document's node tree and the loader to construct its values with; RulesError for
    a text too large, too deep, of too many sections, or not YAML."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_RULES_BYTES:
        raise RulesError(path, None, None, _too_large(size))
    with yaml_errors(text, path):
        loader = RulesLoader(text, path)
        return loader.get_single_node(), loader


@contextmanager
def yaml_errors(text: str, path: str, where: str | None = None) -> Iterator[None]:
    """What the loader raises, as one RulesError naming the line: PyYAML's own messages run
    over several lines and quote a position the reader has to count."""
    try:
        yield
    except KeyTwice as e:
        key = f"{where}.{e.key}" if where else e.key
        raise RulesError(path, e.again, key,
                         failure(Code.RULES_KEY_TWICE, e.first, e.again)) from None
    except yaml.reader.ReaderError as e:
        line = text.count("\n", 0, max(e.position, 0)) + 1
        raise RulesError(path, line, None,
                         failure(Code.RULES_CONTROL_CHARACTER, f"U+{e.character:04X}")) from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        problem = " ".join(str(getattr(e, "problem", None) or e).split())
        at = mark.line + 1 if mark is not None else None
        raise RulesError(path, at, where, failure(Code.RULES_NOT_YAML, problem)) from None


def _line(node: yaml.Node) -> int:
    return int(node.start_mark.line) + 1


def _too_large(size: int) -> Failure:
    return failure(Code.RULES_TOO_LARGE, f"{size:,}", MAX_RULES_BYTES // 1024)
