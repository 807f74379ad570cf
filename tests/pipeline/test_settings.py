import pytest

from pipeline.settings import Settings


def test_defaults_are_the_seeds() -> None:
    s = Settings()
    assert (s.connect_timeout, s.read_timeout, s.max_page_bytes) == (8.0, 20.0, 5 * 1024 * 1024)
    assert (s.retries, s.retry_waits, s.per_host_connections, s.global_connections) == (
        2, (2.0, 6.0), 2, 8)
    assert (s.host_delay_ms, s.image_max_edge, s.jpeg_quality) == (300, 1600, 82)


def test_text_overrides_take_the_default_type() -> None:
    s = Settings().with_text_overrides(["read_timeout=30", "retry-waits=1, 3", "retries=0",
                                        "cookies_file=/tmp/cookies.txt", "sort_by=title"])
    assert (s.read_timeout, s.retry_waits, s.retries) == (30.0, (1.0, 3.0), 0)
    assert (s.cookies_file, s.sort_by) == ("/tmp/cookies.txt", "title")


@pytest.mark.parametrize("pair, message", [
    ("colour=red", "NAME one of: connect_timeout"),
    ("retries", "NAME=VALUE"),
    ("retries=two", "'two' is not a whole number"),
    ("global_connections=0", "global_connections must be above 0"),
    ("jpeg_quality=101", "jpeg_quality must be 1–100"),
    ("sort_by=size", "sort_by must be published or title"),
])
def test_bad_values_are_named(pair: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Settings().with_text_overrides([pair])
