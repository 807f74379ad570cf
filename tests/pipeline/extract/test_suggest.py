"""Pick content: the selector suggested for a page finds exactly the element holding the text."""

from __future__ import annotations

from pipeline.extract.suggest import suggest_selector

PAGE = """<html><body><div id="nav">Home News</div>
<div class="wrap"><div class="wrap"><article class="post-body entry">
<h1>Title</h1><p>The first paragraph of the article, long enough to matter.</p>
<p>And its closing paragraph, which ends the piece.</p></article></div></div>
<div class="comments">Nice!</div></body></html>"""


def test_suggested_selector_is_unique_and_holds_the_text() -> None:
    text = ("The first paragraph of the article, long enough to matter.\n"
            "And its closing paragraph, which ends the piece.")
    assert suggest_selector(PAGE, text) == "article.post-body"
    assert suggest_selector(PAGE, "nothing on this page at all, not one word") is None
    assert suggest_selector(PAGE, "short") is None
