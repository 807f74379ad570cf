"""``python main.py demo``: the whole workflow on the bundled sample site, with no network."""

from __future__ import annotations

import errno

from pipeline.archive import Archive
from pipeline.demo_site.server import DemoSite
from pipeline.intake import add_links
from pipeline.rules import load_rules
from pipeline.settings import Settings
from pipeline.tasks import TaskStore

# A fixed port keeps the demo's URLs the same from one run to the next, so a second demo in the
# same archive finds its tasks done instead of adding a new set.
DEMO_PORT = 47321


def start_site() -> DemoSite:
    try:
        return DemoSite(port=DEMO_PORT).start()
    except OSError as e:
        if e.errno != errno.EADDRINUSE:
            raise
        return DemoSite().start()


def run_demo(archive: Archive, settings: Settings) -> int:
    from pipeline.cli import build_archive, print_intake, run_archive

    site = start_site()
    try:
        print(f"Demo site serving at {site.base_url}/ (127.0.0.1 only)")
        store = TaskStore(archive.tasks_path)
        report = add_links(store, site.paste_text(), cat1="01_Demo 示例",
                           rules=load_rules(archive.rules_path))
        store.save()
        print_intake(report)
        run_archive(archive, settings)
    finally:
        site.close()
    build_archive(archive, settings)
    print(f"Archive:    {archive.root}")
    print(f"Task list:  {archive.tasks_path}")
    print(f"Clean HTML: {archive.clean_dir}")
    return 0
