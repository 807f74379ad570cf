"""Per-domain rules (rules.yaml): the seeds' "manual first, algorithm as fallback".

A ``default:`` section and one section per domain. A host finds its section by widening:
``a.b.example.com → b.example.com → example.com`` (the first that exists wins) and its values
are laid over the defaults. ``strip_extra`` adds to ``strip`` instead of replacing it.

The text is read within bounds by ``pipeline.rules.yaml_file``; every value is checked here as it is
read (numbers in their range, what goes into a request header sendable, section names hosts), so
a mistake fails the file at once, naming its line, not each of a site's tasks later.

Each key is declared once, as a ``SiteRules`` field made by ``rule()``: its default, its
converter (or its range, or the setting it overrides for one site), its help text and how the
rules editor's form shows it. The file's check (``RULE_SPECS``), the editor's form and Keys
help, and ``rules set``'s keys are all made from those fields, as ``Settings`` is declared.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from enum import Enum
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

from pipeline.records.errors import BadSelectorError, RulesError
from pipeline.records.failures import Code, failure
from pipeline.records.settings import QT_TRANSLATE_NOOP, SPECS, Settings, Spec
from pipeline.rules.selectors import selector
from pipeline.web.url_parse import UrlRejected, parse_url
from pipeline.web.urls import host_in_domain, site_domain

DEFAULT_KEEP_ATTRS = ("src", "href", "alt", "title", "colspan", "rowspan")
# Items in one list (or headers in one section): every strip selector is searched for on every
# page, and 30,000 of them (what 256 KB holds) cost seconds a page; no site needs 200.
MAX_LIST_ITEMS = 200


# C0 and C1 controls and DEL: no selector, name or header means one, and in a header a CR or
# LF would start another header (requests then refuses every request of the site).
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f]")
# RFC 9110 §5.1 (RFC 7230 §3.2): a field name is a token.
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_SHOWN = 40  # characters of a refused value quoted back
# What a section name may not hold outside an IPv6 address's brackets: the URL parser would
# read it as a port, a path, a query, a fragment or a user, not as part of the host; and "*",
# since a section already covers the subdomains of its name.
_NOT_IN_A_HOST = re.compile(r"[:/\\?#@*\s]")


def _shown(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= _SHOWN else text[:_SHOWN - 1] + "…"


class BadValue(TypeError):
    """A key's value the rules cannot take: what was expected, as a failure code (the editor
    and the terminal say it from the code; ``RulesError`` adds where)."""

    def __init__(self, code: Code, *args: object) -> None:
        self.failure = failure(code, *args)
        super().__init__(self.failure.text)


# key → (expected type as the YAML author reads it, converter)
def _str(v: Any) -> str:
    if not isinstance(v, str) or not v.strip():
        raise BadValue(Code.RULE_NOT_TEXT)
    if bad := _CONTROL.search(v):
        raise BadValue(Code.RULE_CONTROL_CHARACTER, f"U+{ord(bad.group()):04X}", _shown(v))
    return v


def _header_value(v: Any) -> str:
    """What may be sent as a header's value (User-Agent, Referer, headers): one line of
    Latin-1 text, as http.client encodes it; anything else fails every request of the site."""
    text = _str(v)
    if text != text.strip() or any(ord(c) > 0xFF for c in text):
        raise BadValue(Code.RULE_HEADER_VALUE, _shown(text))
    return text


def _str_list(v: Any) -> tuple[str, ...]:
    if isinstance(v, str):
        v = [v]
    if not isinstance(v, list) or not all(isinstance(s, str) and s.strip() for s in v):
        raise BadValue(Code.RULE_NOT_LIST)
    if len(v) > MAX_LIST_ITEMS:
        raise BadValue(Code.RULE_LIST_TOO_LONG, MAX_LIST_ITEMS, len(v))
    return tuple(_str(s) for s in v)


def _whole(spec: Spec) -> Callable[[Any], int]:
    """A whole number in ``spec``'s range (a settings ``Spec``: a per-site value that
    overrides a setting takes that setting's range)."""
    assert spec.low is not None and spec.high is not None
    lowest = int(spec.low) + 1 if spec.above else int(spec.low)
    highest = int(spec.high)

    def convert(v: Any) -> int:
        if isinstance(v, bool) or not isinstance(v, int) or spec.problem(v) is not None:
            raise BadValue(Code.RULE_WHOLE_NUMBER, lowest, highest, _shown(v))
        return v

    return convert


