"""An http(s) link read the way a browser reads it: the WHATWG URL Standard's basic URL parser
(https://url.spec.whatwg.org/), for the two special schemes Kuaibu archives and no base URL.

Why not ``urllib.parse``: it follows RFC 3986, and where the two disagree the browser decides
which site a link opens. ``https://evil.com\\@good.com/`` is evil.com to a browser (a backslash
is a slash in special URLs) but good.com to urlsplit, so a link that looks like one site would
archive another. Here: leading and trailing C0 controls and spaces are stripped, tabs and
newlines removed anywhere, ``\\`` read as ``/``, hosts percent-decoded and mapped by UTS #46
(non-transitional, UseSTD3ASCIIRules and CheckHyphens off, as browsers do), a host ending in a
number parsed as IPv4, ``[…]`` as IPv6, and path, query and fragment percent-encoded with the
Standard's sets. What the Standard calls a failure raises UrlRejected with the reason; its
non-fatal "validation errors" are repaired as a browser repairs them. The project's own
canonical form (sorted query, tracking parameters…) is built on top, in ``urls.py``.
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from dataclasses import dataclass
from urllib.parse import unquote

from pipeline.records.errors import ErrorKind, KuaibuError
from pipeline.records.failures import Code, Failure, failure

_SPECIAL_PORTS = {"http": 80, "https": 443}

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_C0_OR_SPACE = "".join(map(chr, range(0x21)))
_TAB_OR_NEWLINE = {ord("\t"): None, ord("\n"): None, ord("\r"): None}

# Percent-encode sets (URL Standard §1.3). Code points above U+007E are always encoded.
_C0_SET = frozenset(map(chr, range(0x20))) | {"\x7f"}  # DELETE: encoded as above U+007E
_FRAGMENT_SET = _C0_SET | frozenset(' "<>`')
_QUERY_SET = _C0_SET | frozenset(' "#<>')
_SPECIAL_QUERY_SET = _QUERY_SET | {"'"}
_PATH_SET = _QUERY_SET | frozenset("?^`{}")
_USERINFO_SET = _PATH_SET | frozenset("/:;=@[\\]^|")

# Forbidden domain code points (§3.2): what no host name may hold once mapped.
_FORBIDDEN_DOMAIN = _C0_SET | frozenset(" #/:<>?@[\\]^|%")
_SINGLE_DOT = frozenset({".", "%2e"})
_DOUBLE_DOT = frozenset({"..", ".%2e", "%2e.", "%2e%2e"})
_RTL = frozenset({"R", "AL", "AN"})
_ZERO_WIDTH_JOINERS = frozenset("\u200c\u200d")


class UrlRejected(KuaibuError):
    """A pasted link that Kuaibu will not fetch; the message says why."""

    kind = ErrorKind.BAD_URL
    failure: Failure

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure)


@dataclass(frozen=True)
class ParsedUrl:
    """A parsed http(s) URL, each part already serialized as the Standard serializes it."""

    scheme: str  # "http" or "https"
    username: str  # percent-encoded; "" when the link has none
    password: str
    host: str  # an ASCII domain, a dotted IPv4 address, or "[" compressed IPv6 "]"
    port: int | None  # None for none or the scheme's default
    path: str  # starts with "/", dot segments resolved
    query: str | None  # without "?"; None when the link has no "?"
    fragment: str | None  # without "#"; None when the link has no "#"

    @property
    def href(self) -> str:
        """The URL serializer (§4.5): what a browser's address bar holds."""
        userinfo = ""
        if self.username or self.password:
            userinfo = self.username + (":" + self.password if self.password else "") + "@"
        port = "" if self.port is None else f":{self.port}"
        out = f"{self.scheme}://{userinfo}{self.host}{port}{self.path}"
        if self.query is not None:
            out += "?" + self.query
        if self.fragment is not None:
            out += "#" + self.fragment
        return out


