"""Edits to rules.yaml text that keep a person's comments and layout.

PyYAML cannot round-trip comments, so the form's changes are made line by line inside one
section; the result is validated by ``pipeline.rules.model.parse_rules`` like anything typed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import yaml

from pipeline.records.errors import RulesError
from pipeline.rules.model import section_name


class FlowSectionError(ValueError):
    """The section is written inline (``site: {a: b}``); the form edits block style only."""


# A section's first line: its name at column 0, quoted or not, then ":" and what follows.
_HEADER = re.compile(r"""^(['"]?)([^\s'"#][^'"]*?)\1\s*:(?=\s|$)(.*)$""")


def _section_start(lines: list[str], section: str) -> int | None:
    """The line of the section the rules read as ``section``: ``Example.COM.`` and
    ``例子.中国`` are found as ``example.com`` and ``xn--fsqu00a.xn--fiqs8s`` are."""
    wanted = _canonical(section)
    if wanted is None:  # no section of a valid file: appended, the file's check refuses it
        return None
    for i, line in enumerate(lines):
        match = _HEADER.match(line)
        if match and _canonical(match.group(2)) == wanted:
            rest = match.group(3).strip()
            if rest and not rest.startswith("#"):
                raise FlowSectionError(section)
            return i
    return None


def _canonical(name: str) -> str | None:
    try:
        return section_name("", None, name)
    except RulesError:
        return None


def _block_end(lines: list[str], start: int) -> int:
    """The index after a section's last line (the next line at column 0 ends it)."""
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or lines[end][0] in " \t"):
        end += 1
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1  # blank lines between sections stay between sections
    return end


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def set_section_keys(text: str, section: str, values: Mapping[str, object | None]) -> str:
    """``text`` with ``section``'s keys set to ``values`` (None or "" or [] removes a key).

    Other keys, other sections and every comment stay as they were; a missing section is
    appended at the end.
    """
    lines = text.splitlines()
    start = _section_start(lines, section)
    wanted = {k: v for k, v in values.items() if v not in (None, "", [], ())}
    if start is None:
        if not wanted:
            return text
        while lines and not lines[-1].strip():
            lines.pop()
        lines += ["", f"{section}:"]
        start = len(lines) - 1
    end = _block_end(lines, start)
    body = lines[start + 1:end]
    keyed = [line for line in body if line.strip() and not line.lstrip().startswith("#")]
    indent = _indent(keyed[0]) if keyed else 2
    kept: list[str] = []
    insert_at: int | None = None
    i = 0
    while i < len(body):
        line = body[i]
        match = re.match(rf"^ {{{indent}}}([\w-]+)\s*:", line)
        if match and match.group(1) in values:
            if insert_at is None:
                insert_at = len(kept)
            i += 1
            while i < len(body) and body[i].strip() and (
                    _indent(body[i]) > indent
                    or (_indent(body[i]) == indent and body[i].lstrip().startswith("- "))):
                i += 1
            continue
        kept.append(line)
        i += 1
    new: list[str] = []
    for key, value in wanted.items():
        dumped = yaml.safe_dump({key: value}, allow_unicode=True, default_flow_style=False,
                                sort_keys=False, width=1000)
        new += [" " * indent + part for part in dumped.splitlines()]
    if insert_at is None:
        insert_at = len(kept)
    kept[insert_at:insert_at] = new
    out = lines[:start + 1] + kept + lines[end:]
    return "\n".join(out) + "\n"