def _encoding(v: Any) -> str:
    """A forced encoding the decoder can read (a WHATWG label, or a Python name browsers
    read): any other is refused here, not ignored page by page."""
    from pipeline.text.encoding_labels import codec_for_label, web_codec

    label = _str(v)
    if not (codec_for_label(label) or web_codec(label)):
        raise BadValue(Code.RULE_ENCODING, repr(label))
    return label


def _selector(v: Any) -> str:
    return _compiled(_str(v))


def _selector_list(v: Any) -> tuple[str, ...]:
    return tuple(_compiled(css) for css in _str_list(v))


def _compiled(css: str) -> str:
    """``css`` once cssselect has read it: a selector no page can be cut with fails the file
    when it is read, not each of its site's tasks (BadSelectorError)."""
    selector(css)
    return css


def _regex(v: Any) -> str:
    """A regular expression Python can compile: a pattern no URL can be matched with fails
    the file when it is read, not each harvest of its site."""
    text = _str(v)
    try:
        re.compile(text)
    except re.error as e:
        raise BadValue(Code.RULE_REGEX, repr(text), e) from None
    return text


RENDER_CHOICES = ("browser", "fetch")


def _render(v: Any) -> str:
    if v not in RENDER_CHOICES:
        raise BadValue(Code.RULE_CHOICE, " or ".join(repr(c) for c in RENDER_CHOICES))
    return str(v)


def _headers(v: Any) -> Mapping[str, str]:
    if not isinstance(v, dict) or not all(
        isinstance(k, str) and isinstance(x, str) for k, x in v.items()
    ):
        raise BadValue(Code.RULE_NOT_HEADERS)
    if len(v) > MAX_LIST_ITEMS:
        raise BadValue(Code.RULE_TOO_MANY_HEADERS, MAX_LIST_ITEMS, len(v))
    seen: dict[str, str] = {}
    for name, value in v.items():
        if not _TOKEN.fullmatch(name):
            raise BadValue(Code.RULE_HEADER_NAME, _shown(name))
        if (other := seen.setdefault(name.lower(), name)) != name:
            raise BadValue(Code.RULE_HEADER_TWICE, repr(other), repr(name))
        _header_value(value)
    return MappingProxyType(dict(v))


RULES_CONTEXT = "RulesEditor"  # the help texts' translation context (spelt out in each for lupdate)
T = TypeVar("T")


class FormWidget(Enum):
    """How the rules editor's form shows a key; a key without one is edited in the text."""

    LINE = "line"  # one line of text
    LIST = "list"  # a list, comma-separated on one line
    NUMBER = "number"  # a spin box over the key's range, 0 showing "not set"
    CHOICE = "choice"  # a line of text with the key's choices to pick from
    CHECK = "check"  # a box: checked sets the key's first choice


@dataclass(frozen=True)
class RuleSpec:
    """What one rules.yaml key accepts and how the rules editor shows it."""

    # the value as YAML reads it → as SiteRules holds it; TypeError saying what was expected
    convert: Callable[[Any], Any]
    # English source (context RULES_CONTEXT), translated where shown; %1 is ``shown_default``
    help: str
    setting: str | None = None  # the setting this key overrides for one site
    low_high: Spec | None = None  # a number's range (the setting's, when it overrides one)
    form: FormWidget | None = None
    label: str = ""  # the form's label (English source)
    example: str = ""  # the form field's placeholder, as typed (not translated)
    box: str = ""  # CHECK: the box's text (English source)
    choices: tuple[str, ...] = ()  # CHOICE: values offered; CHECK: what checking sets
    step: int = 1  # NUMBER: the spin box's step

    def __post_init__(self) -> None:
        """Refuse, as the module loads, a key the form could not show."""
        if self.form is not None and not self.label:
            raise ValueError(f"{self.help[:40]!r}: a key in the form needs a label")
        if self.form is FormWidget.NUMBER and (self.low_high is None
                                               or self.low_high.high is None):
            raise ValueError(f"{self.label!r}: a spin box needs a range")
        if self.form is FormWidget.CHECK and not (self.box and self.choices):
            raise ValueError(f"{self.label!r}: a box needs its text and the value it sets")

    @property
    def shown_default(self) -> str:
        """The default the help names: the overridden setting's, so it is never a copy."""
        return "" if self.setting is None else str(getattr(Settings(), self.setting))


