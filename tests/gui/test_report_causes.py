"""The window's report says each failure's own advice in the window's language, with every
task's link (issue 29 C)."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from tests.gui.conftest import OpenWindow, look_at
from tests.pipeline.test_report_causes import dead_images_run, faulty_run, large_image_run
from tests.sites.articles import ArticleSite
from tests.waiting import PATIENCE_MS


def test_the_chinese_report_gives_each_cause_its_advice_and_link(
        qtbot: QtBot, open_window: OpenWindow, chinese: None, tmp_path: Path) -> None:
    ws, ids = faulty_run(tmp_path / "faulty")
    ws.report()
    ws.close()
    window = open_window(tmp_path / "faulty")
    view = window.report_view
    look_at(window, view)
    qtbot.waitUntil(lambda: view.path is not None, timeout=PATIENCE_MS)
    shown = view.page.toPlainText()
    for advice in ("页面已不在", "网站拒绝连接", "网站限制了请求"):
        assert advice in shown, shown
    assert "per_host_connections" not in shown and "The site" not in shown
    links = view.page.toHtml()
    for task in window.model.tasks():
        assert task.url.replace("&", "&amp;") in links
    assert "Wayback 副本" in shown


def test_the_chinese_report_groups_images_by_their_host_with_why(
        qtbot: QtBot, open_window: OpenWindow, chinese: None, tmp_path: Path) -> None:
    ws = dead_images_run(tmp_path / "images")
    ws.report()
    ws.close()
    window = open_window(tmp_path / "images")
    view = window.report_view
    look_at(window, view)
    qtbot.waitUntil(lambda: view.path is not None, timeout=PATIENCE_MS)
    shown = view.page.toPlainText()
    for words in ("图片主机", "img1.invalid", "img2.invalid", "域名无法解析 2", "拒绝外链（403） 1",
                  "网站的域名无法解析", "防盗链"):
        assert words in shown, shown
    assert "does not resolve" not in shown and "Referer rule" not in shown


def test_the_chinese_report_says_images_over_the_limit_are_too_large(
        qtbot: QtBot, open_window: OpenWindow, chinese: None, tmp_path: Path) -> None:
    with ArticleSite() as site:
        ws = large_image_run(tmp_path / "large", site)
    ws.report()
    ws.close()
    window = open_window(tmp_path / "large")
    view = window.report_view
    look_at(window, view)
    qtbot.waitUntil(lambda: view.path is not None, timeout=PATIENCE_MS)
    shown = view.page.toPlainText()
    for words in ("图片主机", "127.0.0.1", "已保存 3 张中的 1 张", "过大 2", "图片超过大小上限",
                  "“图片下载上限（MB）”"):
        assert words in shown, shown
    assert "max_image_bytes" not in shown and "size limit" not in shown
