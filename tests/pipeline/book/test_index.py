import re

from lxml import html

from tests.pipeline.book.conftest import Built


def test_browser_index_links_clean_pages_and_local_images(hostile_book: Built) -> None:
    archive = hostile_book.archive
    index = hostile_book.result.index
    assert index == archive.output_dir / "index.html"
    page = html.fromstring(index.read_bytes())
    rows = page.xpath("//tbody/tr")
    assert len(rows) == 300
    assert [h.text for h in page.xpath("//h2")] == ["大类", "Nine", "Later", "未分类"]
    assert [h.text for h in page.xpath("//h3")] == ["子类A", "子类B", "x"]
    # every link and image is relative and resolves inside the archive: readable offline
    for href in page.xpath("//a/@href | //img/@src"):
        if href.startswith("https://"):
            continue  # the "original" links, for when the reader is online
        target = (index.parent / href).resolve()
        assert target.is_relative_to(archive.root), href
        if "01_clean" in href:
            assert re.fullmatch(r"\.\./01_clean/\d+\.html", href)
        else:
            assert target.exists(), href
    images = page.xpath("//img/@src")
    assert images and all(src.startswith("../02_assets/") for src in images)
    assert not page.xpath("//script") and "<script>alert" not in index.read_text("utf-8")
    assert page.xpath("//a[@href='archive.epub']")


def test_index_row_has_domain_dates_and_count(hostile_book: Built) -> None:
    page = html.fromstring(hostile_book.result.index.read_bytes())
    [row] = page.xpath("//tr[td/a[@href='../01_clean/1.html']]")
    cells = [td.text_content().strip() for td in row.xpath("td")]
    assert cells[1:4] == ["site0.example", "2023-01-01", "2024-05-01"]
    count, unit = cells[4].split()  # a Chinese book counts this Latin text in words
    assert int(count.replace(",", "")) > 0 and unit == "词"
    [images] = page.xpath("//tr[td/a[@href='../01_clean/6.html']]/td[6]")
    assert images.text_content().strip() == "2/4"  # local + corrupt file on disk; 4 in the map
