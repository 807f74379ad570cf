"""decode_html: the seed's order, and the U+FFFD check that catches lying declarations."""

from __future__ import annotations

import codecs
import time

import pytest

from pipeline.text import decode
from pipeline.text.decode import _cjk_despite_errors, _reads_as_western, decode_html
from pipeline.text.encoding_labels import CODECS, WHATWG_LABELS, codec_for_label

ZH = "新闻正文：经济学家认为，今年的增长将放缓。" * 20


def page(body: str, head: str = "", title: str = "标题") -> str:
    return f"<html><head>{head}<title>{title}</title></head><body><p>{body}</p></body></html>"


def test_utf8_header_on_gbk_body_falls_back_to_gb18030() -> None:
    raw = page(ZH).encode("gbk")
    got = decode_html(raw, "text/html; charset=utf-8")
    assert got.encoding == "gb18030"
    assert ZH in got.text
    assert "header charset utf-8" in got.reason and "gb18030 gave 0%" in got.reason


def test_meta_only_charset_is_used() -> None:
    raw = page(ZH, '<meta http-equiv="Content-Type" content="text/html; charset=gb2312">')
    got = decode_html(raw.encode("gbk"))
    assert got.encoding == "gb18030"  # GB2312 widened to its superset
    assert got.reason == "meta charset gb18030"
    assert ZH in got.text


def test_html5_meta_charset() -> None:
    raw = page("Grüße aus Köln", '<meta charset="windows-1252">', title="Köln").encode("cp1252")
    got = decode_html(raw)
    assert got.encoding == "cp1252"
    assert "Grüße aus Köln" in got.text


def test_gbk_without_any_declaration_is_detected() -> None:
    got = decode_html(page(ZH).encode("gbk"))
    assert got.encoding == "gb18030"
    assert ZH in got.text
    assert got.reason.startswith("detected")


def test_utf8_page_with_stale_gbk_meta_is_read_as_utf8() -> None:
    raw = page(ZH, '<meta charset="gbk">').encode("utf-8")
    got = decode_html(raw)
    assert got.encoding == "utf-8"
    assert ZH in got.text
    assert "but bytes are UTF-8" in got.reason


def test_rules_encoding_wins_over_everything() -> None:
    raw = page(ZH).encode("gbk")
    got = decode_html(raw, "text/html; charset=gbk", forced="gb2312")
    assert got.reason == "rules encoding gb18030"
    assert ZH in got.text


def test_mixed_encodings_decode_with_replacement_not_dropped() -> None:
    head = page(ZH).encode("utf-8")
    tail = "<p>旧数据段落</p>".encode("gbk")
    got = decode_html(head + tail, "text/html; charset=utf-8")
    assert got.encoding == "utf-8"
    assert ZH in got.text  # the UTF-8 part survives intact
    assert "\ufffd" in got.text  # the GBK part is replaced, not fatal


def test_bom_decides_when_no_header() -> None:
    raw = codecs.BOM_UTF16_LE + page("Hello 世界").encode("utf-16-le")
    got = decode_html(raw)
    assert got.encoding == "utf-16-le"
    assert "Hello 世界" in got.text
    assert not got.text.startswith("\ufeff")


def test_utf8_bom_is_stripped() -> None:
    got = decode_html(codecs.BOM_UTF8 + page("café").encode("utf-8"))
    assert got.encoding == "utf-8" and got.reason == "BOM utf-8"
    assert got.text.startswith("<html>")


def test_unknown_charset_label_is_ignored() -> None:
    got = decode_html(page("plain").encode(), "text/html; charset=x-no-such-thing")
    assert got.encoding == "utf-8"
    assert "plain" in got.text


def test_default_latin1_header_yields_to_the_page_meta() -> None:
    raw = page(ZH, '<meta http-equiv="Content-Type" content="text/html; charset=gbk">')
    got = decode_html(raw.encode("gbk"), "text/html; charset=ISO-8859-1")
    assert got.encoding == "gb18030"
    assert ZH in got.text
    assert "over the default header" in got.reason


