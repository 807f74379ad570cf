"""The classes of network address the address policy tells apart (``pipeline.web.addresses``).

A record of its own because the ``allow_addresses`` setting names them: ``Settings`` takes its
choices from here without importing the policy that judges by them.
"""

from __future__ import annotations

from enum import StrEnum


class AddressClass(StrEnum):
    """What an address is, for the policy; the values are the words ``allow_addresses`` takes."""

    PUBLIC = "public"
    PRIVATE = "private"  # RFC 1918, RFC 6598 shared (CGNAT) space, RFC 4193 unique local
    LOOPBACK = "loopback"
    LINK_LOCAL = "link-local"
    UNSPECIFIED = "unspecified"
    MULTICAST = "multicast"
    RESERVED = "reserved"  # documentation, future use, broadcast, deprecated or unassigned


# Fetched only for a link that is itself on one of these (or when the setting names them).
LOCAL = frozenset({AddressClass.LOOPBACK, AddressClass.PRIVATE})
# What the setting may name. Unspecified and multicast are not among them: a TCP connection to
# a multicast address cannot work, and one to 0.0.0.0 / :: reaches this machine (Linux), which
# "loopback" already allows for what it is.
WIDENABLE = (AddressClass.LOOPBACK, AddressClass.PRIVATE, AddressClass.LINK_LOCAL,
             AddressClass.RESERVED)
ALLOW_CHOICES = tuple(c.value for c in WIDENABLE)  # the setting's Spec(choices=...)
