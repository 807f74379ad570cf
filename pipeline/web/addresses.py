"""Which network addresses Kuaibu connects to (issues 12, 25): the address policy, in one place.

Checking the scheme is not enough: a page can redirect to ``169.254.169.254`` (a cloud's
metadata service), embed an image from a router's admin page or link to ``http://10.1.2.3/``,
and the app would fetch it and bind the answer into a book. So every address is judged before
it is connected to — the task's own link's, every redirect hop's, every image's, every request
of the browser path's:

* link-local, unspecified, multicast and reserved addresses are never fetched;
* loopback and private addresses only when the link that vouches for the task is itself on
  one (an intranet wiki stays archivable), never as a redirect, an image or a link of a public
  page. A link the person added vouches for itself; a link found on a page (a harvest's) is
  the page's link, and the page vouches for it (``origin_host``);
* the ``allow_addresses`` setting widens this for the classes it names.

A task's policy is made in one place, ``AddressPolicy.for_task``; the fetch judges each
connection by it (``connectable``, ``check``) and a harvest judges each candidate by it before
it becomes a task (``refusal_of``). Numeric host spellings (``2130706433``, ``0x7f.1``,
``[::ffff:7f00:1]``) are read the way a browser reads them before they are judged. The
resolver and a table of address classes are a ``Network`` the policy carries, so tests can
make a name resolve to a chosen address and one loopback address stand for a public site, and
so the caller connects to exactly the addresses that were checked (a second lookup at connect
time could answer differently: DNS rebinding).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from urllib.parse import unquote, urlsplit

import idna

from pipeline.records.address_class import ALLOW_CHOICES, LOCAL, WIDENABLE, AddressClass
from pipeline.records.errors import ErrorKind, FetchError
from pipeline.records.failures import Code, Failure, failure
from pipeline.web.url_parse import parse_ipv4

IP = ipaddress.IPv4Address | ipaddress.IPv6Address
# A name to its addresses, in the order to try them; raises OSError (socket.gaierror) when the
# name has none. No port: addresses do not depend on it, the connection adds it.
Resolver = Callable[[str], Sequence[IP]]

SETTING = "allow_addresses"  # the Settings field that widens the policy, named in refusals
# What a refusal's FetchError is grouped under (one place, should errors.py gain its own kind).
BLOCKED_KIND = ErrorKind.BLOCKED_ADDRESS


def _table(
    rows: Iterable[tuple[str, AddressClass]],
) -> tuple[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, AddressClass], ...]:
    return tuple((ipaddress.ip_network(net), cls) for net, cls in rows)


# IANA's special-purpose registries (RFC 6890), reduced to what matters for an HTTP fetch.
# Not listed, so public: 198.18.0.0/15 (RFC 2544 benchmarking) — it is routed nowhere, so
# nothing sensitive lives there, and proxy tools' "fake-IP" DNS (Clash, Surge) answers every
# name with it: refusing it would refuse every page for the people who use them.
_IPV4 = _table([
    # RFC 1122 §3.2.1.3 "this host on this network": a source, never a destination
    # (Linux connects 0.0.0.0 to this machine)
    ("0.0.0.0/8", AddressClass.UNSPECIFIED),
    ("127.0.0.0/8", AddressClass.LOOPBACK),  # RFC 1122 §3.2.1.3
    ("169.254.0.0/16", AddressClass.LINK_LOCAL),  # RFC 3927; cloud metadata services
    ("10.0.0.0/8", AddressClass.PRIVATE),  # RFC 1918
    ("172.16.0.0/12", AddressClass.PRIVATE),  # RFC 1918
    ("192.168.0.0/16", AddressClass.PRIVATE),  # RFC 1918
    ("100.64.0.0/10", AddressClass.PRIVATE),  # RFC 6598 shared space: CGNAT, Tailscale
    ("224.0.0.0/4", AddressClass.MULTICAST),  # RFC 5771
    ("192.0.0.0/24", AddressClass.RESERVED),  # RFC 6890 IETF protocol assignments
    ("192.0.2.0/24", AddressClass.RESERVED),  # RFC 5737 documentation
    ("198.51.100.0/24", AddressClass.RESERVED),  # RFC 5737 documentation
    ("203.0.113.0/24", AddressClass.RESERVED),  # RFC 5737 documentation
    ("240.0.0.0/4", AddressClass.RESERVED),  # RFC 1112 future use; 255.255.255.255 broadcast
])
_IPV6 = _table([
    ("::/128", AddressClass.UNSPECIFIED),  # RFC 4291 §2.5.2
    ("::1/128", AddressClass.LOOPBACK),  # RFC 4291 §2.5.3
    ("fe80::/10", AddressClass.LINK_LOCAL),  # RFC 4291 §2.5.6
    ("fc00::/7", AddressClass.PRIVATE),  # RFC 4193 unique local
    ("ff00::/8", AddressClass.MULTICAST),  # RFC 4291 §2.7
    ("2001:db8::/32", AddressClass.RESERVED),  # RFC 3849 documentation
    ("3fff::/20", AddressClass.RESERVED),  # RFC 9637 documentation
])
# Global unicast (RFC 4291 §2.4, IANA): any IPv6 address outside it that the table and the
# IPv4-carrying forms below do not name — ::a.b.c.d "compatible" (deprecated, RFC 4291
# §2.5.5.1), fec0::/10 site-local (deprecated, RFC 3879), 100::/64 discard — is reserved.
_GLOBAL_UNICAST = ipaddress.IPv6Network("2000::/3")
# NAT64's well-known prefix (RFC 6052): a NAT64 gateway delivers 64:ff9b::a.b.c.d to a.b.c.d.
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


def classify(ip: IP) -> AddressClass:
    """What ``ip`` is. An IPv6 address that carries an IPv4 address the network may deliver to
    — IPv4-mapped (``::ffff:a.b.c.d``), NAT64 (``64:ff9b::a.b.c.d``), 6to4 (``2002::/16``),
    Teredo (``2001::/32``, its client) — is judged by that IPv4 address."""
    carried = carried_ipv4(ip)
    if carried is not None:
        return classify(carried)
    if isinstance(ip, ipaddress.IPv4Address):
        return next((cls for net, cls in _IPV4 if ip in net), AddressClass.PUBLIC)
    found = next((cls for net, cls in _IPV6 if ip in net), None)
    if found is not None:
        return found
    return AddressClass.PUBLIC if ip in _GLOBAL_UNICAST else AddressClass.RESERVED


def carried_ipv4(ip: IP) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address stands for, when packets to it end up there."""
    if isinstance(ip, ipaddress.IPv4Address):
        return None
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip in _NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFF_FFFF)
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip.teredo is not None:
        return ip.teredo[1]
    return None