def test_latin1_header_alone_is_believed() -> None:
    raw = page("Grüße aus Köln", title="Köln").encode("latin-1")
    got = decode_html(raw, "text/html; charset=iso-8859-1")
    assert got.encoding == "cp1252" and got.reason == "header charset cp1252"
    assert "Grüße aus Köln" in got.text


# --- WHATWG labels, the HTML prescan, detection before the detector, families in the fallback ---

HK = "佢哋話呢度嘅嘢好好食㗎，啲人都咗去嚟過。香港特別行政區政府新聞公報。"  # 嘅㗎啲咗嚟: HKSCS
KO = "똠방각하 햏 믜 오늘 서울의 날씨는 맑고 따뜻합니다. "  # 똠 햏 믜: cp949 only
JA = "①会社概要 ㈱東京 髙橋様～ お問い合わせ。東京都の天気は晴れです。"  # ① ㈱ 髙 ～: cp932 only
EN = "We had crème brûlée at the café; a naïve choice, but a good one."


def _fails(text: str, codec: str) -> bool:
    try:
        text.encode(codec)
    except UnicodeEncodeError:
        return True
    return False


def test_big5_label_reads_hong_kong_characters() -> None:
    assert all(_fails(ch, "big5") for ch in "嘅㗎啲咗嚟")  # beyond plain Big5
    raw = page(HK * 5, '<meta charset="big5">', title="新聞").encode("big5hkscs")
    got = decode_html(raw)
    assert got.encoding == "big5hkscs" and got.reason == "meta charset big5hkscs"
    assert HK in got.text


def test_euc_kr_label_reads_cp949_syllables() -> None:
    for syllable in "똠햏믜":
        with pytest.raises(UnicodeDecodeError):
            syllable.encode("cp949").decode("euc_kr")
    raw = page(KO * 5, title="뉴스").encode("cp949")
    got = decode_html(raw, "text/html; charset=EUC-KR")
    assert got.encoding == "cp949" and got.reason == "header charset cp949"
    assert KO in got.text


def test_shift_jis_label_reads_cp932_characters() -> None:
    assert all(_fails(ch, "shift_jis") for ch in "①㈱髙～")
    raw = page(JA * 5, '<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">',
               title="会社").encode("cp932")
    got = decode_html(raw)
    assert got.encoding == "cp932"
    assert JA in got.text


# Short GBK pages: charset-normalizer 3.5 alone answers cp1251, cp949 or big5 for these.
@pytest.mark.parametrize("text", ["游戏 搜索", "我们的产品质量很好", "首页 新闻", "搜索 下一页"])
def test_undeclared_short_gbk_page_is_gb18030(text: str) -> None:
    got = decode_html(page(text, title="网站").encode("gbk"))
    assert got.encoding == "gb18030", got.reason
    assert text in got.text


def test_undeclared_korean_page_stays_korean() -> None:
    """EUC-KR Hangul is also valid GB2312 level 1: the GB18030 check must not take it."""
    text = "오늘 서울의 날씨는 맑고 따뜻합니다. 대한민국 정부는 새로운 정책을 발표했다."
    got = decode_html(page(text * 3, title="뉴스").encode("euc_kr"))
    assert got.encoding == "cp949", got.reason
    assert text in got.text


def test_commented_out_meta_is_ignored() -> None:
    raw = page(ZH, '<!-- <meta charset="gbk"> --><meta charset="utf-8">').encode("utf-8")
    got = decode_html(raw)
    assert got.encoding == "utf-8" and got.reason == "meta charset utf-8"
    western = page("Grüße aus Köln", '<!-- old: <meta charset="big5"> -->'
                   '<meta charset="windows-1252">', title="Köln").encode("cp1252")
    got = decode_html(western)
    assert got.reason == "meta charset cp1252" and "Grüße aus Köln" in got.text


