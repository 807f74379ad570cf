"""rewrap: hard-wrapped lines become paragraphs again; poems, lists and addresses stay lines."""

from __future__ import annotations

import textwrap

from lxml import etree

from pipeline.extract import extract
from pipeline.extract.clean import clean
from pipeline.extract.dom import parse
from pipeline.extract.options import WrapOptions
from pipeline.extract.rewrap import paragraphs

ZH = [
    "今年春天，本市在城东新建了一座公共图书馆，占地约两万平方米，藏书超过八十万册，"
    "其中古籍和地方文献近三万册。图书馆开放第一周，每天接待读者都在五千人次以上，"
    "不少市民一早就在门口排起了长队，希望能够第一时间进去看看。",
    "馆长在接受采访时表示，新馆的设计充分考虑了不同年龄读者的需要，设有少儿阅览区、"
    "自习区、电子阅览室和多功能报告厅，并且实行全年无休的开放时间。他说，图书馆不仅是"
    "借书还书的地方，更应该成为市民学习交流的公共空间。",
    "一些读者也提出了意见，认为周边停车位不足，公交线路还不够方便。对此，市交通部门"
    "回应称，将在下个月开通两条经过图书馆的公交线路，并在图书馆附近增加三百个停车位。",
    "记者在现场看到，许多家长带着孩子来到少儿阅览区，孩子们或坐或趴，安静地翻看绘本。"
    "一位带着女儿来看书的母亲说，以前要坐一个小时的车去老馆，现在走路十分钟就到了。",
]
EN = [
    "The city opened its new public library on the east side this spring. It holds more "
    "than eight hundred thousand books, among them nearly thirty thousand volumes of local "
    "history, and in its first week it welcomed over five thousand readers a day.",
    "The director said the building was designed with readers of every age in mind: it has "
    "a children's room, quiet study areas, a digital reading room and a lecture hall, and it "
    "will be open every day of the year. A library, he said, is not only a well-known place "
    "to borrow books but a public room where people learn from each other.",
    "Some readers complained that there is too little parking and that buses do not stop "
    "nearby. The transport department answered that two new bus routes will pass the library "
    "next month, and that three hundred parking spaces will be added around it.",
]


def zh_lines(text: str, width: int = 38) -> list[str]:
    """Cut like a fixed-width editor: every ``width`` characters, wherever that falls."""
    return [text[i:i + width] for i in range(0, len(text), width)]


def cleaned(body: str) -> etree._Element:
    root = parse(f"<html><body><div id='c'>{body}</div></body></html>")
    out = clean(root.xpath("//div[@id='c']"), "https://example.com/", ("href",))
    return etree.fromstring(f"<div>{out.html}</div>")


def texts(tree: etree._Element) -> list[str]:
    return ["".join(p.itertext()) for p in tree.iter("p")]


def test_chinese_lines_in_their_own_paragraphs_join_at_the_empty_ones() -> None:
    lines = [zh_lines(p) for p in ZH]
    assert any(line.startswith("，") for para in lines for line in para)  # what a reader saw
    body = "<p>&nbsp;</p>".join("".join(f"<p>{line}</p>" for line in para) for para in lines)
    title = "城东新图书馆开放首周迎来读者高峰"
    html = (f"<html><head><title>{title}</title></head><body><div class='nav'><a href='/'>首页"
            f"</a> <a href='/news'>新闻</a></div><div class='article'><h1>{title}</h1>{body}"
            "</div></body></html>")
    article = extract(html, "https://example.com/news/1.html")
    assert article.text.split("\n") == ZH
    assert article.content_html.count("<p>") == len(ZH)


def test_chinese_lines_ended_by_br_join_at_the_blank_lines() -> None:
    body = "<br><br>".join("<br>\n".join(zh_lines(p, 36)) for p in ZH)
    assert texts(cleaned(body)) == ZH


def test_a_short_line_ends_a_paragraph_where_no_empty_line_does() -> None:
    """(A paragraph whose last line came out full would run on into the next: a full line that
    ends a sentence ends a paragraph no more often than by chance.)"""
    assert all(len(p) % 38 for p in ZH)
    body = "".join(f"<p>{line}</p>" for p in ZH for line in zh_lines(p))
    assert texts(cleaned(body)) == ZH


def test_markup_inside_the_lines_is_kept() -> None:
    lines = zh_lines(ZH[0])
    lines[1] = f"<a href='/lib'>{lines[1][:6]}</a><strong>{lines[1][6:]}</strong>"
    body = "".join(f"<p>{line}</p>" for line in lines) + "<p></p>" + "".join(
        f"<p>{line}</p>" for p in ZH[1:] for line in zh_lines(p))
    tree = cleaned(body)
    assert texts(tree)[0] == ZH[0]
    first = next(tree.iter("p"))
    assert first.find("a").get("href") == "https://example.com/lib"
    assert first.find("strong") is not None


