"""Finding links in whatever a person pastes, and one canonical form per page.

Normalization follows RFC 3986 §6 plus the seeds' crawler habits (seed 000 "规范化步骤",
seed 003 §3.1): lower-case scheme and host, IDN → punycode, no default port, dot segments
resolved, empty path → "/", unreserved percent-escapes decoded, query sorted, tracking
parameters and fragments dropped — except ``#!`` and ``#/`` routes, which name different
pages of a single-page app.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from urllib.parse import unquote

import idna
from lxml import html as lxml_html

from pipeline.errors import ErrorKind, KuaibuError

TRACKING_PARAMS = frozenset(
    {"fbclid", "gclid", "spm", "from", "share_token", "ref", "utm_id", "mc_cid", "mc_eid"}
)
ALLOWED_SCHEMES = ("http", "https")

_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
# Characters that may stand unescaped in a path / query (RFC 3986 §3.3, §3.4) besides '%'.
_PATH_SAFE = _UNRESERVED | frozenset("!$&'()*+,;=:@/")
_QUERY_SAFE = _PATH_SAFE | frozenset("?")
_DEFAULT_PORTS = {"http": 80, "https": 443}

# A link in prose ends at white space, quotes, angle brackets or CJK punctuation; trailing
# Western punctuation is trimmed afterwards (unless it closes a bracket the URL opened).
_LINK_RE = re.compile(
    r"""(?<![A-Za-z0-9+.-])(?:(?:https?|ftp|file)://|www\.|(?:javascript|mailto|data):)"""
    r"""[^\s<>"'`，。；：！？、）】」』《》“”‘’\u3000]+""",
    re.IGNORECASE,
)
_TRAILING = ".,;:!?*_~'\""
_BRACKETS = {")": "(", "]": "[", "}": "{"}

# A host name's labels (RFC 1123 §2.1): letters, digits and hyphens, plus the underscore that
# browsers accept and Windows intranet names use.
_LABEL = re.compile(r"[a-z0-9_-]+")
# A last label that is a number makes a browser read the whole host as an IPv4 address
# (WHATWG URL "ends in a number"): 1.2.3 is 1.2.0.3, 0x7f.1 is 127.0.0.1.
_NUMBER = re.compile(r"\d+|0x[0-9a-f]*")


class UrlRejected(KuaibuError):
    """A pasted link that Kuaibu will not fetch; the message says why."""

    kind = ErrorKind.BAD_URL


def find_links(text: str) -> list[str]:
    """Every link in pasted text, in order: plain lines, prose, Markdown or a bookmarks export.

    Link texts (bookmark names, Markdown labels) are not kept as titles: they are usually the
    page's <title> with its site suffix, worse than what extraction finds.
    """
    if not _looks_like_html(text):
        return _links_in_prose(text)
    root = lxml_html.fromstring(text)
    hrefs = [href for a in root.iter("a") if (href := (a.get("href") or "").strip())]
    seen = set(hrefs)
    return hrefs + [u for u in _links_in_prose(root.text_content()) if u not in seen]


def bookmark_folders(text: str) -> dict[str, tuple[str, ...]]:
    """Each link of a browser's bookmarks export with the folders it sits in, outermost
    first (empty for a loose bookmark; {} for text that is no bookmarks file): what a person
    filed them under is the category they meant."""
    if "netscape-bookmark-file" not in text[:2048].lower():
        return {}
    folders: dict[str, tuple[str, ...]] = {}
    for a in lxml_html.fromstring(text).iter("a"):
        href = (a.get("href") or "").strip()
        if href and href not in folders:
            folders[href] = tuple(reversed([name for dl in a.iterancestors("dl")
                                            if (name := _folder_name(dl))]))
    return folders


def _folder_name(dl: lxml_html.HtmlElement) -> str:
    """The folder a <DL> lists: the <H3> just before it, alone or in the <DT> (exporters
    never close one, so an HTML parser nests them); the export's own <H1> is no folder."""
    before = dl.getprevious()
    while before is not None and not isinstance(before.tag, str):
        before = before.getprevious()
    if before is not None and before.tag == "dt":  # unclosed <DT>s nest: the nearest <H3>
        before = next(reversed(list(before.iter("h3"))), None)
    if before is None or before.tag != "h3":
        return ""
    return " ".join(before.text_content().split())