def test_meta_inside_another_tags_attribute_is_not_a_meta() -> None:
    head = '<div title="<meta charset=gbk>"></div><meta charset="windows-1252">'
    got = decode_html(page("Grüße aus Köln", head, title="Köln").encode("cp1252"))
    assert got.reason == "meta charset cp1252" and "Grüße aus Köln" in got.text


@pytest.mark.parametrize("first", [
    '<meta charset="x-no-such-thing">',
    '<meta charset="iso-2022-kr">',  # a "replacement" label: unusable
    '<meta charset="x-user-defined">',
    '<meta content="text/html; charset=big5">',  # content without http-equiv does not count
    '<meta charset="punycode">',
])
def test_unusable_first_meta_does_not_end_the_search(first: str) -> None:
    raw = page(ZH, first + '<meta charset="gbk">').encode("gbk")
    got = decode_html(raw)
    assert got.reason == "meta charset gb18030"
    assert ZH in got.text


def test_utf16_meta_is_read_as_utf8() -> None:
    got = decode_html(page(ZH, '<meta charset="utf-16">').encode("utf-8"))
    assert got.encoding == "utf-8"
    assert got.reason.startswith("meta charset utf-16 (read as UTF-8)")
    assert ZH in got.text


@pytest.mark.parametrize(("label", "text", "codec"), [
    ("x-gbk", ZH, "gb18030"),
    ("csgb2312", ZH, "gb18030"),
    ("cn-big5", HK, "big5hkscs"),
    ("x-sjis", JA, "cp932"),
    ("windows-949", KO, "cp949"),
])
def test_whatwg_aliases_in_meta(label: str, text: str, codec: str) -> None:
    raw = page(text * 3, f'<meta charset="{label}">', title="T").encode(codec)
    got = decode_html(raw)
    assert got.encoding == codec and got.reason == f"meta charset {codec}"
    assert text in got.text


@pytest.mark.parametrize(("label", "codec"), [
    ("x-gbk", "gb18030"), ("csgb2312", "gb18030"), ("chinese", "gb18030"),
    ("gb_2312-80", "gb18030"), ("iso-ir-58", "gb18030"), ("GB2312", "gb18030"),
    ("cn-big5", "big5hkscs"), ("x-x-big5", "big5hkscs"), ("csbig5", "big5hkscs"),
    ("big5-hkscs", "big5hkscs"),
    ("x-sjis", "cp932"), ("ms932", "cp932"), ("windows-31j", "cp932"), ("ms_kanji", "cp932"),
    ("shift-jis", "cp932"), ("csshiftjis", "cp932"),
    ("windows-949", "cp949"), ("ks_c_5601-1987", "cp949"), ("korean", "cp949"),
    ("cseuckr", "cp949"), ("ksc5601", "cp949"),
    ("cseucpkdfmtjapanese", "euc_jp"), ("x-euc-jp", "euc_jp"), ("csiso2022jp", "iso2022_jp"),
    ("iso-8859-1", "cp1252"), ("latin1", "cp1252"), ("us-ascii", "cp1252"),
    ("ansi_x3.4-1968", "cp1252"), ("cp819", "cp1252"), ("l1", "cp1252"),
    ("iso-8859-9", "cp1254"), ("latin5", "cp1254"), ("tis-620", "cp874"),
    ("iso-8859-11", "cp874"), ("dos-874", "cp874"), ("x-cp1250", "cp1250"),
    ("iso-8859-8-i", "iso8859-8"), ("logical", "iso8859-8"), ("visual", "iso8859-8"),
    ("l2", "iso8859-2"), ("l9", "iso8859-15"), ("sun_eu_greek", "iso8859-7"),
    ("asmo-708", "iso8859-6"), ("cyrillic", "iso8859-5"), ("iso-8859-16", "iso8859-16"),
    ("koi", "koi8-r"), ("cskoi8r", "koi8-r"), ("koi8-ru", "koi8-u"), ("866", "cp866"),
    ("mac", "mac-roman"), ("x-mac-roman", "mac-roman"), ("x-mac-ukrainian", "mac-cyrillic"),
    ("unicode-1-1-utf-8", "utf-8"), ("unicode11utf8", "utf-8"), ("x-unicode20utf8", "utf-8"),
    ("utf8", "utf-8"),
])
def test_whatwg_label_sweep(label: str, codec: str) -> None:
    assert codec_for_label(label) == codec
    assert codec_for_label(f" {label.upper()}\t") == codec  # ASCII case and whitespace
    got = decode_html(page("plain", title="T").encode(), f'text/html; charset="{label}"')
    if codec == "cp1252":  # the default header yields to a meta; there is none here
        assert got.reason == "header charset cp1252"
    else:
        assert got.encoding == codec and got.reason == f"header charset {codec}"


