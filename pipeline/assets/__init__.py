"""The localize stage (issue 5): find each image's real source, bring it home small and safe.

``sources`` picks the URL an ``<img>`` really shows, ``sniff`` names a type from magic bytes,
``images`` makes it small and readable everywhere, and ``store`` files it by content;
``pipeline.run.localize`` runs them for one article.
"""
