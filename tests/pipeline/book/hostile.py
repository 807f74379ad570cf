"""The 300-article hostile archive of issue 6: every kind of content a book must survive."""

from __future__ import annotations

import random

from pipeline.records.task import Task
from pipeline.store.archive import Archive
from tests.pipeline.book.synthetic import add_article, jpeg, store_image

BIG_CATEGORY = "02_大类"

HOSTILE_BODIES = (
    # scripts, event handlers, javascript: URLs, inline styles
    '<p onclick="steal()" style="background:url(http://evil.example/x.png)">Click'
    ' <a href="javascript:alert(1)" onmouseover="x()">here</a> <a href=" JaVaScRiPt:alert(2)">'
    'again</a></p><script>document.write("pwned")</script><p>After <b onload="x()">bold</b></p>'
    '<style>body{display:none}</style>',
    # nested tables and <center>
    '<center><h2>Centered</h2></center><table border="1" width="100%"><tr><td>outer'
    '<table><tr><td>inner <table><tr><td>deepest</td></tr></table></td></tr></table></td>'
    '<td colspan="2" rowspan="abc">x</td></tr><tr>stray text<th><h3>Head in th</h3></th></tr>'
    '<table><tr><td>table in table</td></tr></table><caption>late caption</caption></table>',
    # bad entities and characters XML cannot hold
    "<p>Bad &foo; &bar entities &#0; &#x1; &#xD800; &#65535; &#x110000; &nbsp &amp &lt; &copy"
    " \x01\x02\x0b\x0c\x7f\x85 and ]]&gt; and &lt;!-- not a comment --&gt;</p>"
    "<p>Lone < and > and & in text</p>",
    # frames, plugins, forms, media, svg, math
    '<iframe src="http://evil.example/frame"></iframe><object data="x.swf"><embed src="x.swf">'
    '</object><form action="http://evil.example"><input name="q"><button>Go</button></form>'
    '<video src="http://evil.example/v.mp4" poster="http://evil.example/p.jpg"></video>'
    '<audio src="http://evil.example/a.mp3"></audio><svg><script>alert(1)</script>'
    '<circle r="4"/></svg><math alttext="E=mc^2"><mi>E</mi></math><p>survivor</p>',
    # remote and relative images with no asset map: placeholders, never a remote src
    '<p><img src="https://img.example/remote.jpg" alt="远程图片"> and'
    ' <img src="/relative.png"> and <img src="data:image/png;base64,iVBORw0KGgo="></p>'
    '<picture><source srcset="https://img.example/big.webp"><img src="https://img.example/s.jpg"'
    ' srcset="https://img.example/s2.jpg 2x"></picture>',
    # local image, failed image, corrupt file, a map pointing outside the archive
    '<figure><img src="https://img.example/local.jpg" alt="local" width="100%" height="48">'
    '<figcaption>A local image</figcaption></figure><p><img src="https://img.example/failed.jpg">'
    '<img src="https://img.example/corrupt.jpg"><img src="https://img.example/escape.jpg"></p>',
    # links: to another archived article, elsewhere, to missing and duplicate ids
    '<h2 id="kb-top">Reserved id</h2><p id="dup">one</p><p id="dup">two</p><p id="1bad id">'
    'x</p><p><a href="https://site{j5}.example/post/{j}.html?utm_source=feed#part">sibling</a>'
    ' <a href="https://elsewhere.example/page?a=1&amp;b=2">elsewhere</a> <a href="#dup">dup</a>'
    ' <a href="#missing">missing</a> <a href="relative/page.html">relative</a>'
    ' <a href="http://bad host.example/">bad host</a> <a href="mailto:a@b.example">mail</a>'
    ' <a href="https://x.example/a b%zz">spaces</a></p>',
    # broken structure
    '<ul>loose text<li>one</li><p>para in ul</p></ul><li>stray item</li><dl><dd>dd first</dd>'
    '<dt>dt last</dt></dl><dl><dt>term</dt><dd>def</dd></dl><figure><figcaption>c1</figcaption>'
    '<p>body</p><figcaption>c2</figcaption></figure><figcaption>lost caption</figcaption>'
    '<span><div>div in span</div></span><h2><div>div in h2</div></h2><strong><p>p in strong'
    '</p></strong><a href="https://a.example/1"><a href="https://a.example/2">a in a</a></a>'
    '<pre><div>div in pre</div>  spaced   code</pre><td>stray cell</td><tr><td>stray row</td></tr>',
    # attribute soup
    '<p lang="bad lang!!" dir="sideways" xml:lang="zz-" data-x="1" class="x missing-image"'
    ' title="a &quot;title&quot;">attrs</p><ol start="3" type="Z" reversed><li value="x">'
    'v</li></ol><time datetime="yesterday">then</time><bdo>b</bdo><font color="red">font</font>'
    '<marquee>moving</marquee><blink>blinking</blink><custom-element>custom</custom-element>',
    # comments, processing instructions, CDATA-looking text, a deep nest
    "<!-- a comment --><?php echo 1 ?><p>text <![CDATA[ x ]]> more</p>"
    + "<div>" * 60 + "deep" + "</div>" * 60,
    # what fuzzing against EPUBCheck found: children inside <wbr>, dfn in dfn, li value
    # outside ol, text that only Python calls white space, tables inside headings, dt in ul
    "<p>a<wbr>inside wbr<b>bold</b></wbr>b</p><dfn>x<span><dfn>y</dfn></span></dfn>"
    '<ul><li value="3">v</li><dt>dt in ul</dt><figcaption>fc in ul</figcaption></ul>'
    "<dl>&nbsp;<dt>t</dt><dd>d</dd>\u2028</dl><h2>h<span><table><caption>c</caption><tr><td>"
    "t</td></tr></table></span></h2><pre>p<ul><li>l</li></ul><table><tr><th>h</th></tr>"
    "</table></pre>",
)