def parse_host_address(host: str) -> IP | None:
    """The address a URL host spells, read as a browser reads it (WHATWG URL host parser), or
    None for a name (to be resolved).

    IPv4 may come as 1 to 4 dot-separated numbers, each decimal, octal (``0177``) or hex
    (``0x7f``), the last filling the remaining bytes: ``2130706433``, ``0x7f.1``, ``127.1``,
    ``0177.0.0.1`` are all 127.0.0.1; a final dot is allowed. IPv6 may be bracketed and carry a
    zone (``[fe80::1%25eth0]``, RFC 6874). Full-width digits and dots are mapped first (UTS 46),
    as a browser does. A host that only looks numeric (``1.2.3.09``, ``256.1.1.1``) is None:
    browsers refuse it, and a resolver's answer for it is checked like any other.
    """
    host = unquote(host.strip())
    if host.startswith("[") and host.endswith("]"):
        return _parse_ipv6(host[1:-1])
    if ":" in host:
        return _parse_ipv6(host)
    if not host.isascii():
        try:
            host = idna.uts46_remap(host, std3_rules=False, transitional=False)
        except idna.IDNAError:
            return None
        if not host.isascii():
            return None
    return parse_ipv4(host)


def _parse_ipv6(text: str) -> ipaddress.IPv6Address | None:
    try:
        return ipaddress.IPv6Address(text)
    except ValueError:
        return None