def test_english_hard_wrapped_prose_joins_with_spaces() -> None:
    wrapped = [textwrap.wrap(p, 64) for p in EN]
    body = "<p></p>".join("".join(f"<p>{line}</p>" for line in para) for para in wrapped)
    assert texts(cleaned(body)) == EN


def test_a_word_broken_at_a_hyphen_is_whole_again() -> None:
    wrapped = [textwrap.wrap(p, 64, break_on_hyphens=True) for p in EN]
    assert any(line.endswith("well-") for para in wrapped for line in para)
    body = "<br><br>".join("<br>".join(para) for para in wrapped)
    assert texts(cleaned(body)) == EN


POEM = ["床前明月光，", "疑是地上霜。", "举头望明月，", "低头思故乡。", "",
        "春眠不觉晓，", "处处闻啼鸟。", "夜来风雨声，", "花落知多少。"]
MODERN_POEM = ["从明天起，做一个幸福的人", "喂马，劈柴，周游世界", "从明天起，关心粮食和蔬菜",
               "我有一所房子，面朝大海，春暖花开", "", "从明天起，和每一个亲人通信",
               "告诉他们我的幸福", "那幸福的闪电告诉我的", "我将告诉每一个人"]
VERSE = ["Shall I compare thee to a summer's day?", "Thou art more lovely and more temperate:",
         "Rough winds do shake the darling buds of May,",
         "And summer's lease hath all too short a date;",
         "Sometime too hot the eye of heaven shines,", "And often is his gold complexion dimm'd;",
         "And every fair from fair sometime declines,",
         "By chance or nature's changing course untrimm'd;"]
ADDRESS = ["北京市海淀区中关村南大街五号", "理工科技大厦十二层一二零六室", "城东新图书馆读者服务部",
           "邮政编码：一零零零八一", "电话：零一零六八九一二三四五", "电子邮件：reader@example.com",
           "开放时间：每天上午九点至晚上九点"]
WINNERS = ["Tommy Smith (Sr.), Mar. 10, 2003", "Ike Diogu (Fr.), Feb. 16, 2003",
           "Chad Prewitt (Sr.), Jan. 7, 2002", "Awvee Storey (Jr.), Feb. 5, 2001",
           "Eddie House (Sr.), Feb. 21, 2000", "Eddie House (Sr.), Jan. 10, 2000",
           "Jeremy Veal (Sr.), Feb. 9, 1998", "Mario Bennett (Jr.), Mar. 13, 1995"]
HEADLINES = ["城东新图书馆开放首周每天接待读者五千人次以上",
             "市交通部门下月开通两条经过新图书馆的公交线路",
             "少儿阅览区成为周末最受家长和孩子欢迎的地方",
             "新馆实行全年无休开放时间方便上班族晚间借阅",
             "读者反映周边停车位不足有关部门承诺增加车位",
             "古籍和地方文献阅览室下月起向全体市民开放",
             "图书馆举办首场读书分享会吸引两百多名市民"]
SENTENCES = ["今年春天，本市在城东新建了一座公共图书馆，占地约两万平方米，藏书超过八十万册。",
             "图书馆开放第一周，每天接待读者都在五千人次以上，不少市民一早就来排队。",
             "馆长表示，新馆的设计充分考虑了不同年龄读者的需要，设有多个不同的阅览区。",
             "一些读者也提出了意见，认为周边停车位不足，公交线路还不够方便，需要改进。",
             "对此，市交通部门回应称，将在下个月开通两条经过图书馆的公交线路。",
             "记者在现场看到，许多家长带着孩子来到少儿阅览区，安静地翻看绘本。",
             "一位母亲说，以前要坐一个小时的车去老馆，现在走路十分钟就到了。"]


def test_lines_that_are_not_wrapped_prose_stay_lines() -> None:
    for lines in (POEM, MODERN_POEM, VERSE, ADDRESS, WINNERS, HEADLINES, SENTENCES):
        body = "".join(f"<p>{line}</p>" for line in lines)
        assert texts(cleaned(body)) == [line for line in lines if line], lines[0]
        br_body = "<br>".join(lines)
        assert paragraphs(br_body.split("<br>"), WrapOptions()) is None, lines[0]


def test_paragraphs_name_the_lines_of_each() -> None:
    lines: list[str | None] = []
    expected = []
    for para in ZH:
        expected.append(list(range(len(lines), len(lines) + len(zh_lines(para)))))
        lines += [*zh_lines(para), None]
    assert paragraphs(lines, WrapOptions()) == expected
    assert paragraphs(lines, WrapOptions(min_columns=100)) is None