def test_label_table_is_the_whole_standard() -> None:
    labels = [label for group in WHATWG_LABELS.values() for label in group]
    assert len(labels) == len(set(labels)) == 228
    assert len(WHATWG_LABELS) == 40
    unusable = {name for name, codec in CODECS.items() if codec is None}
    assert unusable == {"replacement", "x-user-defined"}
    for codec in filter(None, CODECS.values()):
        assert codecs.lookup(codec)._is_text_encoding  # exists, and is a text encoding
        assert codecs.lookup(codec).name == codec  # written as Python spells it


def test_codec_sets_are_spelled_as_python_spells_them() -> None:
    """The decoder compares a detector's answer (``web_codec``: Python's spelling) with sets
    written out by hand; a set spelled otherwise would never match."""
    for codec in decode._LETTER_CODECS | decode._MULTIBYTE_CODECS:
        assert codecs.lookup(codec).name == codec


@pytest.mark.parametrize("label", ["punycode", "rot13", "zlib", "hex", "idna", "utf-7", "base64",
                                   "unicode_escape", "raw_unicode_escape", "bz2", "uu", "mbcs"])
def test_python_codec_names_are_ignored_quickly(label: str) -> None:
    body = "<p>1+1=2 a-b-c plain ASCII text, nothing else.</p>" * 5_000  # about 250 KB
    raw = page(body, f'<meta charset="{label}">', title="T").encode("ascii")
    for content_type, forced in ((None, None), (f"text/html; charset={label}", label)):
        start = time.process_time()  # CPU seconds: load does not stretch them
        got = decode_html(raw, content_type, forced)
        assert time.process_time() - start < 2.0, "CPU seconds to decode 250 KB"
        assert got.encoding == "utf-8" and got.reason == "detected utf-8"
        assert body in got.text


@pytest.mark.parametrize("text", [
    "We had crème brûlée at two cafés with a naïve friend.",  # strict GB18030 too: rare hanzi
    "We had crème brûlée at the café; a naïve choice, but a good one.",
])
def test_undeclared_short_western_page_is_cp1252(text: str) -> None:
    raw = page(text, title="Dessert").encode("cp1252")
    got = decode_html(raw)
    assert got.encoding == "cp1252", got.reason
    assert text in got.text


def test_latin1_accents_that_decode_as_gb18030_are_not_chinese() -> None:
    raw = page("We had crème brûlée at two cafés with a naïve friend.", title="T").encode("cp1252")
    raw.decode("gb18030")  # strict: every accent is followed by a letter, a valid trail byte
    assert decode_html(raw).encoding != "gb18030"


def test_undeclared_czech_page_keeps_cp1250() -> None:
    text = ("Přečtěte si nejnovější zprávy z domova i ze světa. Vláda dnes schválila nový zákon "
            "o daních, který začne platit příští rok.")
    got = decode_html(page(text, title="T").encode("cp1250"))
    assert got.encoding == "cp1250", got.reason
    assert text in got.text


