"""Pickle for the caches an archive keeps beside its truth (the tasks.csv snapshot, the stage
folders' listing, the record URLs): made by this process, read back by an unpickler that makes
nothing but builtin containers and scalars and ``Status`` — whatever a cache file holds, no
other class and no code. The collector is paused while the records are made.
"""

from __future__ import annotations

import gc
import io
import pickle
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, BinaryIO

from pipeline.records.task import Status


class _PlainOnly(pickle.Unpickler):
    """Builtin containers and scalars, and a status word: any other class named in the data
    is refused. (A read-only record's person's cells are pickled as ``dict`` of a copy.)"""

    def find_class(self, module: str, name: str) -> Any:
        allowed = _ALLOWED.get((module, name))
        if allowed is None:
            raise pickle.UnpicklingError(f"{module}.{name} is not allowed in a snapshot")
        return allowed


_ALLOWED: dict[tuple[str, str], object] = {("builtins", "dict"): dict,
                                           (Status.__module__, Status.__qualname__): Status}


def load_plain(data: bytes | BinaryIO) -> Any:
    """What ``dump_plain`` wrote (bytes, or a file at its start): lists, tuples, dicts,
    strings, numbers and ``Status``, nothing else (another class named in the data raises
    ``pickle.UnpicklingError``; data cut short, ``EOFError`` or ``UnpicklingError``)."""
    with collector_paused():
        return _PlainOnly(io.BytesIO(data) if isinstance(data, bytes) else data).load()


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while a list's records are made (process-wide; on
    again after, unless something else had it off): they hold no cycles, and its passes over
    a growing heap took a third of the time."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def dump_plain(value: object) -> bytes:
    return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