def system_resolver(host: str) -> list[IP]:
    """The system's answer for ``host`` (getaddrinfo: hosts file, DNS), in its order."""
    found: list[IP] = []
    for *_, sockaddr in socket.getaddrinfo(host, None, type=socket.SOCK_STREAM):
        ip = ipaddress.ip_address(sockaddr[0])
        if isinstance(ip, ipaddress.IPv6Address) and len(sockaddr) > 3 and sockaddr[3]:
            ip = ipaddress.IPv6Address(f"{ip}%{sockaddr[3]}")  # a link-local zone
        found.append(ip)
    return found


def addresses_of(host: str, resolver: Resolver = system_resolver) -> list[IP]:
    """Every address ``host`` stands for, without duplicates: a numeric host is its own (no
    lookup), a name is asked of ``resolver``. Raises OSError when there is none."""
    literal = parse_host_address(host)
    found = [literal] if literal is not None else list(dict.fromkeys(resolver(host)))
    if not found:
        raise socket.gaierror(socket.EAI_NONAME, f"no address found for {host}")
    return found


class BlockedAddress(FetchError):
    """An address the policy refuses; ``reason`` names it, its class and the rule."""

    def __init__(self, reason: Failure, address: IP, address_class: AddressClass) -> None:
        super().__init__(reason, kind=BLOCKED_KIND, retryable=False)
        self.address = address
        self.address_class = address_class


# Networks classed otherwise than IANA's registries say, looked up before them.
ClassTable = tuple[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, AddressClass], ...]


@dataclass(frozen=True)
class Network:
    """How the policy sees the network: who answers for names, and which networks are what.

    The defaults are the system's resolver and IANA's tables. Both are seams for tests, whose
    servers all sit on loopback: ``classes`` can make ``127.0.0.1/32`` a public site while
    ``127.0.0.2`` stays loopback, and ``resolver`` can make a name resolve to either.
    """

    resolver: Resolver = system_resolver
    classes: ClassTable = ()

    def class_of(self, ip: IP) -> AddressClass:
        """What ``ip`` is: the table's word when it names the address (or the IPv4 address it
        carries), else ``classify``'s."""
        for candidate in (ip, carried_ipv4(ip)):
            if candidate is None:
                continue
            found = next((cls for net, cls in self.classes
                          if net.version == candidate.version and candidate in net), None)
            if found is not None:
                return found
        return classify(ip)


SYSTEM = Network()


def link_host(link: str) -> str:
    """A link's host as the resolver takes it; "" for a link that has none or will not parse
    (judged as a name that does not resolve: the strict side)."""
    try:
        return urlsplit(link).hostname or ""
    except ValueError:
        return ""


def origin_host(link: str, found_on: str = "") -> str:
    """The host whose addresses vouch for a task: the page's it was found on (a link found on
    a page is the page's link, not the person's), else its own (a person added it)."""
    return link_host(found_on or link)


