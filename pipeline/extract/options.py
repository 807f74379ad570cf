"""Every threshold and weight of the extraction engine, in one frozen object passed down.

trafilatura's ``Extractor`` options are the model: a caller (a test, the benchmark, a cascade
pass) changes one field with ``dataclasses.replace`` and the engine reads nothing global. The
cascade is written here too, as the list of option sets tried in order: Readability.js's
retries (unlikely candidates kept, then class weights off, then conditional cleaning off),
each pass a relaxed copy of the strict one.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from pipeline.extract.meta.title import TitleOptions
from pipeline.records.article import Method
from pipeline.text.language import LanguageOptions


@dataclass(frozen=True)
class WrapOptions:
    """When lines are hard-wrapped prose (``rewrap.paragraphs``)."""

    min_lines: int = 6  # lines that another line follows: fewer are too few to show a wrap
    # The wrap is at least this many display columns (a hanzi is two): a classical poem's lines
    # are 10–16, a list's 20–40, a wrapped article's 60–80.
    min_columns: int = 40
    # of the lines another follows, this share at least go on with a small letter (when cased)
    lowercase_share: float = 0.5
    full_share: float = 0.8  # this share of the lines another line follows are full
    # at most this share of the full lines end a sentence (wrapped Chinese: about one in ten)
    sentence_end_share: float = 0.5


@dataclass(frozen=True)
class ExtractOptions:
    # --- the cascade's switches (what a relaxed pass turns off) --------------------------------
    strip_unlikely: bool = True  # drop chrome (nav, sidebars, comments) before scoring
    weigh_classes: bool = True  # class/id words add or take points
    clean_conditionally: bool = True  # cut link lists and thin blocks inside the selection
    # A pass whose text is shorter than this is not trusted to be the whole article: the next,
    # more relaxed pass is tried (the first short text still wins if no pass reaches it).
    article_chars: int = 250
    # A short text of this many sentences is an article, not a stray label: a later pass may
    # lengthen it but not replace it with a block elsewhere on the page (a sidebar's "about
    # me", a profile) that merely reaches ``article_chars``.
    short_article_sentences: int = 3
    # The same for a short text inside the page's own article markup (``<article>``, hAtom's
    # entry-content, articleBody): a photo post's two-sentence caption is its article; one
    # sentence there may be a byline.
    short_marked_sentences: int = 2
    # When no pass finds prose, a page with fewer characters than this that are mostly not
    # links is kept whole (a note, a one-line announcement).
    short_page_chars: int = 500
    # --- noise --------------------------------------------------------------------------------
    noscript_max_chars: int = 2000  # a <noscript> longer than this holds the page: kept
    # An inline element sits in running text when its block's own line holds this much more
    # text: chrome there (a hover card, a tooltip) keeps the words it hangs on.
    inline_context_chars: int = 20
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
    # A sibling of the best block holding this many headings at least, fewer characters than
    # ``teaser_max_chars`` for each and ``teaser_min_punct`` marks or more for each (sentences),
    # with a link for every two headings, is a list of other stories' teasers: it does not join
    # the article (``density.expand``), nor, winning a later pass, replace a short article.
    story_list_headings: int = 3
    teaser_max_chars: int = 250
    teaser_min_punct: int = 2
    # A table cell that wins: the other cells of its table scoring this share of it join it
    # (``density.layout_cells``: an article a table layout cuts into parts).
    layout_cell_share: float = 0.1
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
    # A plugin player's fallback text this long is the clip's description (``players``); a
    # player's status line ("This video is playable across all supported devices.") is shorter.
    player_description_chars: int = 100
    # --- confidence --------------------------------------------------------------------------
    strong_score: float = 40.0  # a winner scoring this much is sure of itself
    rival_penalty: float = 0.6  # how much a close rival elsewhere lowers the confidence
    confident_chars: int = 300  # fewer characters than this lower the confidence in proportion
    # What each cascade pass caps the confidence at: a relaxed pass or the baseline is worth a
    # look ("needs review" is below 0.5 in the window).
    relaxed_confidence: float = 0.6
    baseline_confidence: float = 0.3
    # --- embedded bodies (``embedded``: JSON-LD articleBody, Next.js __NEXT_DATA__) -----------
    # What of a page's JSON is read at most: real props are kilobytes, rarely a megabyte or two;
    # past this a page pays no more parse time nor memory.
    embedded_json_max_chars: int = 4_000_000
    embedded_json_max_nodes: int = 200_000  # values walked at most, however the JSON nests
    # A shorter embedded text is a teaser or a description, not a body worth trusting over the
    # markup's article (the same length a cascade pass must reach to be trusted whole). Where
    # the markup holds none, a shorter JSON-LD articleBody that reads as prose is the article:
    # a news brief (issue 27).
    embedded_min_chars: int = 250
    # The markup's article gives way to the embedded body only when it is short and holds
    # less than this share of the body's text: a shell's placeholder, a paywall's first
    # paragraphs. A longer cut of the markup keeps its headings, links and pictures, which a
    # plain-text body has lost.
    embedded_dom_share: float = 0.5
    embedded_dom_max_chars: int = 1000
    # A __NEXT_DATA__ string is the body only when the next longest prose string is shorter
    # than this share of it (a list page's props hold several bodies of a like length).
    next_data_runner_up: float = 0.5
    # Prose: this share of letters (or digits) at least, this share of code's characters
    # ({}<>=;\|$) at most, and a sentence end for every this many characters.
    prose_letter_share: float = 0.7
    prose_code_share: float = 0.01
    prose_sentence_chars: int = 400
    # --- script-built shells (``scripted``: judged only when no article came out) -------------
    # A page is a shell when it shows fewer characters than this outside links (a server-drawn
    # menu is links) and one of the signals below holds.
    shell_max_text_chars: int = 500
    # scripts make this share of what the page holds (script bytes against visible text) …
    shell_script_share: float = 0.9
    # … and weigh this much at least; or a mount point (#root, #app, …) holds fewer characters
    # than ``shell_mount_max_chars`` beside an external script or that much inline script.
    shell_script_chars: int = 20_000
    shell_mount_max_chars: int = 40
    # a "Loading…" / "加载中" placeholder: all the page shows is this short
    shell_loading_max_chars: int = 100

    # --- titles (the headline vote's weights) -------------------------------------------------
    title: TitleOptions = field(default_factory=TitleOptions)
    # --- hard-wrapped lines joined into paragraphs (``rewrap``) -------------------------------
    hard_wrap: WrapOptions = field(default_factory=WrapOptions)
    # --- the article's language (``pipeline.text.language``) -----------------------------------
    language: LanguageOptions = field(default_factory=LanguageOptions)

    def cascade(self) -> Iterator[tuple[Method, ExtractOptions]]:
        """The passes in order, each named for what the person sees ("needs review" says why).
        A pass's options are made when the pass before it did not do: most pages need the
        strict pass alone, and a copy of every field costs a little on every page otherwise."""
        yield Method.STRICT, self
        yield Method.UNLIKELY_KEPT, replace(self, strip_unlikely=False)
        yield Method.CLASS_WEIGHTS_OFF, replace(self, strip_unlikely=False, weigh_classes=False)
        yield Method.CONDITIONAL_OFF, replace(
            self, strip_unlikely=False, weigh_classes=False, clean_conditionally=False)


DEFAULT = ExtractOptions()