def clean_url_text(text: str) -> str:
    """The input as the parser reads it: C0 controls and spaces trimmed from both ends, tabs and
    newlines removed anywhere (a link wrapped across lines in an e-mail or an href), lone
    surrogates replaced (they have no UTF-8 form)."""
    text = text.strip(_C0_OR_SPACE).translate(_TAB_OR_NEWLINE)
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def parse_url(text: str) -> ParsedUrl:
    """``text`` as a browser reads it when typed or followed (no base URL). Raises UrlRejected
    for anything but an http(s) URL the Standard can parse."""
    shown = text.strip()[:80]
    url = clean_url_text(text)
    m = _SCHEME.match(url)
    if not m:
        raise UrlRejected(failure(Code.NOT_A_LINK, repr(shown)))
    scheme = m.group(0)[:-1].lower()
    if scheme not in _SPECIAL_PORTS:
        raise UrlRejected(failure(Code.SCHEME_NOT_ARCHIVED, scheme))
    # special authority (ignore) slashes state: any run of / and \ leads to the authority
    rest = url[m.end() :].lstrip("/\\")
    end = next((i for i, c in enumerate(rest) if c in "/\\?#"), len(rest))
    authority, rest = rest[:end], rest[end:]
    rest, hash_, fragment = rest.partition("#")
    rest, question, query = rest.partition("?")
    userinfo, _, hostport = authority.rpartition("@")  # the host follows the last @
    username, _, password = userinfo.partition(":")
    host, port = _split_port(hostport)
    if not host:
        raise UrlRejected(failure(Code.LINK_HAS_NO_HOST, repr(shown)))
    return ParsedUrl(
        scheme=scheme,
        username=_percent_encode(username, _USERINFO_SET),
        password=_percent_encode(password, _USERINFO_SET),
        host=_parse_host(host, shown),
        port=_port(port, scheme, shown),
        path=_parse_path(rest),
        query=_percent_encode(query, _SPECIAL_QUERY_SET) if question else None,
        fragment=_percent_encode(fragment, _FRAGMENT_SET) if hash_ else None,
    )


def _split_port(hostport: str) -> tuple[str, str]:
    """Host state: the first ':' outside [brackets] starts the port."""
    inside = False
    for i, c in enumerate(hostport):
        if c == "[":
            inside = True
        elif c == "]":
            inside = False
        elif c == ":" and not inside:
            return hostport[:i], hostport[i + 1 :]
    return hostport, ""


def _port(text: str, scheme: str, shown: str) -> int | None:
    if not text:
        return None
    if not text.isascii() or not text.isdigit() or int(text) > 65535:
        raise UrlRejected(failure(Code.BAD_PORT, repr(text), repr(shown)))
    port = int(text)
    return None if port == _SPECIAL_PORTS[scheme] else port


def _parse_path(path: str) -> str:
    """Path state for a special URL: \\ is /, "." and ".." segments (also spelled %2e) are
    resolved, and what the path percent-encode set names is escaped."""
    segments = path.replace("\\", "/").split("/")[1:] if path else [""]
    out: list[str] = []
    for i, segment in enumerate(segments):
        last = i == len(segments) - 1
        lowered = segment.lower()
        if lowered in _DOUBLE_DOT:
            if out:
                out.pop()
            if last:
                out.append("")
        elif lowered in _SINGLE_DOT:
            if last:
                out.append("")
        else:
            out.append(_percent_encode(segment, _PATH_SET))
    return "/" + "/".join(out)


def _percent_encode(text: str, encode_set: frozenset[str]) -> str:
    return "".join(
        "".join(f"%{b:02X}" for b in c.encode("utf-8")) if c in encode_set or c > "~" else c
        for c in text
    )


def _parse_host(text: str, shown: str) -> str:
    """The host parser (§3.5) for a special URL: the serialized host, or UrlRejected naming
    what is wrong (``shown`` is the link as the message quotes it)."""
    if text.startswith("["):
        ipv6 = _parse_ipv6(text[1:-1]) if text.endswith("]") else None
        if ipv6 is None:
            raise UrlRejected(failure(Code.BAD_IPV6_HOST, repr(shown)))
        return f"[{_serialize_ipv6(ipv6)}]"
    domain = unquote(text, errors="replace")  # UTF-8 decode without BOM or fail → U+FFFD
    ascii_domain = _domain_to_ascii(domain, shown)
    for label in ascii_domain.split("."):
        if bad := next((c for c in label if c in _FORBIDDEN_DOMAIN), None):
            raise UrlRejected(failure(Code.BAD_HOST_NAME, label_problem(label, bad),
                                              repr(shown)))
    if _ends_in_number(ascii_domain):
        ipv4 = parse_ipv4(ascii_domain)
        if ipv4 is None:
            raise UrlRejected(failure(
                Code.BAD_HOST_NAME,
                f"{ascii_domain!r} ends in a number but is not a dotted IPv4 address (four"
                " numbers 0-255, or fewer with the last filling the rest)", repr(shown)))
        return str(ipv4)
    return ascii_domain