# Tag soup for the last articles: the elements and attributes above, nested at random (this is
# how the last group of HOSTILE_BODIES was found).
SOUP_TAGS = (
    "p div span a b i em strong u s sub sup small code pre blockquote ul ol li dl dt dd table "
    "caption thead tbody tfoot tr td th h1 h2 h3 figure figcaption img br hr wbr center font "
    "section header aside nav q cite abbr mark del ins time label details summary ruby rt rp "
    "bdo big tt strike address var kbd dfn picture source noscript dir script iframe style svg "
    "math form input video object x-widget colgroup col xmp marquee fieldset legend template"
).split()
SOUP_ATTRS = ('id="x"', 'id="y"', 'href="https://e.example/p"', 'href="#x"', 'href="#q"',
              'lang="en"', 'dir="rtl"', 'colspan="2"', 'rowspan="3"', 'start="2"', 'value="4"',
              'src="https://img.example/local.jpg"', 'alt="a"', 'class="missing-image"', 'reversed',
              'onclick="x()"', 'href="javascript:alert(1)"', 'style="color:red"',
              'xml:lang="fr"', 'lang="zh_TW"', 'width="10"')
SOUP_TEXT = ("text ", "文字 ", "&amp; ", "x<", " ", "&foo;", "&#0;", "\x01", "]]>", "<!-- c -->",
             "&nbsp", "🚀", "\u2028", "\x85")


def tag_soup(rng: random.Random, depth: int = 0) -> str:
    out = []
    for _ in range(rng.randint(1, 5)):
        if rng.random() < 0.3 or depth > 6:
            out.append(rng.choice(SOUP_TEXT))
            continue
        tag = rng.choice(SOUP_TAGS)
        attrs = " ".join(rng.sample(SOUP_ATTRS, rng.randint(0, 2)))
        close = "" if rng.random() < 0.1 else f"</{tag}>"
        out.append(f"<{tag} {attrs}>{tag_soup(rng, depth + 1)}{close}")
    return "".join(out)


TITLES = ("", "Same Title", "🚀 发射 Launch 🎉 {i}", "中文标题第{i}篇",
          '<script>alert("t")</script> & "quotes" {i}', "Article {i}", "Same Title")
# A Chinese book by the articles' vote: one with no tag or a bad one votes by its own text
# (these bodies are English), so Chinese holds four in seven.
LANGS = ("zh-CN", "zh-CN", "en", None, "bad lang!!", "zh-CN", "zh-CN")
DATES = ("2023-01-{d:02d}T10:00:00+08:00", None, "not a date", "2021-05-04",
         "2020-02-29T12:00:00")


def url_of(i: int) -> str:
    return f"https://site{i % 5}.example/post/{i}.html"


def category_of(i: int) -> tuple[str, str]:
    if i < 200:
        return BIG_CATEGORY, ("子类A", "子类B", "")[i % 3]
    if i < 260:
        return "10_Later", "x"
    if i < 290:
        return "9_Nine", ""
    return "", ""


def make_hostile_archive(archive: Archive, count: int = 300) -> list[Task]:
    """``count`` cleaned articles with hostile bodies, plus tasks that must stay out."""
    local = store_image(archive, jpeg(64, 48, seed=1))
    rng = random.Random(6)
    corrupt = store_image(archive, b"this is not an image at all", "jpg")
    tasks = []
    for i in range(count):
        j = (i + 7) % count
        soup = i >= count - 50  # the last ones are tag soup, local images anywhere in it
        body = tag_soup(rng) if soup else (
            HOSTILE_BODIES[i % len(HOSTILE_BODIES)].replace("{j5}", str(j % 5))
            .replace("{j}", str(j)))
        images = None
        if soup or i % len(HOSTILE_BODIES) == 5:
            images = {"https://img.example/local.jpg": local,
                      "https://img.example/failed.jpg": None,
                      "https://img.example/corrupt.jpg": corrupt,
                      "https://img.example/escape.jpg": "02_assets/../tasks.csv"}
        cat1, cat2 = category_of(i)
        title = TITLES[i % len(TITLES)].format(i=i)
        published = DATES[i % len(DATES)]
        tasks.append(add_article(
            archive, i + 1, url=url_of(i), title=title, cat1=cat1, cat2=cat2,
            published=published.format(d=i % 28 + 1) if published else None,
            lang=LANGS[i % len(LANGS)], author="作者 <b>&" if i % 4 == 0 else None,
            content_html=body, images=images,
        ))
    for offset, status in enumerate(("failed", "pending", "duplicate", "fetched")):
        task_id = count + 1 + offset
        tasks.append(add_article(archive, task_id, url=f"https://out.example/{status}",
                                 title=f"EXCLUDED {status}", content_html="<p>no</p>",
                                 status=status))
    return tasks
