"""The values a book may hold: text without the characters XML forbids (and that text put
into a tree) and URLs as EPUBCheck accepts them (language tags: ``language.language_tag``).

Apart from the chapter whitelist (``xhtml``) because the collection (``collect``), the index
page, the book's metadata and the content-model repair (``content_model``) need the same
checks."""

from __future__ import annotations

import re
from urllib.parse import quote, urlsplit

from lxml import etree

from pipeline.extract.dom import append_text
from pipeline.text.markup import keeps_link

# Characters XML 1.0 forbids, plus C1 controls and noncharacters that validators reject.
_BAD_CHARS = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]"
)
_LABEL = r"[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?"
_HOST = re.compile(rf"^{_LABEL}(\.{_LABEL})*\.?$")


def xml_safe(text: str) -> str:
    """``text`` without the characters an XML document may not hold."""
    return _BAD_CHARS.sub("", text)


def clean_url(url: str) -> str | None:
    """An absolute URL of a scheme ``markup.keeps_link`` keeps, that validators accept, or
    None when it cannot be one."""
    url = xml_safe(url).strip()
    if url.startswith("//"):
        url = "https:" + url
    if not keeps_link(url):
        return None
    if url[:7].lower() == "mailto:":
        return "mailto:" + quote(url[7:], safe="@.+-_!~*'();:&=,%?")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    host = parts.hostname or ""
    if not host.isascii():
        try:
            ascii_host = host.encode("idna").decode("ascii")
        except UnicodeError:
            return None
        url = url.replace(parts.netloc, parts.netloc.replace(host, ascii_host), 1)
        host = ascii_host
    if not _HOST.match(host) or port == 0:
        return None
    url = re.sub(r"%(?![0-9A-Fa-f]{2})", "%25", url)
    return quote(url, safe=":/?#[]@!$&'()*+,;=%~-._")


def has_text(text: str | None) -> bool:
    """Whether ``text`` is more than HTML white space (a no-break space is text)."""
    return bool(text and text.strip(" \t\n\r\f"))


def append_safe_text(el: etree._Element, text: str | None) -> None:
    """``text`` (when there is any) added at the end of ``el``, made XML-safe."""
    if text:
        append_text(el, xml_safe(text))