@pytest.mark.parametrize(("text", "codec", "western"), [
    ("We had crème brûlée at the café; a naïve choice.", "cp1250", True),
    ("Tickets £3/£1, dinner £15 (adults), £200 for the hall.", "cp1250", True),
    ("Le ministre a déclaré : ça ira, Noël, où, père, à bientôt, même.", "cp1250", True),
    ("O governo aprovou hoje uma nova lei fiscal. Não, ação, coração.", "cp1250", True),
    ("El gobierno aprobó hoy una ley. ¿Qué? ¡Señor! El Niño, España.", "iso8859-2", True),
    ("Přečtěte si nejnovější zprávy z domova i ze světa, začne platit příští rok.", "cp1250",
     False),
    ("Rząd przyjął dziś nową ustawę o podatkach, która wejdzie w życie.", "cp1250", False),
    ("Hükümet bugün yeni vergi yasasını kabul etti. Işık, ağaç, şehir, değişiklik.", "cp1254",
     False),
    ("Vyriausybė šiandien priėmė naują mokesčių įstatymą. Ąžuolas, ūkis.", "cp1257", False),
    ("Guvernul a adoptat astăzi o nouă lege fiscală. Știri și țară.", "iso8859-16", False),
])
def test_windows_1252_preference_is_for_western_text(text: str, codec: str, western: bool) -> None:
    """As if the detector had answered ``codec``: cp1252 wins for Western text only."""
    cp = "cp1252" if western else codec
    assert _reads_as_western(text.encode(cp), codec) is western


def test_a_few_stray_high_bytes_do_not_make_a_cjk_page() -> None:
    body = (b"<p>Plain English text about travel and miles.</p>" * 40
            + b'<a title="Earn Frequent\xa0Flyer Miles">Earn Frequent\xa0Flyer Miles</a>')
    got = decode_html(b"<html><head><title>T</title></head><body>" + body + b"</body></html>")
    assert got.encoding == "cp1252", got.reason
    assert "Earn Frequent\xa0Flyer Miles" in got.text


def test_utf8_page_with_one_stray_latin1_byte_is_utf8() -> None:
    text = "It’s a “quoted” word — and more text about the day. " * 10
    raw = page(text, title="T").encode("utf-8") + b"<p>caf\xe9 au lait</p>"
    got = decode_html(raw)
    assert got.encoding == "utf-8", got.reason
    assert text in got.text


def _damage(raw: bytes, text: str, codec: str, times: int) -> bytes:
    """Replace a character's bytes with an invalid pair a few times (a truncated page, a bad
    copy): the declared codec then leaves a few percent U+FFFD."""
    return raw.replace(text.encode(codec), b"\xff\xfe", times)


def test_big5_page_with_invalid_pairs_stays_big5() -> None:
    raw = page(HK * 5, '<meta charset="big5">', title="新聞").encode("big5hkscs")
    raw = _damage(raw, "嘅", "big5hkscs", 4)
    got = decode_html(raw)
    assert got.encoding == "big5hkscs", got.reason
    assert "U+FFFD" in got.reason and "gb18030" not in got.reason
    assert "香港特別行政區政府新聞公報" in got.text


def test_korean_page_with_invalid_pairs_stays_korean() -> None:
    raw = _damage(page(KO * 5, title="뉴스").encode("cp949"), "똠", "cp949", 4)
    got = decode_html(raw, "text/html; charset=euc-kr")
    assert got.encoding == "cp949", got.reason
    assert "서울의 날씨는 맑고 따뜻합니다" in got.text


def test_rules_encoding_accepts_pythons_name_of_a_web_codec() -> None:
    raw = page(HK, title="新聞").encode("big5hkscs")
    assert decode_html(raw, forced="big5hkscs").reason == "rules encoding big5hkscs"
    assert decode_html(raw, forced="x-user-defined").reason.startswith("detected")


# --- A CJK page with a few invalid bytes is not a single-byte codepage's page ---