def label_problem(label: str, bad: str) -> str:
    """Why a host label holding the character ``bad`` is refused, in one wording for the
    Standard's forbidden code points and the project's stricter DNS labels."""
    return (f"{label!r} holds a character other than letters, digits, '-' and '_'"
            f" ({bad!r})")


def _domain_to_ascii(domain: str, shown: str) -> str:
    """domain to ASCII (§3.3) with beStrict false: UTS #46 ToASCII, non-transitional, with
    CheckHyphens, UseSTD3ASCIIRules and VerifyDnsLength off, CheckBidi and CheckJoiners on.
    ``idna.encode`` is not used: it adds IDNA2008's rules, which refuse emoji labels such as
    ``➡.ws`` that every browser opens (as ``xn--hgi.ws``).

    An all-ASCII domain is only lowercased: since whatwg/url#914 (tests: wpt#60476) a ToASCII
    failure there is a validation error, not a failure, because real sites have A-labels that
    UTS #46 refuses (``xn--8i7caa.famitei.net``, full-width "www")."""
    if domain.isascii():
        return domain.lower()
    # idna is imported by the first name outside ASCII, not with the module: its tables cost
    # 7 ms in every process that only reads ASCII hosts (``main.py extract``, issue 27 §10).
    import idna

    try:
        mapped = idna.uts46_remap(domain, std3_rules=False, transitional=False)
    except idna.IDNAError as e:
        raise UrlRejected(failure(Code.BAD_HOST_NAME, e, repr(shown))) from None
    labels = mapped.split(".")
    decoded = [_decoded_label(label, shown) for label in labels]
    bidi = any(unicodedata.bidirectional(c) in _RTL for label in decoded for c in label)
    for label, text in zip(labels, decoded, strict=True):
        if not text.isascii():
            _check_label(text, bidi, label, shown)
        elif bidi and text:  # in a right-to-left name every label keeps the Bidi rule
            _check_bidi(text, label, shown)
    ascii_domain = ".".join(
        label if label.isascii() else "xn--" + label.encode("punycode").decode("ascii")
        for label in labels)
    if not ascii_domain:  # everything was mapped away (U+200B alone, say)
        raise UrlRejected(failure(Code.LINK_HAS_NO_HOST, repr(shown)))
    return ascii_domain


def _decoded_label(label: str, shown: str) -> str:
    """A label's Unicode form: an A-label (xn--…) decoded, anything else as it is."""
    if not label.startswith("xn--"):
        return label
    try:
        return _a_label_text(label)
    except (ValueError, UnicodeError) as e:
        raise UrlRejected(failure(Code.BAD_HOST_NAME, _not_international(label, e),
                                  repr(shown))) from None


def a_label_problem(label: str) -> str | None:
    """Why an ``xn--`` label is no Punycode an IDN encoder could have written, or None."""
    try:
        _a_label_text(label)
    except (ValueError, UnicodeError) as e:
        return _not_international(label, e)
    return None


def _a_label_text(label: str) -> str:
    """UTS #46 §4.1 step 4.1 for an A-label: its decoded text, or ValueError/UnicodeError."""
    if not label.isascii():
        raise ValueError("it holds non-ASCII characters")
    text = label[4:].encode("ascii").decode("punycode")
    if not text or text.isascii():
        raise ValueError("it decodes to nothing or to plain ASCII")
    return text


def _check_label(text: str, bidi: bool, label: str, shown: str) -> None:
    """UTS #46 §4.1 validity criteria for a label's Unicode form."""
    import idna  # see _domain_to_ascii

    try:
        if not unicodedata.is_normalized("NFC", text):
            raise ValueError("not in Unicode normal form C")
        if text.startswith("xn--") or "." in text:
            raise ValueError("it decodes to another A-label or to a dot")
        if unicodedata.category(text[0]).startswith("M"):
            raise ValueError("it starts with a combining mark")
        if idna.uts46_remap(text, std3_rules=False, transitional=False) != text:
            raise ValueError("it holds characters a host name maps to others")
        if any(c in _ZERO_WIDTH_JOINERS and not idna.valid_contextj(text, i)
               for i, c in enumerate(text)):
            raise ValueError("a zero-width joiner where none may stand")
    except (ValueError, idna.IDNAError) as e:
        raise UrlRejected(failure(Code.BAD_HOST_NAME, _not_international(label, e),
                                  repr(shown))) from None
    if bidi:
        _check_bidi(text, label, shown)


