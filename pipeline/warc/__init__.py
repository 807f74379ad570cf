"""WARC, the web-archiving field's format: the archive written out as WARC/1.1 or WACZ."""
