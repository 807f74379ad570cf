"""Kuaibu's window (PySide6): a thin face over ``pipeline``, which never imports Qt.

PySide6 6.12 treats None, True and False as immortal, as they are from Python 3.12 on: it
hands them out and drops references it never took (``Signal.emit`` returning True, a Python
``data()`` or ``QRunnable.run`` returning None). On Python 3.11 a few thousand such calls free
None and the interpreter aborts ("none_dealloc"). Giving the three the huge reference count
that 3.12 gives immortal objects makes 3.11 behave the same; it runs once, before any Qt call.
"""

import ctypes
import sys

if sys.version_info < (3, 12):
    for _singleton in (None, True, False):
        # ob_refcnt is the first field of every object in a release build of CPython
        ctypes.c_ssize_t.from_address(id(_singleton)).value += 1 << 60
