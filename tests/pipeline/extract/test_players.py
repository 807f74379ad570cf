"""A plugin player's fallback description above a post (issue 27): each page is written
here."""

from __future__ import annotations

from pipeline.extract import extract
from tests.pipeline.extract.pages import PROSE

URL = "https://tv.example.com/2013/04/28/river-rises/"
DESCRIPTION = ("The river rose overnight and closed the old bridge: our panel asks the city "
               "engineer what the flood means for the east bank and when it will reopen.")


def clip_page(fallback: str) -> str:
    """A show's post: the headline, the clip in its own wrapper, then the post's paragraphs."""
    paragraphs = "".join(f"<p>{p}</p>" for p in PROSE)
    return f"""<!DOCTYPE html><html><head><title>River rises - The Show</title></head><body>
<div id="content" class="hfeed">
  <h1 class="entry-title">River rises</h1>
  <div class="byline">By Jane Roe, April 28, 2013</div>
  <div class="video-wrap"><object width="620" height="362" data="/player.swf">
    <param name="movie" value="/player.swf"/>
    <div class="player">{fallback}</div>
  </object></div>
  <div class="post hentry"><div class="entry-content">{paragraphs}</div></div>
</div></body></html>"""


def test_the_clip_s_description_opens_the_post_it_stands_above() -> None:
    fallback = ('<p class="status-message">This video is playable across all supported '
                f'devices.</p><p class="embedded-caption">{DESCRIPTION}</p>')
    a = extract(clip_page(fallback), URL)
    assert a.text.startswith(DESCRIPTION)
    assert PROSE[-1] in a.text
    assert "playable across" not in a.text


def test_a_player_without_a_description_adds_nothing() -> None:
    a = extract(clip_page("<p>Get the Flash player to watch this video.</p>"), URL)
    assert a.text.startswith(PROSE[0])
    assert "Flash" not in a.text


def test_a_player_s_script_is_no_description() -> None:
    code = "var player = loadPlayer('clip-4471', {autoplay: false});" * 3
    script = f"<div><script>{code}</script></div>"
    a = extract(clip_page(script), URL)
    assert a.text.startswith(PROSE[0])
    assert "loadPlayer" not in a.text
