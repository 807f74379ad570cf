"""The bundled demo site: original pages in the layouts real sites use, served on 127.0.0.1.

``python main.py demo`` and the tests both run it through ``pipeline.demo_site.server.DemoSite``
so that nothing ever needs the public network. The pages live in ``site/``; ``catalog.py`` says
what each one is. The two ``site/portal/**/*.shtml`` pages are GBK bytes on purpose (the old
portal case): edit them as GBK (e.g. ``iconv -f gbk -t utf-8`` and back), never re-save as UTF-8.
Images come from ``make_images.py``.
"""
