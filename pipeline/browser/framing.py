"""Native messaging's framing: each message a 32-bit length in the machine's byte order,
then that many bytes of UTF-8 JSON (the protocol Chromium and Firefox share).

A message over ``MAX_MESSAGE_BYTES`` is refused before its body is read: the host never
holds more than that of what a browser sends.
"""

from __future__ import annotations

import json
import struct
from typing import BinaryIO

# what the host takes in one message: a rendered page with its selection fits many times
MAX_MESSAGE_BYTES = 20 * 1024 * 1024
# what a browser takes from a host (Chromium's limit is 1 MB)
MAX_ANSWER_BYTES = 1024 * 1024
_LENGTH = struct.Struct("=I")


class MessageRefused(Exception):
    """A message the host will not act on; the text is the reason the extension shows."""


def read_message(stream: BinaryIO, limit: int = MAX_MESSAGE_BYTES) -> object:
    """The next message's JSON value; MessageRefused for a short, over-size or malformed
    one."""
    head = stream.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        raise MessageRefused("no message: the input ended before a length")
    (length,) = _LENGTH.unpack(head)
    if length > limit:
        raise MessageRefused(f"the message is {length:,} bytes; at most {limit:,} are taken")
    body = stream.read(length)
    if len(body) < length:
        raise MessageRefused(f"the message ended after {len(body):,} of its {length:,} bytes")
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise MessageRefused(f"the message is not JSON ({str(e)[:200]})") from None


def write_message(stream: BinaryIO, value: object) -> None:
    """``value`` as one framed message (ASCII JSON, so no encoding question arises)."""
    body = json.dumps(value, ensure_ascii=True).encode("ascii")
    if len(body) > MAX_ANSWER_BYTES:
        raise ValueError(f"an answer of {len(body):,} bytes is more than a browser takes")
    stream.write(_LENGTH.pack(len(body)) + body)
    stream.flush()
