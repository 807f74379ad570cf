"""Finding links in whatever a person pastes, and one canonical form per page.

A link is first read as a browser reads it (``url_parse``: the WHATWG URL Standard), so the
page archived is the page the link opens. The canonical form on top follows RFC 3986 §6 and
the seeds' crawler habits (seed 000 "规范化步骤", seed 003 §3.1): no default port, dot segments
resolved, empty path → "/", escapes of characters that mean nothing there decoded, the others
upper-cased, query sorted with ``+`` and ``%20`` one spelling, tracking parameters and fragments
dropped — except ``#!`` and ``#/`` routes, which name different pages of a single-page app.
The project's own choices (README "Links in, one URL per page"): a trailing slash is
kept, a link with a user name or password is refused, and so are host names no DNS could hold.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING
from urllib.parse import unquote

from pipeline.records.failures import Code, failure
from pipeline.text.lazy_patterns import compiled
from pipeline.web.url_parse import (
    UrlRejected,
    a_label_problem,
    clean_url_text,
    label_problem,
    parse_ipv4,
    parse_url,
)

if TYPE_CHECKING:
    from lxml import etree  # a bookmarks file's folders: lxml loads only when one is read

TRACKING_PARAMS = frozenset(
    {"fbclid", "gclid", "spm", "from", "share_token", "ref", "utm_id", "mc_cid", "mc_eid"}
)
# Tracking names that are also ordinary parameters (GitHub's ?ref=<branch>, a timetable's
# ?from=PEK): dropped only when their value looks like a campaign tag.
_NAMES_OF_PAGES_TOO = frozenset({"ref", "from"})
# The channels links are shared through, as the words of a ref=/from= value name them.
_CHANNEL_WORDS = frozenset({
    # social and messaging networks
    "twitter", "tweet", "facebook", "fb", "instagram", "linkedin", "reddit", "mastodon",
    "telegram", "whatsapp", "weibo", "weixin", "wechat", "wx", "qq", "qzone", "douban",
    "zhihu", "toutiao", "douyin", "tiktok", "bilibili", "xiaohongshu", "youtube",
    # share surfaces (WeChat's from=timeline / singlemessage / groupmessage among them)
    "share", "shared", "sharing", "social", "timeline", "singlemessage", "groupmessage",
    "moments", "appmsg",
    # feeds, mail, aggregators
    "rss", "atom", "feed", "feedly", "inoreader", "newsletter", "email", "mail", "mailchimp",
    "substack", "digest", "hn", "hackernews", "lobsters", "producthunt",
    # search and ads
    "google", "bing", "baidu", "sogou", "search", "ad", "ads", "campaign", "promo", "sponsor",
    "affiliate",
})

_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
# Characters that may stand unescaped in a path / query (RFC 3986 §3.3, §3.4) besides '%'.
_PATH_SAFE = _UNRESERVED | frozenset("!$&'()*+,;=:@/")
_QUERY_SAFE = _PATH_SAFE | frozenset("?")
# Escapes decoded because the character means nothing more there than itself: in a path all
# but "/" (a segment), ";" (servlet path parameters) and "%"; in a form-encoded query also not
# "&", "=", "+" (a space) and "'" (which the Standard escapes in special queries).
_PATH_DECODED = _UNRESERVED | frozenset("!$&'()*+,=:@")
_QUERY_DECODED = _UNRESERVED | frozenset("!$()*,:@/?")
# Exactly two slashes (either way round) after the scheme: see normalize_url.
_AUTHORITY_SLASHES = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:[/\\]{2}(?![/\\])")

# A link in prose ends at white space (zero-width spaces too: text copied from Weibo or WeChat
# carries them), quotes, angle brackets or CJK punctuation (…… and —— end a clause in Chinese);
# trailing Western punctuation is trimmed afterwards (unless it closes a bracket the URL opened).
_SPACES = r"\s\u200b\u2060\ufeff"
_LINK_START = r"(?:(?:https?|ftp|file)://|www\.|(?:javascript|mailto|data):)"
_LINK = rf"""(?<![A-Za-z0-9+.-]){_LINK_START}[^{_SPACES}<>"'`，。；：！？、）】」』《》“”‘’…—]+"""
# Markdown's [label](target "title") and ![alt](src); a label may hold an image, a target one
# level of parentheses (https://en.wikipedia.org/wiki/Tea_(meal)).
_MD_BARE = r"[^\s()<>]*(?:\([^\s()<>]*\)[^\s()<>]*)*"
_MD_TITLE = r"""(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?"""
_MD_IMAGE = rf"!\[[^\[\]]{{0,1000}}\]\((?:<[^<>\n]*>|{_MD_BARE}){_MD_TITLE}\)"
_MD_LINK = (rf"!?\[((?:[^\[\]]|{_MD_IMAGE}){{0,1000}})\]"
            rf"\((?:<([^<>\n]*)>|({_MD_BARE})){_MD_TITLE}\)")
# Han, kana, hangul, CJK symbols and full-width forms: where an ASCII link in Chinese or
# Japanese prose ends when no space separates them.
_CJK = ("[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef"
        "\U00020000-\U0003ffff]")
_TRAILING = ".,;:!?*_~'\""


# The patterns above are compiled when pasted text is first read for links: they cost
# milliseconds to compile, and what else reads addresses (the extractor, timed as a whole
# process, issue 27 §10) never uses them.
def _link_re() -> re.Pattern[str]:
    return compiled(_LINK, re.IGNORECASE)


def _md_link_re() -> re.Pattern[str]:
    return compiled(_MD_LINK)


def _cjk_re() -> re.Pattern[str]:
    return compiled(_CJK)


_BRACKETS = {")": "(", "]": "[", "}": "{"}

# A host name's labels (RFC 1123 §2.1): letters, digits and hyphens, plus the underscore that
# browsers accept and Windows intranet names use.
_LABEL_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_-")


def find_links(text: str) -> list[str]:
    """Every link in pasted text, in order: plain lines, prose, Markdown or a bookmarks export.

    Link texts (bookmark names, Markdown labels) are not kept as titles: they are usually the
    page's <title> with its site suffix, worse than what extraction finds.
    """
    if not _looks_like_html(text):
        return _links_in_prose(text)
    from lxml import html as lxml_html  # here: only a pasted page or bookmarks file needs it

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
    from lxml import html as lxml_html

    folders: dict[str, tuple[str, ...]] = {}
    for a in lxml_html.fromstring(text).iter("a"):
        href = (a.get("href") or "").strip()
        if href and href not in folders:
            folders[href] = tuple(reversed([name for dl in a.iterancestors("dl")
                                            if (name := _folder_name(dl))]))
    return folders


def _folder_name(dl: etree._Element) -> str:
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
    """Markdown links by their targets (a label that is itself a URL is only its text), and
    bare links in the prose around them."""
    found: list[str] = []
    pos = 0
    for m in _md_link_re().finditer(text):
        found += _bare_links(text[pos : m.start()])
        found += _markdown_targets(m)
        pos = m.end()
    return found + _bare_links(text[pos:])


def _markdown_targets(m: re.Match[str]) -> Iterator[str]:
    """An image inside the label first (where it stands), then the link's own target."""
    for image in _md_link_re().finditer(m.group(1)):
        yield from _markdown_targets(image)
    target = (m.group(2) if m.group(2) is not None else m.group(3)).strip()
    if re.match(_LINK_START, target, re.IGNORECASE):  # not a relative link or an #anchor
        yield _with_scheme(target)


def _bare_links(text: str) -> list[str]:
    return [_with_scheme(_trim(_end_at_prose(m.group(0)))) for m in _link_re().finditer(text)]


def _with_scheme(url: str) -> str:
    # a bare "www." link: https is what a browser would try today
    return "https://" + url if url.lower().startswith("www.") else url


def _end_at_prose(url: str) -> str:
    """An ASCII link run into CJK prose (详见https://example.com/a这篇文章) ends at the first CJK
    character — unless the path already holds non-ASCII (a Chinese slug) or the character
    starts a label, a path segment, a query value or the fragment (/wiki/茶, ?q=茶, 例子.中国):
    those are parts of the link a browser shows decoded."""
    authority = url.find("//") + 2 if "//" in url else 0
    in_path = False
    for i in range(authority, len(url)):
        c = url[i]
        in_path = in_path or c in "/?#"
        if c.isascii():
            continue
        before = url[i - 1]
        if _cjk_re().match(c) and before.isascii() and before not in ("/?#=&" if in_path else "/."):
            return url[:i]
        if in_path:
            return url  # the path holds non-ASCII: the rest is the link's too
    return url


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


def normalize_url(url: str, extra_tracking: Iterable[str] = (),
                  keep: Iterable[str] = ()) -> str:
    """The canonical form of an http(s) URL; raises UrlRejected for anything else.

    ``extra_tracking`` names parameters to drop on top of TRACKING_PARAMS; ``keep`` names
    parameters that name a page on this site (rules.yaml ``keep_params``) and are never dropped.
    """
    parsed = parse_url(url)
    shown = url.strip()[:80]
    if not _AUTHORITY_SLASHES.match(clean_url_text(url)):
        # https:///a or https:a: the Standard repairs them (host "a"), but a guessed host is
        # another site than the one meant, so the link is refused as the broken link it is
        raise UrlRejected(failure(Code.LINK_HAS_NO_HOST, repr(shown)))
    if parsed.username or parsed.password:
        raise UrlRejected(failure(Code.CREDENTIALS, parsed.host))
    host = _dns_host(parsed.host, shown)
    if parsed.port is not None:
        host = f"{host}:{parsed.port}"
    path = re.sub(r"//+$", "/", _normalize_escapes(parsed.path, _PATH_SAFE, _PATH_DECODED))
    query = _normalize_query(parsed.query, {p.lower() for p in extra_tracking},
                             {p.lower() for p in keep})
    out = f"{parsed.scheme}://{host}{path}"
    if query:
        out += "?" + query
    fragment = parsed.fragment
    if fragment is not None and fragment[:1] in ("!", "/"):
        out += "#" + _normalize_escapes(fragment, _QUERY_SAFE, _UNRESERVED)
    return out


def _dns_host(host: str, shown: str) -> str:
    """The parsed host as DNS is asked for it (one final dot dropped); a name no DNS could look
    up is rejected with what is wrong with it. Addresses pass as the parser wrote them."""
    if host.startswith("[") or parse_ipv4(host) is not None:
        return host
    host = host.removesuffix(".")
    problem = _host_name_problem(host)
    if problem:
        raise UrlRejected(failure(Code.BAD_HOST_NAME, problem, repr(shown)))
    return host


def _host_name_problem(host: str) -> str | None:
    """Why DNS could not look up an ASCII host name (RFC 1035 §2.3.4 lengths, RFC 1123 §2.1
    labels, RFC 3492 Punycode A-labels), or None: the project's rule on top of the Standard,
    which lets through names no resolver answers. Single labels (localhost, an intranet wiki)
    pass."""
    if len(host) > 253:
        return f"{len(host):,} characters long; the longest is 253"
    for label in host.split("."):
        if not label:
            return "an empty label (a dot at the start or two in a row)"
        if len(label) > 63:
            return f"a label of {len(label):,} characters; the longest is 63"
        if bad := next((c for c in label if c not in _LABEL_CHARS), None):
            return label_problem(label, bad)
        if label.startswith("xn--"):
            # browsers pass any ASCII A-label through; one that is no Punycode at all was
            # written by no IDN encoder and names no registrable site
            if problem := a_label_problem(label):
                return problem
        elif label[0] == "-" or label[-1] == "-":
            return f"{label!r} starts or ends with a hyphen"
    return None


def _normalize_escapes(part: str, safe: frozenset[str], decoded: frozenset[str]) -> str:
    """Decode the escapes of ``decoded`` characters, upper-case the others, escape what is not
    ``safe``."""
    out: list[str] = []
    i = 0
    while i < len(part):
        c = part[i]
        if c == "%" and re.fullmatch(r"[0-9A-Fa-f]{2}", part[i + 1 : i + 3]):
            ch = chr(int(part[i + 1 : i + 3], 16))
            out.append(ch if ch in decoded else "%" + part[i + 1 : i + 3].upper())
            i += 3
            continue
        if c in safe:
            out.append(c)
        else:
            out.extend(f"%{b:02X}" for b in c.encode("utf-8"))
        i += 1
    return "".join(out)


def _normalize_query(query: str | None, extra_tracking: set[str], kept: set[str]) -> str:
    """Pairs sorted by key (stable, so repeated keys keep their order), ``+`` written ``%20``
    (both are a space in a form-encoded query; %20 is one to every decoder), tracking pairs
    dropped."""
    if not query:
        return ""
    pairs = []
    for item in query.split("&"):
        if not item:
            continue
        key, eq, value = item.replace("+", "%20").partition("=")
        key = _normalize_escapes(key, _QUERY_SAFE - {"&", "="}, _QUERY_DECODED)
        value = _normalize_escapes(value, _QUERY_SAFE - {"&"}, _QUERY_DECODED)
        name = unquote(key).lower()
        if name not in kept and _is_tracking(name, unquote(value), extra_tracking):
            continue
        pairs.append((key, eq + value))
    pairs.sort(key=lambda kv: kv[0])
    return "&".join(k + v for k, v in pairs)


def _is_tracking(name: str, value: str, extra_tracking: set[str]) -> bool:
    """Whether a pair only says how the reader arrived: a name the person listed, ``utm_*``, or
    one of TRACKING_PARAMS — ``ref`` and ``from`` only with a campaign-tag value."""
    if name in extra_tracking or name.startswith("utm_"):
        return True
    if name in _NAMES_OF_PAGES_TOO:
        return looks_like_campaign_tag(value)
    return name in TRACKING_PARAMS


def looks_like_campaign_tag(value: str) -> bool:
    """Whether a ``ref=`` / ``from=`` value says where the reader came from rather than which
    page they want.

    Decision: it does when one of its words (split at anything but letters and digits) names a
    channel links are shared through — a social or messaging network, a feed, a newsletter or
    e-mail, a share button or timeline, an aggregator, a search engine, an ad — or starts with
    ``utm``. So ``twitter``, ``hn``, ``rss``, ``newsletter-2024``, ``wechat_moments``,
    ``singlemessage`` are tags; ``dev``, ``main``, ``v1.2``, ``PEK`` are not. A site whose own
    ``ref`` is always a page's (GitHub's branch) lists it under ``keep_params`` instead.
    """
    words = re.split(r"[^a-z0-9]+", value.lower())
    return any(w in _CHANNEL_WORDS or w.startswith("utm") for w in words if w)


def host_of(url: str) -> str:
    """A URL's host, lower-cased, without user or port, an IPv6 address in its brackets: the
    one key rules, politeness, reports and same-host checks use; "" for a text that is no link
    (a hand-edited row's junk), so a report groups it, not fails. The resolver's form (no
    brackets, what ``addresses`` and cookies match) stays ``urlsplit(url).hostname``."""
    if "://" not in url:
        return ""
    authority = re.split(r"[/?#]", url.split("://", 1)[1], maxsplit=1)[0].rsplit("@", 1)[-1]
    if authority.startswith("["):
        return authority[: authority.index("]") + 1].lower() if "]" in authority else ""
    return (authority.rsplit(":", 1)[0] if ":" in authority else authority).lower()


def site_domain(host: str) -> str:
    """The domain a host's site is named by: the host without a leading ``www.`` when a domain
    is left (``www.example.com`` → ``example.com``, whose section covers both; ``www.com``
    stays, never a rules section for a whole top-level domain). Harvest's "same site", a new
    rules section's name and the report's site names all use it."""
    return host[4:] if host.startswith("www.") and host.count(".") > 1 else host


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


# Longer links are refused at intake; normalized links are ASCII, so characters are bytes.
MAX_URL_CHARS = 8_192


def check_url_length(url: str, encoded: bool = False) -> None:
    """Refuse a link too long for a cell (a pasted blob, a URL stuffed with data)."""
    if len(url) > MAX_URL_CHARS:
        code = Code.LINK_TOO_LONG_ENCODED if encoded else Code.LINK_TOO_LONG
        raise UrlRejected(failure(code, f"{len(url):,}", f"{MAX_URL_CHARS:,}"))