@dataclass(frozen=True)
class AddressPolicy:
    """Which addresses one task may fetch: its page, every redirect hop, every image, every
    request of its browser.

    A task's is made by ``for_task`` from the run's (``from_setting``): ``local_origin`` is
    whether the link that vouches for the task (the person's own link, or the page a found
    link was found on: ``origin_host``) is itself on loopback or private addresses; ``allow``
    the classes the setting lets through from any page; ``network`` the resolver and class
    table every judgement uses.
    """

    allow: frozenset[AddressClass] = field(default_factory=frozenset)
    local_origin: bool = False
    network: Network = SYSTEM

    def __post_init__(self) -> None:
        if wrong := sorted(self.allow - set(WIDENABLE)):
            raise ValueError(f"{SETTING} cannot allow {', '.join(wrong)}")

    @classmethod
    def from_setting(cls, words: Iterable[str], network: Network = SYSTEM) -> AddressPolicy:
        """The policy ``allow_addresses`` asks for, before any link is known (a public origin).
        Unknown words are a ValueError (Settings' Spec refuses them first)."""
        try:
            allow = frozenset(AddressClass(w) for w in words)
        except ValueError as e:
            raise ValueError(f"{SETTING} takes {', '.join(ALLOW_CHOICES)}: {e}") from None
        return cls(allow=allow, network=network)

    def for_task(self, link: str, found_on: str = "") -> AddressPolicy:
        """The policy of a task whose link is ``link``: the one entry point every fetch path
        takes its policy from (``tests/pipeline/test_address_policy_callers.py`` lists them).

        ``found_on``: the page the link was found on (a harvest's list page), "" when a
        person added it. The task is local only when every address of ``origin_host`` is
        loopback or private: a name that also resolves to a public address is a public site,
        whatever else its DNS says; a host that cannot be resolved now is taken as public
        (the strict side), its own fetch then failing on the lookup.
        """
        try:
            origin = addresses_of(origin_host(link, found_on), self.network.resolver)
        except OSError:
            origin = []
        classes = {self.network.class_of(ip) for ip in origin}
        return replace(self, local_origin=bool(classes) and classes <= LOCAL)

    def refusal(self, ip: IP, host: str | None = None) -> Failure | None:
        """Why ``ip`` must not be fetched — naming the address, its class and the rule — or
        None if it may. ``host`` is the name it was resolved from, to name it too."""
        cls = self.network.class_of(ip)
        if cls is AddressClass.PUBLIC or cls in self.allow:
            return None
        if cls in LOCAL and self.local_origin:
            return None
        detail = ""
        carried = carried_ipv4(ip)
        if carried is not None:
            detail += f" (IPv4 {carried})"
        if host is not None and parse_host_address(host) is None:
            detail += f" of {host}"
        if cls in LOCAL:  # every LOCAL class is among WIDENABLE
            code = Code.ADDRESS_LOCAL
        else:
            code = Code.ADDRESS_NEVER_WIDENABLE if cls in WIDENABLE else Code.ADDRESS_NEVER
        return failure(code, ip, cls.value, detail)

    def check(self, ip: IP, host: str | None = None) -> None:
        """Raise BlockedAddress if ``ip`` must not be fetched (an already open connection's
        peer, say)."""
        if (reason := self.refusal(ip, host)) is not None:
            raise BlockedAddress(reason, ip, self.network.class_of(ip))

    def connectable(self, host: str) -> list[IP]:
        """The addresses of ``host`` this policy lets the caller connect to, in order: connect
        to these, not to the name, so the address checked is the address reached (a second
        lookup could answer otherwise: DNS rebinding). Raises BlockedAddress with the first
        refusal when none may be, OSError when the name does not resolve."""
        addresses = addresses_of(host, self.network.resolver)
        ok = [ip for ip in addresses if self.refusal(ip, host) is None]
        if not ok:
            self.check(addresses[0], host)
        return ok

    def refusal_of(self, link: str) -> Failure | None:
        """Why ``link`` would be refused under this policy, said before any request is made
        (a harvest's candidate), or None. A name that does not resolve now is not refused
        here: its fetch fails on the lookup, or is judged then."""
        try:
            self.connectable(link_host(link))
        except BlockedAddress as e:
            return e.failure
        except OSError:
            return None
        return None


def ip_of_peer(sock: socket.socket) -> IP:
    """The address an open connection reaches (a kept-alive one is judged again per task)."""
    return ipaddress.ip_address(sock.getpeername()[0])