POSTS = {
    "gb2312": ("本站年度会员大会将于下月在北京举行，欢迎各位网友踊跃报名参加。",
               "会议期间将讨论论坛的发展方向以及明年的活动安排。", "顶一下！我也报名了。"),
    "big5": ("本站年度會員大會將於下月在台北舉行，歡迎各位網友踴躍報名參加。",
             "會議期間將討論論壇的發展方向以及明年的活動安排。", "頂一下！我也報名了。"),
    "euc_kr": ("올해 회원 총회는 다음 달 서울에서 열립니다. 많은 참여 바랍니다.",
               "회의에서는 게시판의 발전 방향과 내년 활동 계획을 논의합니다.", "저도 신청했어요!"),
    "shift_jis": ("今年の会員総会は来月東京で開かれます。皆さんのご参加をお待ちしております。",
                  "会議では掲示板の今後の方向と来年の活動予定について話し合います。",
                  "私も申し込みました！"),
    "euc_jp": ("今年の会員総会は来月東京で開かれます。皆さんのご参加をお待ちしております。",
               "会議では掲示板の今後の方向と来年の活動予定について話し合います。",
               "私も申し込みました！"),
}


def _forum(posts: tuple[str, ...], rows: int = 24) -> str:
    """A forum thread as such boards print it: one table row a post, with its author and time."""
    body = "".join(f'<tr><td class="author">user{i}</td><td class="post">{posts[i % len(posts)]}'
                   f"<br>2005-03-{i % 28 + 1:02d} 12:{i:02d}</td></tr>\n" for i in range(rows))
    head = f"<html><head><title>{posts[0][:8]}</title></head>"
    return f"{head}<body><table>{body}</table></body></html>"


def _cut(raw: bytes, char: str, codec: str, junk: bytes, count: int = 1) -> bytes:
    """Put ``junk`` between the two bytes of ``char`` (a character split by a bad copy): no strict
    decoding accepts the page any more."""
    encoded = char.encode(codec)
    return raw.replace(encoded, encoded[:1] + junk + encoded[1:], count)


@pytest.mark.parametrize(("source", "codec"), [
    ("gb2312", "gb18030"), ("big5", "big5hkscs"), ("euc_kr", "cp949"), ("shift_jis", "cp932"),
    ("euc_jp", "euc_jp"),
])
def test_undeclared_cjk_forum_with_a_few_bad_bytes_is_not_latin(source: str, codec: str) -> None:
    posts = POSTS[source]
    raw = _forum(posts).encode(source)
    raw = _cut(raw, posts[1][0], source, b"\xff", 2)  # two posts begin with a broken character
    raw = raw.replace(b"</table>", b"\x80</table>")
    got = decode_html(raw)
    assert got.encoding == codec, got.reason
    assert "with a few errors" in got.reason
    assert posts[0] in got.text and posts[2] in got.text


def test_short_gb2312_page_the_detector_calls_cyrillic_is_chinese() -> None:
    """charset-normalizer answers iso8859-5 for this page ("ЂѕО2005Дк¶И»бФ±" as its title)."""
    posts = ("问报名截止到什么时候？", "名，期待见面。", "名，期待见面。", "报名，期待见面。")
    rows = "".join(f"<tr><td>网友{i}</td><td>{post}</td></tr>" for i, post in enumerate(posts))
    raw = (f"<html><head><title>本站2005年度会员</title></head><body><table>{rows}</table>"
           "</body></html>").encode("gb2312")
    raw = _cut(raw, "站", "gb2312", b"\xa1")
    raw = raw.replace("见面。</td>".encode("gb2312"), "见面。</".encode("gb2312") + b"\xfftd>", 1)
    got = decode_html(raw)
    assert got.encoding == "gb18030", got.reason
    assert "问报名截止到什么时候？" in got.text and "报名，期待见面。" in got.text


RU = ("Сегодня в Москве прошло заседание правительства, на котором обсуждались вопросы бюджета "
      "на следующий год.", "Министр финансов заявил, что дефицит будет заметно сокращён.",
      "Спасибо, очень интересно!")


@pytest.mark.parametrize("codec", ["cp1251", "koi8-r"])
def test_russian_forum_with_a_stray_byte_stays_cyrillic(codec: str) -> None:
    """KOI8-R Russian reads as 90% common hanzi in GB18030: its odd-length words keep it out."""
    raw = _damage(_forum(RU).encode(codec), "е", codec, 3)
    got = decode_html(raw)
    assert got.encoding == codec, got.reason
    assert RU[0] in got.text and RU[1] in got.text


