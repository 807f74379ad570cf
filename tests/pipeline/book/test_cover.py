import io
from pathlib import Path

import pytest
from PIL import Image

from pipeline.book.cover import COVER_SIZE, find_cjk_font, render_cover
from pipeline.records.errors import BookError


def test_missing_cjk_font_is_a_clear_error(tmp_path: Path) -> None:
    latin_only = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"  # fonts-dejavu-core
    with pytest.raises(BookError, match="no font with Chinese glyphs.*fonts-wqy-microhei"):
        find_cjk_font([str(tmp_path / "nothing.ttc"), latin_only], ask_fontconfig=False)


def test_cover_draws_cjk_title_and_details() -> None:
    font = find_cjk_font()
    data = render_cover("专题资料库：一个很长很长的标题，需要折行才能放得下 with English words",
                        ["2019-02-20 – 2021-05-01", "120 篇文章"], font)
    image = Image.open(io.BytesIO(data))
    assert image.format == "JPEG" and image.size == COVER_SIZE
    # the title area is no longer plain background: glyphs were drawn, not skipped
    title_band = image.crop((100, 320, 1100, 700)).convert("L")
    assert len(title_band.getcolors(256) or ()) > 20


def test_very_long_titles_shrink_and_stop() -> None:
    data = render_cover("字" * 400, [], find_cjk_font())
    assert Image.open(io.BytesIO(data)).size == COVER_SIZE
