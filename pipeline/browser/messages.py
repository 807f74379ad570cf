"""The messages the extension may send the host, checked field by field before anything is
done: a message of another shape, a field of another type, an address that is not an
absolute http(s) link (a relative one, ``javascript:``, ``data:``) is refused with the reason.

    {"kind": "categories"}
    {"kind": "page", "url", "title", "html", "selection", "browser", "category"}
    {"kind": "link", "url", "found_on", "category"}

Every field named is required and a string; no other field is taken.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.browser.framing import MessageRefused
from pipeline.records.capture import CapturedLink, CapturedPage
from pipeline.web.url_parse import UrlRejected, parse_url
from pipeline.web.urls import MAX_URL_CHARS

# the longest a short field may be (a link, a title, a browser's name, a category): the
# longest link the list takes; a title or category is cut further where it is kept
MAX_FIELD_CHARS = MAX_URL_CHARS


@dataclass(frozen=True)
class AskCategories:
    """The archive's categories, for the extension's chooser."""


Message = AskCategories | CapturedPage | CapturedLink

_FIELDS: dict[str, tuple[str, ...]] = {
    "categories": (),
    "page": ("url", "title", "html", "selection", "browser", "category"),
    "link": ("url", "found_on", "category"),
}
# fields that may hold a page (the rest are short)
_LONG = frozenset({"html", "selection"})
# fields that must be an http(s) link
_LINKS = frozenset({"url", "found_on"})


def parse_message(value: object) -> Message:
    """The request ``value`` (a message's JSON) makes; MessageRefused saying what is wrong."""
    if not isinstance(value, dict):
        raise MessageRefused(f"a message is a JSON object, not {type(value).__name__}")
    kind = value.get("kind")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise MessageRefused(f"unknown kind {str(kind)[:40]!r}; one of"
                             f" {', '.join(sorted(_FIELDS))}")
    wanted = _FIELDS[kind]
    extra = sorted(set(value) - set(wanted) - {"kind"})
    if extra:
        raise MessageRefused(f"a {kind} message has no field {str(extra[0])[:40]!r}")
    fields: dict[str, str] = {}
    for name in wanted:
        field = value.get(name)
        if not isinstance(field, str):
            missing = name not in value
            raise MessageRefused(f"a {kind} message needs {name!r} as text"
                                 + ("" if missing else f", not {type(field).__name__}"))
        if name not in _LONG and len(field) > MAX_FIELD_CHARS:
            raise MessageRefused(f"{name!r} is {len(field):,} characters; at most"
                                 f" {MAX_FIELD_CHARS:,}")
        field = field.encode("utf-8", "replace").decode("utf-8")  # JSON's lone surrogates
        if name in _LINKS and (field or name != "found_on"):  # "" found_on: none known
            field = _link(name, field)
        fields[name] = field
    if kind == "page":
        if not fields["html"].strip():
            raise MessageRefused("the page's HTML is empty")
        return CapturedPage(**fields)
    if kind == "link":
        return CapturedLink(**fields)
    return AskCategories()


def _link(name: str, text: str) -> str:
    """``text`` as an absolute http(s) link; MessageRefused naming the field otherwise."""
    try:
        return parse_url(text).href
    except UrlRejected as e:
        raise MessageRefused(f"{name!r}: {e}") from None