def test_koi8r_text_beside_much_ascii_is_not_gb18030_with_errors() -> None:
    """Scripts and markup make the U+FFFD of KOI8-R read as GB18030 a small share of the page:
    what tells it from Chinese with a few bad bytes is a U+FFFD every four hanzi."""
    raw = ("<script>" + "track('page');\n" * 2000 + "</script>"
           + "".join(f"<p>{p}</p>" for p in RU * 3)).encode("koi8-r")
    assert _cjk_despite_errors(raw, replacement_ratio=0.01) is None


FR = ("Le ministre a déclaré à la presse qu’il présentera la réforme dès la rentrée.",
      "L’Assemblée nationale l’examinera en première lecture : « c’est l’été », a-t-il ajouté.",
      "Très bien, merci !")


def test_french_forum_with_a_stray_byte_stays_western() -> None:
    """Read as Shift_JIS, "’s" and "’e" are kanji: Western accents stand alone, not in runs."""
    raw = _damage(_forum(FR).encode("cp1252"), "é", "cp1252", 3)
    got = decode_html(raw)
    assert got.encoding == "cp1252", got.reason
    assert FR[0] in got.text and FR[1] in got.text


def test_english_page_whose_apostrophes_read_as_kanji_stays_western() -> None:
    text = "It’s the team’s best season, and the coach’s plan is working. " * 30
    got = decode_html(page(text, title="Sport").encode("cp1252"))
    assert got.encoding == "cp1252", got.reason
    assert text in got.text


@pytest.mark.parametrize(("source", "codec"), [("gb2312", "gb18030"), ("big5", "big5hkscs")])
@pytest.mark.parametrize("declared", [
    {"content_type": "text/html; charset=ISO-8859-1"},  # a server's default
    {},  # a template's <meta>, below
])
def test_cjk_page_declared_iso_8859_1_by_default_is_not_latin(
    source: str, codec: str, declared: dict[str, str],
) -> None:
    posts = POSTS[source]
    html = _forum(posts)
    if not declared:
        html = html.replace("<head>", '<head><meta charset="iso-8859-1">')
    got = decode_html(html.encode(source), **declared)
    assert got.encoding == codec, got.reason
    assert posts[0] in got.text and posts[2] in got.text


def test_french_page_declared_iso_8859_1_stays_western() -> None:
    got = decode_html(_forum(FR).encode("cp1252"), "text/html; charset=ISO-8859-1")
    assert got.encoding == "cp1252", got.reason
    assert FR[1] in got.text


BIG5_POSTS = ("今年的會員大會將在下個月於台北舉行，歡迎大家踴躍參加。",
              "會議將討論論壇的發展方向與明年的活動計畫。", "我也報名了，期待見面！")


@pytest.mark.parametrize(("posts", "written", "declared", "codec"), [
    (POSTS["gb2312"], "gb2312", "big5", "gb18030"),  # a Big5 template's meta on a GBK page
    (BIG5_POSTS, "big5", "gb2312", "big5hkscs"),  # … and the reverse
])
def test_page_declaring_the_other_chinese_encoding_is_read_in_its_own(
    posts: tuple[str, ...], written: str, declared: str, codec: str,
) -> None:
    html = _forum(posts).replace("<head>", f'<head><meta charset="{declared}">')
    got = decode_html(html.encode(written))
    assert got.encoding == codec, got.reason
    assert posts[0] in got.text and posts[2] in got.text


@pytest.mark.parametrize(("posts", "written"), [(POSTS["gb2312"], "gb2312"), (BIG5_POSTS, "big5")])
def test_page_declaring_its_own_chinese_encoding_keeps_it(
    posts: tuple[str, ...], written: str,
) -> None:
    html = _forum(posts).replace("<head>", f'<head><meta charset="{written}">')
    got = decode_html(html.encode(written))
    assert posts[0] in got.text, got.reason
