"""Issue 27 §9: an article's language comes from its own text; a declared tag counts only when
it is a language tag and the text agrees with it."""

from __future__ import annotations

from pipeline.extract import extract
from pipeline.text.language import article_language, language_tag

ENGLISH = [
    "The harbour master closed the north pier on Tuesday after a storm loosened three of its "
    "oldest timber piles, and boats were sent to the southern moorings for the week.",
    "Fishermen said the pier had been patched so often that little of the original wood was "
    "left, and several of them asked the council to rebuild it in stone this time.",
    "Engineers will inspect the foundations once the tide is low enough, which the harbour "
    "office expects on Friday morning if the wind keeps dropping as forecast.",
]
CHINESE = [
    "周二凌晨的暴风雨把北码头最老的三根木桩冲松了，港务长当天上午宣布码头暂停使用，渔船改泊南边。",
    "渔民们说，这座码头修修补补了几十年，原来的木头已经所剩无几，他们希望这次能用石头重建。",
    "工程师计划等到潮水退得足够低时检查地基，港务处预计如果风势继续减弱，周五上午就能开始。",
]
# A Chinese sentence whose bytes went wrong on the way: two kana among the Han characters.
CORRUPT = "记者从港务处获悉，码头の维修方案将于下周公布ア，届时将征求渔民意见。"
JAPANESE = [
    "火曜日の未明、嵐で北側の桟橋の古い木の杭が三本緩んだため、港長は桟橋の使用を一時的に"
    "停止すると発表しました。漁船は南側の係留場所に移されています。",
    "漁師たちによると、この桟橋は何十年も修理を重ねてきたので、元の木材はほとんど残って"
    "いないそうです。今回は石で建て直してほしいという声が上がっています。",
    "技術者は潮が十分に引いたときに基礎を点検する予定で、風が弱まれば金曜日の朝に始められる"
    "見込みだと港の事務所は話しています。",
]


def page(paragraphs: list[str], *, html: str = "<html>", head: str = "") -> str:
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return (f'<!DOCTYPE html>{html}<head><meta charset="utf-8"><title>Harbour</title>{head}'
            f"</head><body><nav><a href='/'>Home</a> <a href='/news'>News</a></nav>"
            f"<article><h1>Harbour</h1>{body}</article><footer>© Harbour Post</footer>"
            "</body></html>")


def lang_of(html: str) -> str | None:
    return extract(html, "https://news.example/harbour").lang


def test_an_english_article_on_a_page_that_declares_nothing_is_english() -> None:
    assert lang_of(page(ENGLISH)) == "en"


def test_a_charset_in_content_language_is_no_language() -> None:
    """``Content-Language: utf-8`` (seen on Chinese portals) was the article's language."""
    head = '<meta http-equiv="Content-Language" content="utf-8">'
    assert lang_of(page(CHINESE, head=head)) == "zh"
    assert language_tag("utf-8") is None and language_tag("text/html") is None


def test_two_kana_in_a_chinese_article_do_not_make_it_japanese() -> None:
    assert lang_of(page([*CHINESE, CORRUPT])) == "zh"


def test_a_japanese_article_is_japanese_whatever_the_template_declares() -> None:
    assert lang_of(page(JAPANESE)) == "ja"
    assert lang_of(page(JAPANESE, html='<html lang="en">')) == "ja"


def test_a_declared_tag_is_kept_with_its_region_only_when_the_text_agrees() -> None:
    assert lang_of(page(CHINESE, html='<html lang="zh-TW">')) == "zh-TW"
    assert lang_of(page(CHINESE, html='<html lang="en-US">')) == "zh"  # the text wins
    assert lang_of(page(ENGLISH, html='<html lang="en_gb">')) == "en-GB"
    # the first declaration that agrees: a site-wide <html lang>, then the page's og:locale
    head = '<meta property="og:locale" content="zh_CN">'
    assert lang_of(page(CHINESE, html='<html lang="en">', head=head)) == "zh-CN"


def test_tags_are_read_as_bcp47_and_written_in_their_usual_case() -> None:
    assert language_tag("zh_hant_tw") == "zh-Hant-TW"
    assert language_tag("en-US, en") == "en-US"  # a Content-Language list: the first
    assert language_tag("es-419") == "es-419"
    assert language_tag("und") is None and language_tag("english") is None
    assert language_tag("bad lang") is None and language_tag("") is None


def test_a_text_too_short_to_be_sure_takes_a_declared_tag_of_its_script() -> None:
    assert article_language("東京都庁", ["ja"]) == "ja"  # kanji only, declared Japanese
    assert article_language("東京都庁", ["en"]) == "zh"  # another script: the text's
    assert article_language("", ["fr-CA"]) == "fr-CA"  # no letters at all: the declaration
    assert article_language("2024-05-01 12:00") is None
    assert article_language("Hello world") == "en"  # unsure: among widely written languages
    assert article_language("다리를 고치는 첫날") == "ko"
