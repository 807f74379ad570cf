"""Where tasks come from: links in pasted text, files and bookmarks (``links``), and a list
page's article links (``harvest``).
"""
