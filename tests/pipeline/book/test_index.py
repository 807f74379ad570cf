import re

from lxml import html

from tests.pipeline.book.conftest import Built
from tests.pipeline.book.index_reading import category_pages, index_rows


def test_browser_index_links_clean_pages_and_local_images(hostile_book: Built) -> None:
    archive = hostile_book.archive
    index = hostile_book.result.index
    assert index == archive.output_dir / "index.html"
    hub = html.fromstring(index.read_bytes())
    assert len(index_rows(index)) == 300
    assert hub.findtext(".//p[@class='summary']").startswith("300 ")
    assert [h.text_content() for h in hub.xpath("//h2")] == ["大类", "Nine", "Later", "未分类"]
    assert [li.xpath("a")[0].text for li in hub.xpath("//li")] == ["子类A", "子类B", "x"]
    assert hub.xpath("//a[@href='archive.epub']")
    # every link and image is relative and resolves inside the archive: readable offline
    for path in [index, *category_pages(index)]:
        page = html.fromstring(path.read_bytes())
        for href in page.xpath("//a/@href | //img/@src"):
            if href.startswith("https://"):
                continue  # the "original" links, for when the reader is online
            target = (path.parent / href).resolve()
            assert target.is_relative_to(archive.root), href
            if "01_clean" in href:
                assert re.fullmatch(r"\.\./\.\./01_clean/\d+\.html", href)
            else:
                assert target.exists(), href
        assert not page.xpath("//script") and "<script>alert" not in path.read_text("utf-8")
    images = [src for row in index_rows(index) for src in row.xpath(".//img/@src")]
    assert images and all(src.startswith("../../02_assets/") for src in images)


def test_index_row_has_domain_dates_and_count(hostile_book: Built) -> None:
    by_page = {row.xpath("td[1]/a[1]/@href")[0]: row for row in index_rows(
        hostile_book.result.index)}
    cells = [td.text_content().strip() for td in by_page["../../01_clean/1.html"].xpath("td")]
    assert cells[1:4] == ["site0.example", "2023-01-01", "2024-05-01"]
    count, unit = cells[4].split()  # a Chinese book counts this Latin text in words
    assert int(count.replace(",", "")) > 0 and unit == "词"
    images = by_page["../../01_clean/6.html"].xpath("td[6]")[0]
    assert images.text_content().strip() == "2/4"  # local + corrupt file on disk; 4 in the map
