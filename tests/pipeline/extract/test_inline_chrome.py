"""A kept paragraph keeps every word of its running text (issue 27, item 4): a hover card or a
tooltip inside a sentence loses its card, never the words it hangs on; inline runs keep the
space or the line break the markup puts between them."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipeline.extract import density, extract
from pipeline.extract.dom import parse, text_of
from pipeline.extract.options import DEFAULT
from tests.pipeline.extract.pages import PROSE, article_page

URL = "https://news.example.com/2019/11/threat.html"
CARD = ('<span class="rollover-people"><a href="/people/ilhan-omar">Ilhan Omar</a>'
        '<span class="rollover-people-block"><span class="rollover-block">'
        '<img src="/files/omar-thumb.jpg" alt=""><a class="name" href="/people/ilhan-omar">'
        'Ilhan Omar</a><a href="/story/1">Omar sees support grow</a> '
        '<a href="/story/2">House votes on the bill</a> <a class="more" href="/people/ilhan-omar">'
        'MORE</a></span></span></span>')
SENTENCE = f"A caller threatened to kill Rep. {CARD} (D-Minn.), the complaint says."


def test_a_hover_card_in_a_sentence_keeps_its_name_and_loses_its_card() -> None:
    body = "".join(f"<p>{p}</p>" for p in PROSE[:2]) + f"<p>{SENTENCE}</p>"
    a = extract(article_page(body), URL)
    assert "A caller threatened to kill Rep. Ilhan Omar (D-Minn.), the complaint says." in a.text
    assert "House votes" not in a.text and "MORE" not in a.text
    assert a.images == []  # the card's photo is the card's


@pytest.mark.parametrize("strict", [True, False])
def test_every_pass_cuts_a_card_to_its_trigger(strict: bool) -> None:
    """The relaxed passes keep layout chrome (it may wrap the article), and still a card in a
    sentence is only its trigger: what it adds is never the sentence's."""
    body = parse(f"<div><p>{SENTENCE}</p></div>").find("body")
    assert body is not None
    density.remove_chrome(body, replace(DEFAULT, strip_unlikely=strict))
    assert text_of(body) == ("A caller threatened to kill Rep. Ilhan Omar (D-Minn.), "
                             "the complaint says.")


def test_a_tooltip_keeps_its_own_words() -> None:
    body = parse('<p>The fund holds <span class="tooltip">ETFs<span class="tooltip-text">'
                 'exchange-traded funds, baskets of shares</span></span> and some bonds.</p>'
                 ).find("body")
    assert body is not None
    density.remove_chrome(body)
    assert text_of(body) == "The fund holds ETFs and some bonds."


def test_chrome_standing_alone_in_its_block_still_goes() -> None:
    """A byline or a label is chrome whether or not it is a span: it is not in a sentence."""
    body = parse('<div><p><span class="popover-trigger">Share this</span></p>'
                 f'<p>{PROSE[0]}</p></div>').find("body")
    assert body is not None
    density.remove_chrome(body)
    assert "Share" not in text_of(body)


def test_a_credit_beside_a_picture_and_its_caption_still_goes() -> None:
    """Words of a caption in the same block are not a sentence around the credit: elements
    stand right beside it, not words."""
    body = parse('<div class="photo"><img src="/a.jpg"><span class="byline">STAFF PHOTO BY '
                 'JANE ROE</span><span class="caption">The mayor walks along the east bank on '
                 'Monday.</span></div>').find("body")
    assert body is not None
    density.remove_chrome(body)
    assert text_of(body) == "The mayor walks along the east bank on Monday."


def test_inline_runs_keep_the_space_between_them() -> None:
    body = ("".join(f"<p>{p}</p>" for p in PROSE[:3])
            + "<div><span>Updated 10:00</span>\n<span>Source: city engineer</span></div>"
            + "<div><span>Shops</span> <b>stayed</b>\n<em>open</em></div>")
    text = extract(article_page(body), URL).text
    assert "10:00 Source: city engineer" in text
    assert "Shops stayed open" in text


def test_an_empty_emphasis_between_words_is_their_space() -> None:
    """Editors leave an emphasis holding only a space between two words
    (`means<em> </em>predictable`): it has no text to keep, but its space parts the words."""
    body = ("".join(f"<p>{p}</p>" for p in PROSE[:3])
            + "<p>Fares stay<em> </em>predictable, said the mayor,<strong>\n</strong>and the"
            " east<a href='/bank'> </a>bank<i> </i>reopens.</p>")
    text = extract(article_page(body), URL).text
    assert "Fares stay predictable, said the mayor, and the east bank reopens." in text


@pytest.mark.parametrize("holder", ["li", "td", "h2"])
def test_a_block_inside_a_run_parts_its_words(holder: str) -> None:
    """A list item, a cell or a heading takes no paragraphs: a <div> inside it is a line of
    its own, not words glued to the ones beside it."""
    inner = f"<{holder}><span>Bridge</span><div>closed</div>until Friday</{holder}>"
    wrapped = {"li": f"<ul>{inner}</ul>", "td": f"<table><tr>{inner}</tr></table>"}
    body = "".join(f"<p>{p}</p>" for p in PROSE) + wrapped.get(holder, inner)
    lines = extract(article_page(body), URL).text.splitlines()
    assert {"Bridge", "closed", "until Friday"} <= {line.strip() for line in lines}
