"""Per-domain rules (rules.yaml): the seeds' "manual first, algorithm as fallback".

A ``default:`` section and one section per domain. A host finds its section by widening:
``a.b.example.com → b.example.com → example.com`` (the first that exists wins) and its values
are laid over the defaults. ``strip_extra`` adds to ``strip`` instead of replacing it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from pipeline.errors import BadSelectorError, RulesError
from pipeline.urls import host_in_domain

DEFAULT_KEEP_ATTRS = ("src", "href", "alt", "title", "colspan", "rowspan")
# A rules file is three levels deep (sections, their keys, a list or the headers); PyYAML's
# composer recurses once a level, so a file of 5,000 nested `[` ends in RecursionError unless
# the depth is checked on the events first.
MAX_NESTING = 20


@dataclass(frozen=True)
class SiteRules:
    """The rules in force for one host, defaults already merged in."""

    content_selector: str | None = None
    title_selector: str | None = None
    strip: tuple[str, ...] = ()
    strip_extra: tuple[str, ...] = ()
    keep_attrs: tuple[str, ...] = DEFAULT_KEEP_ATTRS
    min_chars: int = 0
    encoding: str | None = None
    cookies: str | None = None
    headers: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    user_agent: str | None = None
    referer: str | None = None
    concurrency: int | None = None
    delay_ms: int | None = None
    tracking_params: tuple[str, ...] = ()
    # query parameters of this site that name a page, kept though the tracking list has them
    # (GitHub's ?ref=<branch>, a timetable's ?from=PEK)
    keep_params: tuple[str, ...] = ()
    lazy_attrs: tuple[str, ...] = ()
    # harvest: the links of this site's list pages that are articles (searched in the URL)
    article_link_pattern: str | None = None
    # "browser": fetch this site's pages through the system's Chromium (issue 19), for pages
    # whose article scripts build; None or "fetch": the plain HTTP fetch
    render: str | None = None

    @property
    def strip_all(self) -> tuple[str, ...]:
        """Every selector to remove before extraction: ``strip`` then ``strip_extra``."""
        return self.strip + self.strip_extra


# key → (expected type as the YAML author reads it, converter)
def _str(v: Any) -> str:
    if not isinstance(v, str) or not v.strip():
        raise TypeError("a non-empty string")
    return v


def _str_list(v: Any) -> tuple[str, ...]:
    if isinstance(v, str):
        v = [v]
    if not isinstance(v, list) or not all(isinstance(s, str) and s.strip() for s in v):
        raise TypeError("a list of strings")
    return tuple(v)


def _pos_int(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise TypeError("a whole number ≥ 0")
    return v


def _count(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < 1:
        raise TypeError("a whole number ≥ 1")
    return v


def _encoding(v: Any) -> str:
    """A forced encoding the decoder can read (a WHATWG label, or a Python name browsers
    read): any other is refused here, not ignored page by page."""
    from pipeline.encoding_labels import codec_for_label, web_codec

    label = _str(v)
    if not (codec_for_label(label) or web_codec(label)):
        raise TypeError("an encoding browsers read (utf-8, gbk, gb18030, big5, shift_jis,"
                        f" euc-kr…), not {label!r}")
    return label


def _selector(v: Any) -> str:
    return _compiled(_str(v))


def _selector_list(v: Any) -> tuple[str, ...]:
    return tuple(_compiled(css) for css in _str_list(v))


def _compiled(css: str) -> str:
    """``css`` once cssselect has read it: a selector no page can be cut with fails the file
    when it is read, not each of its site's tasks (BadSelectorError)."""
    # Imported here: pipeline.extract imports this module (for SiteRules) as it loads.
    from pipeline.extract.dom import selector

    selector(css)
    return css


def _regex(v: Any) -> str:
    """A regular expression Python can compile: a pattern no URL can be matched with fails
    the file when it is read, not each harvest of its site."""
    text = _str(v)
    try:
        re.compile(text)
    except re.error as e:
        raise TypeError(f"a regular expression, not {text!r} ({e})") from None
    return text


RENDER_CHOICES = ("browser", "fetch")


def _render(v: Any) -> str:
    if v not in RENDER_CHOICES:
        raise TypeError(" or ".join(repr(c) for c in RENDER_CHOICES))
    return str(v)


def _str_map(v: Any) -> Mapping[str, str]:
    if not isinstance(v, dict) or not all(
        isinstance(k, str) and isinstance(x, str) for k, x in v.items()
    ):
        raise TypeError("a mapping of header names to strings")
    return MappingProxyType(dict(v))