def _links_in_prose(text: str) -> list[str]:
    found = []
    for m in _LINK_RE.finditer(text):
        url = _trim(m.group(0))
        # a bare "www." link: https is what a browser would try today
        found.append("https://" + url if url.lower().startswith("www.") else url)
    return found


def _looks_like_html(text: str) -> bool:
    head = text[:2048].lower()
    return "netscape-bookmark-file" in head or bool(re.search(r"<a\s[^>]*href\s*=", head))


def _trim(url: str) -> str:
    while url and url[-1] in _TRAILING + "".join(_BRACKETS):
        last = url[-1]
        if last in _BRACKETS and url.count(_BRACKETS[last]) >= url.count(last):
            break  # e.g. https://en.wikipedia.org/wiki/Tea_(meal)
        url = url[:-1]
    return url


def normalize_url(url: str, extra_tracking: Iterable[str] = ()) -> str:
    """The canonical form of an http(s) URL; raises UrlRejected for anything else."""
    url = url.strip()
    m = re.match(r"^([A-Za-z][A-Za-z0-9+.-]*):", url)
    if not m:
        raise UrlRejected(f"not a link: {url[:80]!r}")
    scheme = m.group(1).lower()
    if scheme not in ALLOWED_SCHEMES:
        raise UrlRejected(f"only http and https links are archived, not {scheme}:")
    rest = url[m.end() :]
    if not rest.startswith("//"):
        raise UrlRejected(f"link has no host: {url[:80]!r}")
    rest = rest[2:]
    authority, path, query, fragment = _split(rest)
    host, port = _host_port(authority.rpartition("@")[2], url)
    if port is not None and port != _DEFAULT_PORTS[scheme]:
        host = f"{host}:{port}"
    path = _remove_dot_segments(_normalize_escapes(path, _PATH_SAFE)) or "/"
    path = re.sub(r"//+$", "/", path)
    query = _normalize_query(query, TRACKING_PARAMS | {p.lower() for p in extra_tracking})
    out = f"{scheme}://{host}{path}"
    if query:
        out += "?" + query
    if fragment is not None and fragment[:1] in ("!", "/"):
        out += "#" + _normalize_escapes(fragment, _QUERY_SAFE)
    return out


def _split(rest: str) -> tuple[str, str, str | None, str | None]:
    fragment = query = None
    if "#" in rest:
        rest, fragment = rest.split("#", 1)
    if "?" in rest:
        rest, query = rest.split("?", 1)
    slash = rest.find("/")
    if slash < 0:
        return rest, "", query, fragment
    return rest[:slash], rest[slash:], query, fragment


def _host_port(hostport: str, url: str) -> tuple[str, int | None]:
    if hostport.startswith("["):  # IPv6 literal
        end = hostport.find("]")
        if end < 0:
            raise UrlRejected(f"bad IPv6 host in {url[:80]!r}")
        host, port_s = hostport[: end + 1].lower(), hostport[end + 1 :].lstrip(":")
        if not _is_ipv6(host[1:-1]):
            raise UrlRejected(f"bad IPv6 host in {url[:80]!r}")
    else:
        host, _, port_s = hostport.partition(":")
        host = _ascii_host(host, url)
    if not host:
        raise UrlRejected(f"link has no host: {url[:80]!r}")
    if not port_s:
        return host, None
    if not port_s.isdigit() or not 0 < int(port_s) < 65536:
        raise UrlRejected(f"bad port {port_s!r} in {url[:80]!r}")
    return host, int(port_s)


def _ascii_host(host: str, url: str) -> str:
    """The host as DNS is asked for it (an IDN in punycode, one final dot dropped); a name
    no DNS could look up is rejected with what is wrong with it."""
    host = unquote(host).lower()
    if not host.isascii():
        try:
            host = idna.encode(host, uts46=True).decode("ascii")
        except idna.IDNAError as e:
            raise UrlRejected(f"bad international host name in {url[:80]!r}: {e}") from None
    host = host.removesuffix(".")
    problem = _host_name_problem(host) if host else None
    if problem:
        raise UrlRejected(f"bad host name in {url[:80]!r}: {problem}")
    return host


