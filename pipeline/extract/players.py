"""A plugin player's fallback: the clip's description a reader sees where the plugin is gone.

An ``<object>`` (a Flash video player, the way news and TV sites embedded clips until the
2010s) holds HTML for browsers that cannot run it: a poster, a status line, and the clip's
description. No browser runs Flash today, so that fallback is what every reader sees, and on
a post that presents a clip, its description is the post's opening: the page's words, above
the post's own paragraphs. The whitelist drops an ``<object>`` with its content
(``markup.NEVER_READ_TAGS``: another document), so the description would be lost.

``describe_players`` runs before noise removal and puts, in the place of each outermost
``<object>`` whose fallback holds a description, a paragraph with that description, marked
``LEAD`` (a player's status line, "This video is playable across all supported devices", is
no description: too short). ``with_lead`` gives the chosen content the description that
stands right before it, with nothing but blocks without words between them (a clip above
its post, each in its own wrapper). The clean writer copies attributes by name, so ``LEAD``
never reaches an article.
"""

from __future__ import annotations

from lxml import etree

from pipeline.extract.dom import BLOCK_TAGS
from pipeline.extract.options import DEFAULT, ExtractOptions
from pipeline.text.markup import NEVER_READ_TAGS

LEAD = "data-kuaibu-lead"


def describe_players(root: etree._Element, opts: ExtractOptions = DEFAULT) -> None:
    """Each outermost ``<object>`` whose fallback holds a description becomes a paragraph of
    it; the others are left for noise removal to drop."""
    for player in list(root.iter("object")):
        if any(a.tag == "object" for a in player.iterancestors()):
            continue
        lines = [words for el in player.iter(*BLOCK_TAGS) if not _INNER_BLOCK(el)
                 and len(words := " ".join(_shown_text(el).split()))
                 >= opts.player_description_chars]
        parent = player.getparent()
        if not lines or parent is None:
            continue
        para = etree.Element("p", {LEAD: ""})
        para.text = " ".join(lines)
        para.tail = player.tail
        parent.replace(player, para)


def _shown_text(el: etree._Element) -> str:
    """The words a reader sees in ``el``: not a script's, a style's or a comment's."""
    parts = [el.text or ""]
    for child in el:
        if isinstance(child.tag, str) and child.tag not in NEVER_READ_TAGS:
            parts.append(_shown_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


_INNER_BLOCK = etree.XPath("boolean(.//*[" + " or ".join(
    f"self::{tag}" for tag in sorted(BLOCK_TAGS)) + "])")


def with_lead(content: list[etree._Element]) -> list[etree._Element]:
    """``content`` with the player's description that stands right before it, if one does:
    walking back from its first block, through the blocks before it and up through the
    wrappers it opens, the first words met are the description's."""
    el: etree._Element | None = content[0]
    while el is not None and el.tag not in ("body", "html"):
        for before in el.itersiblings(preceding=True):
            if (before.tail or "").strip():
                return content
            if not isinstance(before.tag, str):
                continue
            if before.get(LEAD) is not None:
                return [before, *content]
            leads = before.findall(f".//p[@{LEAD}]")
            words = "".join("".join(before.itertext()).split())
            if len(leads) == 1 and words == "".join((leads[0].text or "").split()):
                return [leads[0], *content]
            if words:
                return content
        up = el.getparent()
        if up is None or (up.text or "").strip():
            return content
        el = up
    return content