def rule(default: T, convert: Callable[[Any], Any] | None = None, **spec: Any) -> T:
    """A ``SiteRules`` field: its default and its ``RuleSpec``, declared together. A number
    gives its range (``low_high``) or the setting it overrides (``setting``, whose range it
    takes) instead of a converter."""
    if spec.get("setting") is not None:
        spec["low_high"] = SPECS[spec["setting"]]
    if convert is None:
        convert = _whole(spec["low_high"])
    metadata = {"rule": RuleSpec(convert=convert, **spec)}
    if isinstance(default, MappingProxyType):  # read-only, so safely shared, though
        return field(default_factory=lambda: default, metadata=metadata)  # dataclass asks
    return field(default=default, metadata=metadata)


@dataclass(frozen=True)
class SiteRules:
    """The rules in force for one host, defaults already merged in."""

    content_selector: str | None = rule(
        None, _selector, form=FormWidget.LINE, example="article .post-content",
        label=QT_TRANSLATE_NOOP("RulesEditor", "Content selector"),
        help=QT_TRANSLATE_NOOP(
            "RulesEditor",
            "CSS selector of the element that holds the article (e.g. article"
            " .post-content). When it matches, its text is the article; when it matches"
            " nothing, the automatic extraction decides."))
    title_selector: str | None = rule(
        None, _selector, form=FormWidget.LINE, example="h1.title",
        label=QT_TRANSLATE_NOOP("RulesEditor", "Title selector"),
        help=QT_TRANSLATE_NOOP(
            "RulesEditor",
            "CSS selector of the headline (e.g. h1.title). When it matches nothing, the"
            " headline is found as usual."))
    strip: tuple[str, ...] = rule(
        (), _selector_list,
        help=QT_TRANSLATE_NOOP(
            "RulesEditor",
            "CSS selectors of elements removed before the article is found (a domain's"
            " list replaces the default one)."))
    strip_extra: tuple[str, ...] = rule(
        (), _selector_list, form=FormWidget.LIST, example=".reward-box, .copyright-tip",
        label=QT_TRANSLATE_NOOP("RulesEditor", "Also remove"),
        help=QT_TRANSLATE_NOOP(
            "RulesEditor",
            "More CSS selectors of elements to remove before the article is found, on top"
            " of the strip list (comma-separated here, e.g. .reward-box, .copyright-tip)."))
    keep_attrs: tuple[str, ...] = rule(
        DEFAULT_KEEP_ATTRS, _str_list,
        help=QT_TRANSLATE_NOOP("RulesEditor", "HTML attributes kept in the clean article."))
    # asks at most for a book's length, a million characters
    min_chars: int = rule(
        0, low_high=Spec(low=0, high=1_000_000), form=FormWidget.NUMBER, step=100,
        label=QT_TRANSLATE_NOOP("RulesEditor", "Minimum length"),
        help=QT_TRANSLATE_NOOP(
            "RulesEditor",
            "An article with fewer characters than this (white space not counted) fails as"
            " too short. 0 here: the key is not set."))
    encoding: str | None = rule(
        None, _encoding, form=FormWidget.CHOICE,
        choices=("utf-8", "gb18030", "big5", "shift_jis", "euc-kr"),
        label=QT_TRANSLATE_NOOP("RulesEditor", "Encoding"),
        help=QT_TRANSLATE_NOOP(
            "RulesEditor",
            "Read this site's pages in this encoding (e.g. gb18030) when the site names a"
            " wrong one. Empty: as the page says, or detected."))
    cookies: str | None = rule(
        None, _str, form=FormWidget.LINE, example="name=value; name2=value2",
        label=QT_TRANSLATE_NOOP("RulesEditor", "Cookies"),
        help=QT_TRANSLATE_NOOP(
            "RulesEditor",
            "Cookies sent to this domain only, as name=value; name2=value2 (e.g. a login"
            " copied from the browser)."))
    headers: Mapping[str, str] = rule(
        MappingProxyType({}), _headers,
        help=QT_TRANSLATE_NOOP("RulesEditor",
                               "Extra request headers for this domain (name: value)."))
    user_agent: str | None = rule(
        None, _header_value,
        help=QT_TRANSLATE_NOOP("RulesEditor", "The User-Agent sent to this domain."))
    referer: str | None = rule(
        None, _header_value,
        help=QT_TRANSLATE_NOOP(
            "RulesEditor",
            "The Referer sent with this domain's images (default: the page's address)."))
    concurrency: int | None = rule(
        None, setting="per_host_connections",
        help=QT_TRANSLATE_NOOP("RulesEditor", "Connections to this host at once (default %1)."))
    delay_ms: int | None = rule(
        None, setting="host_delay_ms",
        help=QT_TRANSLATE_NOOP(
            "RulesEditor",
            "Milliseconds between the starts of two requests to this host (default %1)."))
    tracking_params: tuple[str, ...] = rule(
        (), _str_list,
        help=QT_TRANSLATE_NOOP(
            "RulesEditor",
            "Query parameters dropped from this domain's links, on top of the built-in"
            " list."))
    # query parameters of this site that name a page, kept though the tracking list has them
    # (GitHub's ?ref=<branch>, a timetable's ?from=PEK)
    keep_params: tuple[str, ...] = rule(
        (), _str_list,
        help=QT_TRANSLATE_NOOP(
            "RulesEditor",
            "Query parameters that name a page on this site and are kept though they look"
            " like tracking (e.g. ref for GitHub's branch, from for a timetable)."))
    lazy_attrs: tuple[str, ...] = rule(
        (), _str_list,
        help=QT_TRANSLATE_NOOP("RulesEditor",
                               "More attributes where lazy-loading images keep their address."))
    # harvest: the links of this site's list pages that are articles (searched in the URL)
    article_link_pattern: str | None = rule(
        None, _regex,
        help=QT_TRANSLATE_NOOP(
            "RulesEditor",
            "A regular expression an article's link matches on this site's list pages;"
            " when set, harvest takes exactly the links that match it."))
    # "browser": fetch this site's pages through the system's Chromium (issue 19), for pages
    # whose article scripts build; None or "fetch": the plain HTTP fetch
    render: str | None = rule(
        None, _render, form=FormWidget.CHECK, choices=("browser",),
        label=QT_TRANSLATE_NOOP("RulesEditor", "Scripts"),
        box=QT_TRANSLATE_NOOP("RulesEditor", "Render with browser"),
        help=QT_TRANSLATE_NOOP(
            "RulesEditor",
            "browser: this site's pages are opened in the system's Chromium and the page"
            " its scripts build is archived (for pages that arrive empty without"
            " JavaScript); fetch: never, even when the settings render every site."))

    @property
    def strip_all(self) -> tuple[str, ...]:
        """Every selector to remove before extraction: ``strip`` then ``strip_extra``."""
        return self.strip + self.strip_extra