_SCHEMA = {
    "content_selector": _selector,
    "title_selector": _selector,
    "strip": _selector_list,
    "strip_extra": _selector_list,
    "keep_attrs": _str_list,
    "min_chars": _pos_int,
    "encoding": _encoding,
    "cookies": _str,
    "headers": _str_map,
    "user_agent": _str,
    "referer": _str,
    "concurrency": _count,
    "delay_ms": _pos_int,
    "tracking_params": _str_list,
    "keep_params": _str_list,
    "lazy_attrs": _str_list,
    "article_link_pattern": _regex,
    "render": _render,
}
assert set(_SCHEMA) == {f.name for f in fields(SiteRules)}


@dataclass(frozen=True)
class Rules:
    """All sections of one rules.yaml."""

    default: SiteRules = SiteRules()
    domains: Mapping[str, Mapping[str, Any]] = field(
        default_factory=lambda: MappingProxyType({})
    )

    def section_for(self, host: str) -> str | None:
        """The domain section that applies to ``host``: the longest one it is in (a host's own
        section before its parent domain's), or None."""
        sections = [d for d in self.domains if host_in_domain(host, d)]
        return max(sections, key=len) if sections else None

    def for_host(self, host: str) -> SiteRules:
        section = self.section_for(host)
        if section is None:
            return self.default
        return replace(self.default, **self.domains[section])

    def with_section(self, name: str, values: Mapping[str, object],
                     source: str = "the command line") -> Rules:
        """These rules with some keys of one section (a domain, or "default") set, checked as
        the file's are: the rules a person tries before writing them down."""
        name = name.lower()
        parsed = {key: _converted(source, None, f"{name}.{key}", key, value)
                  for key, value in values.items()}
        if name == "default":
            return Rules(replace(self.default, **parsed), self.domains)
        domains = {**self.domains, name: {**self.domains.get(name, {}), **parsed}}
        return Rules(self.default, MappingProxyType(domains))

    def sections_differing(self, other: Rules) -> list[str]:
        """The sections whose rules differ between the two ("default" among them)."""
        names = [d for d in sorted(set(self.domains) | set(other.domains))
                 if self.domains.get(d) != other.domains.get(d)]
        return (["default"] if self.default != other.default else []) + names


def _converted(path: str, line: int | None, where: str, key: str, value: object) -> Any:
    """One key's value as the rules hold it; RulesError naming where when it cannot be."""
    conv = _SCHEMA.get(key)
    if conv is None:
        known = ", ".join(sorted(_SCHEMA))
        raise RulesError(path, line, where, f"unknown key (known: {known})")
    try:
        return conv(value)
    except TypeError as e:
        raise RulesError(path, line, where, f"expected {e}") from None
    except BadSelectorError as e:
        raise RulesError(path, line, where, str(e)) from None


def parse_rules(text: str, path: str = "rules.yaml") -> Rules:
    """Validate rules.yaml text, selectors compiled. Errors name the file, line and key."""
    try:
        _check_nesting(text, path)
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        raise RulesError(path, line, None, f"not valid YAML ({getattr(e, 'problem', e)})") from e
    if data is None:
        return Rules()
    if not isinstance(data, dict) or not isinstance(root, yaml.MappingNode):
        raise RulesError(path, 1, None, "expected a mapping of sections (default: and domains)")
    lines = _key_lines(root)
    sections: dict[str, dict[str, Any]] = {}
    for name, body in data.items():
        name_s = str(name)
        if body is None:
            body = {}
        if not isinstance(body, dict):
            raise RulesError(path, lines.get((name_s, None)), name_s, "expected a mapping of rules")
        sections[name_s.lower()] = {
            str(key): _converted(path, lines.get((name_s, str(key))), f"{name_s}.{key}",
                                 str(key), value)
            for key, value in body.items()}
    default = replace(SiteRules(), **sections.pop("default", {}))
    return Rules(default=default, domains=MappingProxyType(sections))


def load_rules(path: Path) -> Rules:
    """Read a rules file; a missing file means built-in defaults."""
    if not path.exists():
        return Rules()
    return parse_rules(path.read_text(encoding="utf-8"), str(path))


def _check_nesting(text: str, path: str) -> None:
    """RulesError at the first collection nested deeper than MAX_NESTING. PyYAML's parser
    is a loop, not a recursion, so reading its events is safe at any depth."""
    depth = 0
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_NESTING:
                raise RulesError(path, event.start_mark.line + 1, None,
                                 f"nested more than {MAX_NESTING} levels deep (rules need 3)")
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def _key_lines(root: yaml.MappingNode) -> dict[tuple[str, str | None], int]:
    """1-based line of every section and every key, from the composed node tree."""
    out: dict[tuple[str, str | None], int] = {}
    for knode, vnode in root.value:
        sec = str(knode.value)
        out[(sec, None)] = knode.start_mark.line + 1
        if isinstance(vnode, yaml.MappingNode):
            for k2, _ in vnode.value:
                out[(sec, str(k2.value))] = k2.start_mark.line + 1
    return out
