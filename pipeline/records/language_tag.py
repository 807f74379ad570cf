"""A BCP 47 language tag, well-formed or not (RFC 5646's syntax): the one check a page's
declared language, an article's record, each book chapter and the ``book_language`` setting
go through. A record, so the settings can refuse a malformed tag without importing the
language detection in ``pipeline.text.language``."""

from __future__ import annotations

import re

_LANGTAG = re.compile(
    r"""[a-z]{2,3}(?:-[a-z]{3}){0,3}           # language, extlang
        (?:-[a-z]{4})?                          # script
        (?:-(?:[a-z]{2}|[0-9]{3}))?             # region
        (?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*  # variants
        (?:-[0-9a-wyz](?:-[a-z0-9]{2,8})+)*     # extensions
        (?:-x(?:-[a-z0-9]{1,8})+)?              # private use""",
    re.X | re.I,
)
# Tags that name no language: undetermined, several, no linguistic content.
NO_LANGUAGE = frozenset(("und", "mul", "zxx", "mis"))


def language_tag(value: str | None) -> str | None:
    """``value`` as a well-formed BCP 47 tag in its conventional case (``zh_cn`` →
    ``zh-CN``, ``ZH-hant`` → ``zh-Hant``; the first of a Content-Language list), or None
    when it is none (``utf-8``, ``bad lang``) or names no language (``und``)."""
    value = (value or "").split(",")[0].strip().replace("_", "-")
    if not _LANGTAG.fullmatch(value):
        return None
    subtags = value.split("-")
    out = [subtags[0].lower()]
    for sub in subtags[1:]:
        if len(out[-1]) == 1:  # after a singleton (an extension, private use): as written
            out.extend(s.lower() for s in subtags[len(out):])
            break
        out.append(sub.title() if len(sub) == 4 and sub.isalpha()
                   else sub.upper() if len(sub) == 2 else sub.lower())
    return None if out[0] in NO_LANGUAGE else "-".join(out)