# Every key a section may hold, in the order the editor's form and Keys help show them.
RULE_SPECS: dict[str, RuleSpec] = {f.name: f.metadata["rule"] for f in fields(SiteRules)}


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

    def section_for_host(self, host: str) -> str:
        """The section a host's rules are written into: the one that applies to it, else a new
        one named by its site's domain (``urls.site_domain``: ``www.`` dropped)."""
        return self.section_for(host) or site_domain(host)

    def for_host(self, host: str) -> SiteRules:
        section = self.section_for(host)
        if section is None:
            return self.default
        return replace(self.default, **self.domains[section])

    def with_section(self, name: str, values: Mapping[str, object],
                     source: str = "the command line") -> Rules:
        """These rules with some keys of one section (a domain, or "default") set, checked as
        the file's are: the rules a person tries before writing them down."""
        name = section_name(source, None, name)
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


def rule_spec(path: str, line: int | None, where: str, key: str) -> RuleSpec:
    """The spec of ``key``; RulesError naming where, and the keys there are, when none has
    that name (a file's key, or one ``rules set`` was given)."""
    spec = RULE_SPECS.get(key)
    if spec is None:
        known = ", ".join(sorted(RULE_SPECS))
        raise RulesError(path, line, where, failure(Code.RULES_UNKNOWN_KEY, known))
    return spec


