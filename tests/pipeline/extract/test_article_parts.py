"""Parts of an article that its scoring undervalues (issue 27): each page is written here."""

from __future__ import annotations

from pipeline.extract import extract
from tests.pipeline.extract.pages import PROSE, article_page, prose_around

URL = "https://news.example.com/2019/02/river-rises.html"


def test_a_list_of_plain_points_inside_the_article_is_kept() -> None:
    points = ("<p>The engineer gave two reasons to close it:</p>"
              "<ul><li>the east pier is under water</li>"
              "<li>the railings moved by a few centimetres</li></ul>")
    body = prose_around(points)
    a = extract(article_page(body), URL)
    assert "the east pier is under water" in a.text
    assert "the railings moved by a few centimetres" in a.text


def test_a_list_of_script_buttons_inside_the_article_is_still_a_toolbar() -> None:
    tools = ('<ul><li>Contribute to this story:</li>'
             '<li><a href="javascript:void(0)">Send us a tip</a></li>'
             '<li><a href="javascript:void(0)">Send us a photo or video</a></li>'
             '<li><a href="#">Suggest a correction</a></li></ul>')
    body = "".join(f"<p>{p}</p>" for p in PROSE) + tools
    a = extract(article_page(body), URL)
    assert PROSE[-1] in a.text
    assert "Send us a tip" not in a.text


def test_a_list_of_points_with_a_few_links_and_no_full_stops_is_kept() -> None:
    points = ("<p>The city publishes its readings in several forms:</p>"
              '<ul><li><a href="/data/levels.csv">hourly levels</a> as a table for each gauge</li>'
              "<li>a daily summary for the two banks</li>"
              '<li><a href="/data/map">a flood map</a> drawn from the same readings</li></ul>')
    body = prose_around(points)
    a = extract(article_page(body), URL)
    assert "hourly levels as a table for each gauge" in a.text
    assert "a flood map drawn from the same readings" in a.text
