"""Bytes to text and the policies about text: decoding (``decode``, the WHATWG labels),
the scripts written without spaces (``cjk``), the markup policy (``markup``), word-level
differences, fingerprints of an article's text (``dedup``) and the templates.
"""