def _host_name_problem(host: str) -> str | None:
    """Why DNS could not look up an ASCII host name (RFC 1035 §2.3.4 lengths, RFC 1123 §2.1
    labels, RFC 5891 §5.4 A-labels), or None. Single labels (localhost, an intranet wiki) and
    dotted IPv4 addresses pass."""
    if len(host) > 253:
        return f"{len(host):,} characters long; the longest is 253"
    labels = host.split(".")
    for label in labels:
        if not label:
            return "an empty label (a dot at the start or two in a row)"
        if len(label) > 63:
            return f"a label of {len(label):,} characters; the longest is 63"
        if not _LABEL.fullmatch(label):
            return f"{label!r} holds a character other than letters, digits, '-' and '_'"
        if label.startswith("xn--"):
            try:
                idna.ulabel(label)
            except idna.IDNAError as e:
                return f"{label!r} is not a valid international label ({e})"
        elif label[0] == "-" or label[-1] == "-":
            return f"{label!r} starts or ends with a hyphen"
    if _NUMBER.fullmatch(labels[-1]) and not _is_ip(host):
        return f"{host!r} ends in a number but is not a dotted IPv4 address"
    return None


def _normalize_escapes(part: str, safe: frozenset[str]) -> str:
    """Decode escapes of unreserved characters, upper-case the others, escape the unsafe."""
    out: list[str] = []
    i = 0
    while i < len(part):
        c = part[i]
        if c == "%" and re.fullmatch(r"[0-9A-Fa-f]{2}", part[i + 1 : i + 3]):
            ch = chr(int(part[i + 1 : i + 3], 16))
            out.append(ch if ch in _UNRESERVED else "%" + part[i + 1 : i + 3].upper())
            i += 3
            continue
        if c in safe:
            out.append(c)
        else:
            out.extend(f"%{b:02X}" for b in c.encode("utf-8"))
        i += 1
    return "".join(out)


def _remove_dot_segments(path: str) -> str:
    """RFC 3986 §5.2.4, by segments."""
    if not path:
        return path
    segments = path.split("/")
    out: list[str] = []
    for seg in segments[1:]:
        if seg == "..":
            if out:
                out.pop()
        elif seg != ".":
            out.append(seg)
    tail = "/" if segments[-1] in (".", "..") else ""
    return "/" + "/".join(out) + tail if out else "/"


def _normalize_query(query: str | None, tracking: frozenset[str]) -> str:
    if not query:
        return ""
    pairs = []
    for item in query.split("&"):
        if not item:
            continue
        key, eq, value = item.partition("=")
        key = _normalize_escapes(key, _QUERY_SAFE - {"&", "="})
        bare = unquote(key).lower()
        if bare in tracking or bare.startswith("utm_"):
            continue
        pairs.append((key, eq + _normalize_escapes(value, _QUERY_SAFE - {"&"})))
    pairs.sort(key=lambda kv: kv[0])  # stable: repeated keys keep their order
    return "&".join(k + v for k, v in pairs)


def host_of(url: str) -> str:
    """The host of a normalized URL, without port (what rules and politeness key on)."""
    authority = url.split("://", 1)[1].split("/", 1)[0].split("?", 1)[0]
    if authority.startswith("["):
        return authority[: authority.index("]") + 1]
    return authority.rsplit(":", 1)[0] if ":" in authority else authority


def host_in_domain(host: str, domain: str) -> bool:
    """Whether ``host`` is ``domain`` or under it (RFC 6265 §5.1.3 domain-match): the one
    test cookies, a domain's re-clean and the window's domain filter use. Case and a final
    dot do not count; an IP address is under nothing but itself."""
    host = host.lower().rstrip(".")
    domain = domain.lower().strip(".")
    if host == domain:
        return True
    return host.endswith("." + domain) and not _is_ip(host)


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def _is_ipv6(text: str) -> bool:
    try:
        ipaddress.IPv6Address(unquote(text))  # a zone is written %25eth0 in a URL (RFC 6874)
    except ValueError:
        return False
    return True
