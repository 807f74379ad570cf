"""The address policy (issues 12, 25): each range and numeric spelling judged right, refusals
that name their rule, the address of the link that vouches for a task (the person's own, or the
page a found link was found on) as the only way into private ranges, the setting that widens
it, and a network seam (resolver, class table) so a "public" name can be tested on a
loopback-only box."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest

from pipeline.records.address_class import ALLOW_CHOICES, AddressClass
from pipeline.records.errors import FetchError
from pipeline.records.failures import Failure
from pipeline.web.addresses import (
    BLOCKED_KIND,
    IP,
    AddressPolicy,
    BlockedAddress,
    Network,
    addresses_of,
    classify,
    origin_host,
    parse_host_address,
    system_resolver,
)

C = AddressClass
PUBLIC_POLICY = AddressPolicy()
LOCAL_POLICY = AddressPolicy(local_origin=True)


def ip(text: str) -> IP:
    return ipaddress.ip_address(text)


@dataclass
class FakeDns:
    """A resolver that knows only ``table`` (the seam fetch's getaddrinfo default fills), and
    remembers what it was asked."""

    table: dict[str, Sequence[str]]
    asked: list[str] = field(default_factory=list)

    def __call__(self, host: str) -> list[IP]:
        self.asked.append(host)
        if host not in self.table:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return [ip(a) for a in self.table[host]]


# Every host in the issue, and each numeric spelling: (host as in a URL, address, class).
HOSTS = [
    ("169.254.169.254", "169.254.169.254", C.LINK_LOCAL),
    ("10.0.0.1", "10.0.0.1", C.PRIVATE),
    ("192.168.1.1", "192.168.1.1", C.PRIVATE),
    ("172.16.0.1", "172.16.0.1", C.PRIVATE),
    ("172.31.255.255", "172.31.255.255", C.PRIVATE),
    ("100.64.0.1", "100.64.0.1", C.PRIVATE),
    ("100.127.255.254", "100.127.255.254", C.PRIVATE),
    ("[fd00::1]", "fd00::1", C.PRIVATE),
    ("[fc00::1]", "fc00::1", C.PRIVATE),
    ("0.0.0.0", "0.0.0.0", C.UNSPECIFIED),
    ("0", "0.0.0.0", C.UNSPECIFIED),
    ("0.1.2.3", "0.1.2.3", C.UNSPECIFIED),
    ("[::]", "::", C.UNSPECIFIED),
    ("224.0.0.1", "224.0.0.1", C.MULTICAST),
    ("239.255.255.250", "239.255.255.250", C.MULTICAST),
    ("[ff02::1]", "ff02::1", C.MULTICAST),
    ("127.0.0.1", "127.0.0.1", C.LOOPBACK),
    ("127.8.9.10", "127.8.9.10", C.LOOPBACK),
    ("2130706433", "127.0.0.1", C.LOOPBACK),
    ("0x7f000001", "127.0.0.1", C.LOOPBACK),
    ("0x7f.1", "127.0.0.1", C.LOOPBACK),
    ("0X7F.0.0.1", "127.0.0.1", C.LOOPBACK),
    ("0177.0.0.1", "127.0.0.1", C.LOOPBACK),
    ("127.1", "127.0.0.1", C.LOOPBACK),
    ("127.0.1", "127.0.0.1", C.LOOPBACK),
    ("127.0.0.1.", "127.0.0.1", C.LOOPBACK),
    ("１２７。０。０。１", "127.0.0.1", C.LOOPBACK),  # full-width, as UTS 46 maps it
    ("[::1]", "::1", C.LOOPBACK),
    ("[::ffff:127.0.0.1]", "::ffff:127.0.0.1", C.LOOPBACK),
    ("[::ffff:7f00:1]", "::ffff:127.0.0.1", C.LOOPBACK),
    ("[::ffff:a9fe:a9fe]", "::ffff:169.254.169.254", C.LINK_LOCAL),
    ("[::ffff:10.0.0.1]", "::ffff:10.0.0.1", C.PRIVATE),
    ("[64:ff9b::a00:1]", "64:ff9b::10.0.0.1", C.PRIVATE),  # NAT64 of 10.0.0.1
    ("[2002:7f00:1::]", "2002:7f00:1::", C.LOOPBACK),  # 6to4 of 127.0.0.1
    ("[fe80::1]", "fe80::1", C.LINK_LOCAL),
    ("[fe80::1%eth0]", "fe80::1%eth0", C.LINK_LOCAL),
    ("[fe80::1%25eth0]", "fe80::1%eth0", C.LINK_LOCAL),  # RFC 6874's URL spelling
    ("[febf::1]", "febf::1", C.LINK_LOCAL),
    ("255.255.255.255", "255.255.255.255", C.RESERVED),
    ("240.0.0.1", "240.0.0.1", C.RESERVED),
    ("192.0.2.1", "192.0.2.1", C.RESERVED),
    ("[2001:db8::1]", "2001:db8::1", C.RESERVED),
    ("[::127.0.0.1]", "::127.0.0.1", C.RESERVED),  # deprecated "compatible": never judged by v4
    ("[fec0::1]", "fec0::1", C.RESERVED),  # deprecated site-local
    ("93.184.215.14", "93.184.215.14", C.PUBLIC),
    ("1572394766", "93.184.215.14", C.PUBLIC),
    ("100.128.0.1", "100.128.0.1", C.PUBLIC),  # just past 100.64/10
    ("172.32.0.1", "172.32.0.1", C.PUBLIC),  # just past 172.16/12
    ("198.18.0.1", "198.18.0.1", C.PUBLIC),  # benchmarking: proxies' fake-IP DNS uses it
    ("[2606:4700::1111]", "2606:4700::1111", C.PUBLIC),
    ("[::ffff:8.8.8.8]", "::ffff:8.8.8.8", C.PUBLIC),
    ("[64:ff9b::808:808]", "64:ff9b::8.8.8.8", C.PUBLIC),
]



def said(refusal: Failure | None) -> str | None:
    """A refusal as tasks.csv's ``error`` says it."""
    return None if refusal is None else refusal.text

@pytest.mark.parametrize("host, address, expected", HOSTS)
def test_each_spelling_is_read_and_classified(host: str, address: str,
                                              expected: AddressClass) -> None:
    parsed = parse_host_address(host)
    assert parsed == ip(address)
    assert classify(ip(address)) is expected


@pytest.mark.parametrize("host", [
    "example.com", "localhost", "wiki.corp", "1.2.3.4.5", "256.0.0.1", "4294967296",
    "1.2.3.09", "0x7f.example", "1..2", "", "[not:an:address]", "0x" + "f" * 40, "1e2",
    "١٢٧.0.0.1",  # Arabic-Indic digits are digits to int(), not to a URL
])
def test_names_and_invalid_numbers_are_not_addresses(host: str) -> None:
    assert parse_host_address(host) is None


def test_widest_single_and_short_numbers() -> None:
    assert parse_host_address("4294967295") == ip("255.255.255.255")
    assert parse_host_address("1.16777215") == ip("1.255.255.255")
    assert parse_host_address("1.16777216") is None  # the last number overflows its 3 bytes
    assert parse_host_address("0x") == ip("0.0.0.0")  # a browser reads a bare 0x as 0


@pytest.mark.parametrize("host, address, expected", HOSTS)
def test_a_public_page_may_fetch_only_public_addresses(host: str, address: str,
                                                       expected: AddressClass) -> None:
    reason = said(PUBLIC_POLICY.refusal(ip(address)))
    if expected is C.PUBLIC:
        assert reason is None
        return
    assert reason is not None and f"is {expected.value}:" in reason
    assert str(ip(address)) in reason
    if expected in (C.LOOPBACK, C.PRIVATE):
        assert "only when the link you added is itself on a private or loopback" in reason
    else:
        assert "never fetched" in reason


@pytest.mark.parametrize("address, expected", [
    ("127.0.0.1", C.LOOPBACK), ("::1", C.LOOPBACK), ("10.0.0.1", C.PRIVATE),
    ("192.168.1.1", C.PRIVATE), ("172.16.0.1", C.PRIVATE), ("100.64.0.1", C.PRIVATE),
    ("fd00::1", C.PRIVATE), ("::ffff:192.168.1.1", C.PRIVATE),
])
def test_a_link_on_a_private_address_may_fetch_private_and_loopback(
    address: str, expected: AddressClass
) -> None:
    assert classify(ip(address)) is expected
    assert PUBLIC_POLICY.refusal(ip(address)) is not None
    assert LOCAL_POLICY.refusal(ip(address)) is None


@pytest.mark.parametrize("address, expected", [
    ("169.254.169.254", C.LINK_LOCAL), ("fe80::1", C.LINK_LOCAL), ("0.0.0.0", C.UNSPECIFIED),
    ("::", C.UNSPECIFIED), ("224.0.0.1", C.MULTICAST), ("ff02::1", C.MULTICAST),
    ("240.0.0.1", C.RESERVED), ("::ffff:169.254.169.254", C.LINK_LOCAL),
])
def test_some_addresses_are_never_fetched_even_for_a_private_link(
    address: str, expected: AddressClass
) -> None:
    reason = said(LOCAL_POLICY.refusal(ip(address)))
    assert reason is not None
    assert f"is {expected.value}: never fetched" in reason


def test_a_private_link_may_fetch_public_images() -> None:
    assert LOCAL_POLICY.refusal(ip("93.184.215.14")) is None
    assert LOCAL_POLICY.refusal(ip("2606:4700::1111")) is None


def test_refusals_name_the_address_its_name_and_the_setting() -> None:
    reason = said(PUBLIC_POLICY.refusal(ip("10.0.0.1"), "wiki.corp"))
    assert reason == (
        "address 10.0.0.1 of wiki.corp is private: fetched only when the link you added is "
        "itself on a private or loopback address, never for a public page's links, redirects "
        "or images (unless allow_addresses includes private)"
    )
    assert said(PUBLIC_POLICY.refusal(ip("169.254.169.254"))) == (
        "address 169.254.169.254 is link-local: never fetched"
        " (unless allow_addresses includes link-local)"
    )
    # a numeric host is not repeated as a name; a carried IPv4 address is spelt out
    assert said(PUBLIC_POLICY.refusal(ip("::ffff:7f00:1"), "[::ffff:7f00:1]")) == (
        "address ::ffff:7f00:1 (IPv4 127.0.0.1) is loopback: fetched only when the link "
        "you added is itself on a private or loopback address, never for a public page's "
        "links, redirects or images (unless allow_addresses includes loopback)"
    )
    # what no setting can allow does not suggest one
    assert said(PUBLIC_POLICY.refusal(ip("0.0.0.0"), "0")) == (
        "address 0.0.0.0 is unspecified: never fetched")
    assert said(PUBLIC_POLICY.refusal(ip("ff02::1"))) == (
        "address ff02::1 is multicast: never fetched")


def test_check_raises_a_fetch_error_that_is_not_retried() -> None:
    with pytest.raises(BlockedAddress) as caught:
        PUBLIC_POLICY.check(ip("169.254.169.254"))
    error = caught.value
    assert isinstance(error, FetchError)
    assert error.kind is BLOCKED_KIND and not error.retryable
    assert error.address == ip("169.254.169.254") and error.address_class is C.LINK_LOCAL
    assert str(error) == error.reason and "link-local" in error.reason
    PUBLIC_POLICY.check(ip("93.184.215.14"))  # nothing raised


@pytest.mark.parametrize("word, address", [
    ("private", "10.0.0.1"), ("private", "fd00::1"), ("loopback", "127.0.0.1"),
    ("link-local", "169.254.169.254"), ("link-local", "fe80::1"), ("reserved", "192.0.2.1"),
])
def test_the_setting_widens_one_class_for_any_page(word: str, address: str) -> None:
    widened = AddressPolicy.from_setting([word])
    assert PUBLIC_POLICY.refusal(ip(address)) is not None
    assert widened.refusal(ip(address)) is None
    assert widened.for_task("http://93.184.215.14/").refusal(ip(address)) is None


def test_widening_one_class_leaves_the_others_refused() -> None:
    widened = AddressPolicy.from_setting(["private"])
    assert widened.refusal(ip("127.0.0.1")) is not None
    assert widened.refusal(ip("169.254.169.254")) is not None


def test_the_setting_cannot_allow_what_cannot_work() -> None:
    assert set(ALLOW_CHOICES) == {"loopback", "private", "link-local", "reserved"}
    for word in ("multicast", "unspecified", "public", "intranet"):
        with pytest.raises(ValueError, match="allow_addresses"):
            AddressPolicy.from_setting([word])
    with pytest.raises(ValueError, match="allow_addresses"):
        AddressPolicy(allow=frozenset({C.MULTICAST}))


def test_the_origin_is_local_only_when_every_address_of_the_link_is() -> None:
    dns = AddressPolicy(network=Network(FakeDns({
        "a.test": ["10.0.0.5"], "b.test": ["127.0.0.1", "::1"],
        "c.test": ["10.0.0.5", "93.184.215.14"], "d.test": ["169.254.1.1"], "e.test": []})))
    assert dns.for_task("http://a.test/").local_origin
    assert dns.for_task("http://b.test/").local_origin
    assert not dns.for_task("http://c.test/").local_origin
    assert not dns.for_task("http://d.test/").local_origin
    assert not dns.for_task("http://e.test/").local_origin
    assert not dns.for_task("http://nowhere.test/").local_origin
    widened = AddressPolicy.from_setting(["link-local"])
    assert widened.for_task("http://10.0.0.5/").allow == widened.allow


def test_a_found_link_is_judged_by_the_page_it_was_found_on() -> None:
    """Issue 25: the person's link vouches for itself; a link found on a page is the page's."""
    assert origin_host("http://10.1.2.3/a") == "10.1.2.3"
    assert origin_host("http://10.1.2.3/a", found_on="https://news.example/list") == (
        "news.example")
    assert origin_host("http://[::1/a") == ""  # will not parse: the strict side
    dns = AddressPolicy(network=Network(DNS))
    pasted = dns.for_task("http://10.1.2.3/a")
    found = dns.for_task("http://10.1.2.3/a", found_on="http://public.example/list")
    assert pasted.local_origin and not found.local_origin
    assert pasted.refusal(ip("10.1.2.3")) is None
    assert "is private" in (said(found.refusal(ip("10.1.2.3"))) or "")
    assert "is private" in (said(found.refusal_of("http://10.1.2.3/a")) or "")
    # a found link of an intranet page is that page's, as its images are
    assert dns.for_task("http://10.1.2.3/a", found_on="http://wiki.corp/").local_origin
    # a found_on a hand edit broke is no way in: judged as public
    assert not dns.for_task("http://10.1.2.3/a", found_on="http://[::1/x").local_origin


def test_the_class_table_makes_one_loopback_address_a_public_site() -> None:
    """The tests' hook: 127.0.0.1 stands for a public site while 127.0.0.2 stays loopback."""
    table = Network(classes=((ipaddress.ip_network("127.0.0.1/32"), C.PUBLIC),))
    base = AddressPolicy(network=table)
    page = base.for_task("http://127.0.0.1:8080/list")
    assert not page.local_origin
    assert page.refusal(ip("127.0.0.1")) is None
    assert page.refusal(ip("::ffff:127.0.0.1")) is None  # the IPv4 address it carries
    assert "is loopback" in (said(page.refusal_of("http://127.0.0.2:8080/")) or "")
    assert "is loopback" in (said(page.refusal_of("http://[::1]:8080/")) or "")
    assert base.for_task("http://127.0.0.2/").local_origin


# The resolver seam: names resolve to chosen addresses, so the public side is testable on a
# machine where every test server is on 127.0.0.1.
DNS = FakeDns({
    "public.example": ["93.184.215.14", "2606:4700::1111"],
    "evil.example": ["169.254.169.254"],
    "rebound.example": ["10.0.0.1"],
    "mixed.example": ["10.0.0.1", "93.184.215.14", "10.0.0.1"],
    "wiki.corp": ["10.0.0.5"],
    "localhost": ["127.0.0.1", "::1"],
    "cdn.example": ["203.0.114.7"],
})


ON_DNS = AddressPolicy(network=Network(DNS))


def test_a_public_link_redirected_to_a_private_name_is_refused() -> None:
    task = ON_DNS.for_task("https://public.example/a")
    assert not task.local_origin
    assert task.connectable("public.example") == [ip("93.184.215.14"), ip("2606:4700::1111")]
    with pytest.raises(BlockedAddress, match="address 10.0.0.1 of rebound.example is private"):
        task.connectable("rebound.example")
    with pytest.raises(BlockedAddress, match="of evil.example is link-local: never fetched"):
        task.connectable("evil.example")
    for numeric in ("2130706433", "0x7f.1", "[::ffff:7f00:1]", "192.168.1.1", "[fd00::1]"):
        with pytest.raises(BlockedAddress):
            task.connectable(numeric)


def test_a_private_link_fetches_itself_its_intranet_and_a_public_cdn() -> None:
    task = ON_DNS.for_task("http://wiki.corp/page")
    assert task.local_origin
    assert task.connectable("wiki.corp") == [ip("10.0.0.5")]
    assert task.connectable("localhost") == [ip("127.0.0.1"), ip("::1")]
    assert task.connectable("cdn.example") == [ip("203.0.114.7")]
    with pytest.raises(BlockedAddress, match="link-local: never fetched"):
        task.connectable("evil.example")


def test_a_pasted_link_on_link_local_is_refused_itself() -> None:
    task = ON_DNS.for_task("http://169.254.169.254/latest/")
    with pytest.raises(BlockedAddress, match="link-local: never fetched"):
        task.connectable("169.254.169.254")


def test_only_allowed_addresses_are_returned_to_connect_to() -> None:
    """A name with private and public addresses, from a public page: connect to the public
    one only, once; the private one is never tried."""
    assert ON_DNS.connectable("mixed.example") == [ip("93.184.215.14")]
    assert addresses_of("mixed.example", DNS) == [ip("10.0.0.1"), ip("93.184.215.14")]
    local = AddressPolicy(local_origin=True, network=Network(DNS))
    assert local.connectable("mixed.example") == [ip("10.0.0.1"), ip("93.184.215.14")]


def test_a_numeric_host_is_never_looked_up() -> None:
    resolver = FakeDns({})
    assert addresses_of("0x7f.1", resolver) == [ip("127.0.0.1")]
    assert addresses_of("[fd00::1]", resolver) == [ip("fd00::1")]
    assert resolver.asked == []


def test_an_unresolvable_name_fails_the_lookup_and_counts_as_public() -> None:
    with pytest.raises(OSError):
        AddressPolicy(local_origin=True, network=Network(DNS)).connectable("nowhere.example")
    with pytest.raises(socket.gaierror):
        addresses_of("empty.example", FakeDns({"empty.example": []}))
    assert not ON_DNS.for_task("http://nowhere.example/").local_origin
    assert ON_DNS.refusal_of("http://nowhere.example/") is None  # its fetch says why


def test_the_system_resolver_reads_numbers_and_localhost() -> None:
    """The default seam: getaddrinfo, which the hosts file answers for localhost."""
    assert system_resolver("127.0.0.1") == [ip("127.0.0.1")]
    assert set(system_resolver("localhost")) <= {ip("127.0.0.1"), ip("::1")}
    task = PUBLIC_POLICY.for_task("http://localhost/")
    assert task.local_origin
    assert PUBLIC_POLICY.for_task("http://127.0.0.1/").connectable("localhost") != []
    with pytest.raises(BlockedAddress, match="loopback"):
        PUBLIC_POLICY.connectable("localhost")
