"""What each rule does on a page, as the rules editor reports it."""

from __future__ import annotations

from pipeline.extract.effects import rule_effects
from pipeline.rules.findings import RuleKey
from pipeline.rules.model import SiteRules

PAGE = """<html><body><h1 class="headline">标题</h1><div class="ad">广告 广告</div>
<div class="post"><p>第一段正文。</p><div class="ad">文中广告</div><p>第二段正文。</p></div>
<div class="share">分享</div></body></html>"""


def test_each_selector_says_what_it_matched_in_extraction_order() -> None:
    rules = SiteRules(content_selector="div.post", strip=(".ad",), strip_extra=(".share", "nav"),
                      title_selector="h1.headline")
    effects = rule_effects(PAGE, rules)
    assert [(e.key, e.css, e.matched) for e in effects] == [
        (RuleKey.TITLE, "h1.headline", 1), (RuleKey.STRIP, ".ad", 2),
        (RuleKey.STRIP, ".share", 1), (RuleKey.STRIP, "nav", 0), (RuleKey.CONTENT, "div.post", 1)]
    content = effects[-1]
    assert content.chars == len("第一段正文。第二段正文。")  # the ad inside was stripped first
    assert content.message == "content selector 'div.post' matched 1 element (12 characters)"
    assert effects[1].message == "strip '.ad' removed 2 elements (8 characters)"
    assert effects[3].message == "strip 'nav' matched nothing"


def test_a_content_selector_that_matches_nothing_says_the_automatic_pick_was_used() -> None:
    [effect] = rule_effects(PAGE, SiteRules(content_selector="article .body"))
    assert effect.matched == 0
    assert effect.message.endswith("matched nothing: automatic extraction used")
