"""Every threshold and weight of the extraction engine, in one frozen object passed down.

trafilatura's ``Extractor`` options are the model: a caller (a test, the benchmark, a cascade
pass) changes one field with ``dataclasses.replace`` and the engine reads nothing global. The
cascade is written here too, as the list of option sets tried in order: Readability.js's
retries (unlikely candidates kept, then class weights off, then conditional cleaning off),
each pass a relaxed copy of the strict one.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from pipeline.extract.meta import TitleOptions


@dataclass(frozen=True)
class ExtractOptions:
    # --- the cascade's switches (what a relaxed pass turns off) --------------------------------
    strip_unlikely: bool = True  # drop chrome (nav, sidebars, comments) before scoring
    weigh_classes: bool = True  # class/id words add or take points
    clean_conditionally: bool = True  # cut link lists and thin blocks inside the selection
    # A pass whose text is shorter than this is not trusted to be the whole article: the next,
    # more relaxed pass is tried (the first short text still wins if no pass reaches it).
    article_chars: int = 250
    # When no pass finds prose, a page with fewer characters than this that are mostly not
    # links is kept whole (a note, a one-line announcement).
    short_page_chars: int = 500
    # --- noise --------------------------------------------------------------------------------
    noscript_max_chars: int = 2000  # a <noscript> longer than this holds the page: kept
    # --- scoring -----------------------------------------------------------------------------
    para_min_chars: int = 20  # a text block shorter than this (with no punctuation) scores 0
    class_weight: int = 25  # points for a content-like (+) or chrome-like (−) class or id
    block_max_link_density: float = 0.5  # a block more linked than this gives no points
    ancestor_levels: int = 5  # how far up a block's points flow
    list_page_link_density: float = 0.5  # a winner more linked than this: a list, not prose
    # Readability's alternative candidate: among the top blocks, this many scoring within this
    # ratio of the best and sharing an ancestor make that ancestor the article.
    top_candidates: int = 5
    close_rivals: int = 3
    close_rival_ratio: float = 0.7
    holder_max_link_density: float = 0.25
    body_ratio: float = 3.0  # <body> wins when it scores this many times the best block
    # --- notes (``notes.mark_notes``) ---------------------------------------------------------
    note_mark_chars: int = 12  # a footnote mark is a numeral or a sign: "1", "[12]", "†"
    note_context_chars: int = 20  # and sits in a sentence: its block holds this much more text
    note_max_chars: int = 2000  # a note is short; a "skip to content" target is the article
    note_list_items: int = 2  # marked items a list needs to be a note list without back-links
    # --- cleaning ----------------------------------------------------------------------------
    # A block marked as a caption is one (kept in the HTML, left out of the text) up to this many
    # characters; longer, it is prose that happens to sit beside a picture.
    caption_max_chars: int = 300
    # Captions are text too when they hold this share of an article's text (a photo post).
    caption_share: float = 0.3
    # --- confidence --------------------------------------------------------------------------
    strong_score: float = 40.0  # a winner scoring this much is sure of itself
    rival_penalty: float = 0.6  # how much a close rival elsewhere lowers the confidence
    confident_chars: int = 300  # fewer characters than this lower the confidence in proportion
    # What each cascade pass caps the confidence at: a relaxed pass or the baseline is worth a
    # look ("needs review" is below 0.5 in the window).
    relaxed_confidence: float = 0.6
    baseline_confidence: float = 0.3

    # --- titles (the headline vote's weights) -------------------------------------------------
    title: TitleOptions = field(default_factory=TitleOptions)

    def cascade(self) -> list[tuple[str, ExtractOptions]]:
        """The passes in order, each named for what the person sees ("needs review" says why)."""
        return [
            ("strict", self),
            ("unlikely candidates kept", replace(self, strip_unlikely=False)),
            ("class weights off", replace(self, strip_unlikely=False, weigh_classes=False)),
            ("conditional cleaning off", replace(
                self, strip_unlikely=False, weigh_classes=False, clean_conditionally=False)),
        ]


DEFAULT = ExtractOptions()