def _check_bidi(text: str, label: str, shown: str) -> None:
    """UTS #46 CheckBidi: once any label of a name is right-to-left, each label, ASCII ones
    too, must keep RFC 5893's Bidi rule (``0a.א`` fails: a label may not start with a digit
    there)."""
    import idna  # see _domain_to_ascii

    try:
        idna.check_bidi(text, check_ltr=True)
    except idna.IDNAError as e:
        raise UrlRejected(failure(Code.BAD_HOST_NAME, _not_international(label, e),
                                  repr(shown))) from None


def _not_international(label: str, why: Exception) -> str:
    return f"{label!r} is not a valid international label ({why})"


def _ends_in_number(domain: str) -> bool:
    """ends in a number checker (§3.5): such a host is read as IPv4 or refused, never looked up
    as a name."""
    parts = domain.split(".")
    if parts[-1] == "":
        if len(parts) == 1:
            return False
        parts.pop()
    last = parts[-1]
    if last and last.isascii() and last.isdigit():
        return True
    return _ipv4_number(last) is not None


def parse_ipv4(host: str) -> ipaddress.IPv4Address | None:
    """IPv4 parser (§3.5); None where it fails (or the host is a name). 1 to 4 dot-separated
    numbers, each decimal, octal (``0177``) or hex (``0x7f``), the last filling the remaining
    bytes: ``2130706433``, ``0x7f.1``, ``127.1`` are all 127.0.0.1; a final dot is allowed."""
    parts = host.split(".")
    if len(parts) > 1 and parts[-1] == "":
        parts.pop()
    if len(parts) > 4:
        return None
    numbers = [_ipv4_number(p) for p in parts]
    if any(n is None for n in numbers):
        return None
    *high, last = [n for n in numbers if n is not None]
    if any(n > 255 for n in high) or last >= 256 ** (5 - len(numbers)):
        return None
    return ipaddress.IPv4Address(sum(n << 8 * (3 - i) for i, n in enumerate(high)) + last)


_DIGITS = {10: frozenset("0123456789"), 8: frozenset("01234567"),
           16: frozenset("0123456789abcdefABCDEF")}


# What _ipv4_number gives for digits too many to convert: above every IPv4 limit.
_TOO_LARGE = 1 << 64


def _ipv4_number(part: str) -> int | None:
    """IPv4 number parser (§3.5): 0x… is hex, 0… octal, the rest decimal; None on failure.

    The Standard's number has no upper bound: too many digits is still a number, only too
    large for an address. So ``foo.0xffffffffffffffffff`` ends in a number and then fails as
    IPv4, where returning None here would have let it through as a domain."""
    if not part:
        return None
    base = 10
    if part[:2] in ("0x", "0X"):
        part, base = part[2:], 16
    elif len(part) > 1 and part[0] == "0":
        part, base = part[1:], 8
    if not part:
        return 0  # "0x" alone is 0 for a browser
    if not set(part) <= _DIGITS[base]:
        return None
    if len(part.lstrip("0")) > 16:  # far above 2**32 (and below int()'s digit limit)
        return _TOO_LARGE
    return int(part, base)


def _parse_ipv6(text: str) -> ipaddress.IPv6Address | None:
    """IPv6 parser (§3.6); None where it fails. Unlike ``ipaddress``, the Standard has no zone
    (``%eth0``): browsers refuse one."""
    if "%" in text:
        return None
    try:
        return ipaddress.IPv6Address(text)
    except ValueError:
        return None


def _serialize_ipv6(address: ipaddress.IPv6Address) -> str:
    """IPv6 serializer (§3.7): lower-case hex, the first longest run of two or more zero pieces
    compressed, never a dotted IPv4 tail (``::ffff:7f00:1``)."""
    value = int(address)
    pieces = [(value >> (16 * (7 - i))) & 0xFFFF for i in range(8)]
    start, length = -1, 1
    i = 0
    while i < 8:
        j = i
        while j < 8 and pieces[j] == 0:
            j += 1
        if j - i > length:
            start, length = i, j - i
        i = max(j, i + 1)
    if start < 0:
        return ":".join(f"{p:x}" for p in pieces)
    head = ":".join(f"{p:x}" for p in pieces[:start])
    tail = ":".join(f"{p:x}" for p in pieces[start + length :])
    return f"{head}::{tail}"
