"""What of a page's markup may reach a reader: the one policy both HTML whitelists follow.

Two writers read it: ``extract.clean`` turns the chosen part of a page into an article's
``content_html``, and ``book.xhtml`` turns ``content_html`` (which a person may have edited in
01_clean) into chapter XHTML. Both drop ``NEVER_READ_TAGS`` with their content, apply
``RENAME``, and keep ``ARTICLE_TAGS``. The security rule rests on this: scripts, frames, form
controls and ``on*`` attributes never reach an EPUB (the writers copy attributes by name, never
``on*``), and a ``<form>`` is written as the ``<div>`` it wraps (its action and method go).

Where the two differ, on purpose:

- the book also keeps ``BOOK_ONLY_TAGS``: the clean stage reduces a page to its structure
  (on a page, spans and divs are layout), while the book copies whatever valid, safe HTML a
  person wrote in 01_clean, and writes divs of its own;
- the book gives a renamed ``<center>`` the class ``center`` that its style sheet knows; the
  clean stage writes no classes (its divs are unwrapped, and the centring with them);
- on a whole page (the extractor's noise removal, the raw-page preview) a ``<form>``'s tags
  go and a ``<title>`` outside the head stays, see ``drop_never_read``; in an article a form
  is a div (its text kept, as on the page) and a title is dropped with its content;
- ids (issue 15): the clean stage keeps every id, moving one off a wrapper it unwraps, since
  any may be the target of another article's link; the book keeps only those some link of the
  book points at, written per chapter (``book.anchors.anchor_id``).

Both keep the same links (``LINK_SCHEMES``). The tag families named here (headings, table
parts, and the chrome around an article: ``LAYOUT_TAGS``, ``NAVIGATION_TAGS``) are also what
the extractor and harvest read a page by, so each is spelled once.
"""

from __future__ import annotations

from lxml import etree

# Elements whose content never reaches a reader: dropped with everything inside them.
NEVER_READ_TAGS = frozenset((
    # code, style and markup meant for scripts
    "script", "style", "noscript", "template", "slot",
    # other documents and plugins
    "iframe", "frame", "frameset", "object", "applet", "param", "portal",
    # form controls (a button's or an option's words are chrome, not prose); the <form> itself
    # is in RENAME: some CMSs wrap a whole article in one (issue 25)
    "input", "button", "select", "textarea", "option", "optgroup", "datalist",
    "progress", "meter",
    # media a page draws or plays: a book can do neither, and their fallback text is
    # "your browser does not support…"
    "audio", "video", "canvas", "svg", "map", "area",
    # hidden until a script opens it: cookie banners, sign-up prompts
    "dialog",
    # the document's head, and table column specs (no text; rebuilt tables carry none)
    "head", "title", "meta", "link", "base", "colgroup", "col",
))
# Not in it, though they look as if they belong: <output> shows its content (IGN wraps every
# picture in one); <form> is a wrapper (RENAME); <embed>, <source> and <track> are void, but
# libxml2 does not know it and nests what follows them inside them, so dropping one with its
# content lost the rest of its paragraph (issue 25; unwrapped, they leave nothing of their
# own); <menu> is a list, and whether it is chrome is the extractor's call, not the
# whitelist's.

# What a tag is written as, in both whitelists. A target neither keeps is unwrapped there.
RENAME = {
    # phrasing that looks like a tag of the article's vocabulary
    "b": "strong", "i": "em", "cite": "em", "dfn": "em", "var": "em",
    "kbd": "code", "samp": "code", "del": "s", "ins": "u",
    # obsolete presentational tags (HTML5 "Obsolete features")
    "tt": "code", "strike": "s", "acronym": "abbr", "listing": "pre", "xmp": "pre",
    "plaintext": "pre", "big": "span", "font": "span", "nobr": "span", "blink": "span",
    "marquee": "span", "center": "div", "dir": "div",
    # the title is the one h1: an article field of its own, which the chapter template writes
    "h1": "h2",
    # inline wrappers with no look of their own
    "time": "span", "data": "span", "bdo": "span", "label": "span",
    # sectioning and grouping: a block boundary, nothing more
    "section": "div", "article": "div", "main": "div", "header": "div", "footer": "div",
    "aside": "div", "nav": "div", "address": "div", "hgroup": "div", "details": "div",
    "summary": "div", "fieldset": "div", "legend": "div", "menu": "div", "form": "div",
}

# Tag families the writers and the extractor name: one spelling of each.
HEADING_TAGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))  # on a page
ARTICLE_HEADING_TAGS = HEADING_TAGS - {"h1"}  # in an article: its h1 is the title (RENAME)
TABLE_ROW_GROUP_TAGS = frozenset(("thead", "tbody", "tfoot"))
TABLE_CELL_TAGS = frozenset(("td", "th"))

# The article's vocabulary: every element the clean stage writes, so every one the book keeps.
ARTICLE_BLOCK_TAGS = ARTICLE_HEADING_TAGS | TABLE_ROW_GROUP_TAGS | TABLE_CELL_TAGS | frozenset((
    "p", "pre", "blockquote", "ul", "ol", "dl", "li", "dt", "dd",
    "table", "tr", "caption", "figure", "figcaption", "hr",
))
ARTICLE_INLINE_TAGS = frozenset(("a", "em", "strong", "sub", "sup", "code", "s", "u", "img", "br"))
ARTICLE_TAGS = ARTICLE_BLOCK_TAGS | ARTICLE_INLINE_TAGS
# What the book keeps besides: valid, safe HTML a person may write in 01_clean.
BOOK_ONLY_TAGS = frozenset(("div", "span", "small", "mark", "abbr", "q", "wbr", "bdi"))

# A page's chrome by tag: the HTML5 landmarks around an article. Layout may wrap the article
# on some themes (Blogger puts posts in a "widget", some sites the whole page in a <header>),
# so the extractor drops it only in its strict pass; navigation is never the article.
LAYOUT_TAGS = frozenset(("aside", "footer", "header"))
NAVIGATION_TAGS = frozenset(("nav", "menu"))

# The schemes a link keeps, in the article and in the book alike (a bare "#fragment" into the
# article itself is kept too, by each writer's anchor rule). A reader follows http(s) in its
# browser and mailto in its mail program; anything else is a link no reader opens, so its
# text stays and the link goes. ``ftp:`` is among them: browsers dropped FTP in 2021 (Chrome
# 88, Firefox 90), EPUB reading systems never had it, and an article that kept what its book
# drops would show a person, in the preview, a link the book does not have.
LINK_SCHEMES = frozenset(("http", "https", "mailto"))


def keeps_link(url: str) -> bool:
    """Whether an absolute link's scheme is one of ``LINK_SCHEMES`` (case does not count)."""
    return url.split(":", 1)[0].lower() in LINK_SCHEMES if ":" in url else False


# On a whole page, ASP.NET and many portals wrap the whole page, article included, in one <form>:
# its tags go before the blocks are scored, its controls with the rest. And one tag is not
# dropped with its content: pages of the 2000s put a <title> in their headline
# (<h1><TITLE>…</TITLE></h1>), and removing it before the blocks are scored costs such a page
# its headline and byline (a CleanEval page).
_KEPT_ON_A_PAGE = frozenset(("title",))


def drop_never_read(root: etree._Element) -> None:
    """Remove what never reaches a reader from a whole page (the extractor's noise removal, the
    raw-page preview), ``_KEPT_ON_A_PAGE`` excepted: the head's title goes with the head."""
    etree.strip_tags(root, "form")
    etree.strip_elements(root, *(NEVER_READ_TAGS - _KEPT_ON_A_PAGE), with_tail=False)
