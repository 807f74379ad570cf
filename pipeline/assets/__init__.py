"""The localize stage (issue 5): find each image's real source, bring it home small and safe.

``sources`` picks the URL an ``<img>`` really shows, ``sniff`` names a type from magic bytes,
``images`` makes it small and readable everywhere, ``store`` files it by content, and ``stage``
runs them for one article.
"""