def _converted(path: str, line: int | None, where: str, key: str, value: object) -> Any:
    """One key's value as the rules hold it; RulesError naming where when it cannot be."""
    spec = rule_spec(path, line, where, key)
    try:
        return spec.convert(value)
    except (BadValue, BadSelectorError) as e:
        raise RulesError(path, line, where, e.failure) from None


def section_name(path: str, line: int | None, name: str) -> str:
    """A section's name as rules are keyed: "default", or the host a browser reads in
    ``http://<name>/`` (lower case, IDNA, no final dot), the form ``urls.host_of`` gives a
    task's host. Anything more or else (a path, a port, spaces) is a RulesError."""
    if name.lower() == "default":
        return "default"
    # what would make the parser read more than a host: a path, query, user or port
    bracketed = name.startswith("[") and name.endswith("]")  # an IPv6 address
    if _NOT_IN_A_HOST.search(name[1:-1].replace(":", "") if bracketed else name):
        raise RulesError(path, line, None, failure(Code.RULES_SECTION_NAME, _shown(name)))
    try:
        host = parse_url(f"http://{name}/").host
    except UrlRejected:
        host = ""
    if not host.rstrip("."):
        raise RulesError(path, line, None, failure(Code.RULES_SECTION_NAME, _shown(name)))
    return host.rstrip(".")


def parse_rules(text: str, path: str = "rules.yaml") -> Rules:
    """Validate rules.yaml text, selectors compiled. Errors name the file, line and key."""
    # YAML is imported by what reads it: ``extract`` over a folder of pages reads no rules file.
    import yaml

    from pipeline.rules.yaml_file import compose_rules, yaml_errors

    root, loader = compose_rules(text, path)
    if root is None:
        return Rules()
    if not isinstance(root, yaml.MappingNode):
        raise RulesError(path, 1, None, failure(Code.RULES_NOT_SECTIONS))
    sections: dict[str, dict[str, Any]] = {}
    lines: dict[str, int] = {}
    for name_node, body_node in root.value:
        line = name_node.start_mark.line + 1
        # as written: ``0.1:`` is a float to YAML, and an address to a URL
        raw = (name_node.value if isinstance(name_node, yaml.ScalarNode)
               else text[name_node.start_mark.index:name_node.end_mark.index])
        name = section_name(path, line, raw)
        if (first := lines.setdefault(name, line)) != line:
            raise RulesError(path, line, str(raw), failure(Code.RULES_SECTION_TWICE, first))
        with yaml_errors(text, path, name):
            body = loader.construct_object(body_node, deep=True)
        if body is None:
            body = {}
        if not isinstance(body, dict):
            raise RulesError(path, line, str(raw), failure(Code.RULES_SECTION_NOT_RULES))
        key_lines = {str(k.value): k.start_mark.line + 1 for k, _ in body_node.value}
        sections[name] = {
            str(key): _converted(path, key_lines.get(str(key)), f"{raw}.{key}", str(key), value)
            for key, value in body.items()}
    default = replace(SiteRules(), **sections.pop("default", {}))
    return Rules(default=default, domains=MappingProxyType(sections))


def load_rules(path: Path) -> Rules:
    """Read a rules file; a missing file means built-in defaults."""
    from pipeline.rules.yaml_file import read_rules_text

    if not path.exists():
        return Rules()
    return parse_rules(read_rules_text(path), str(path))
