"""The demo use case: the bundled sample site, served on 127.0.0.1, to archive with no network.
``python main.py demo`` runs the workflow on it through the workspace; the window's "Try the
demo site" serves it and pastes its links (``serve_demo_site``). The faces reach the site's
server only through here."""

from __future__ import annotations

import errno
from collections.abc import Iterator
from contextlib import contextmanager

from pipeline.demo_site.server import DemoSite

# A fixed port keeps the demo's URLs the same from one run to the next, so a second demo in the
# same archive finds its tasks done instead of adding a new set.
DEMO_PORT = 47321
DEMO_CATEGORY = "01_Demo 示例"


def serve_demo_site() -> DemoSite:
    """The sample site on a free port, served until its ``close()``: its links to paste are
    ``paste_text()``, filed under DEMO_CATEGORY."""
    return DemoSite().start()


@contextmanager
def demo_site() -> Iterator[DemoSite]:
    """The sample site on DEMO_PORT (another free port when that one is taken)."""
    try:
        site = DemoSite(port=DEMO_PORT).start()
    except OSError as e:
        if e.errno != errno.EADDRINUSE:
            raise
        site = DemoSite().start()
    try:
        yield site
    finally:
        site.close()
