"""The extension's source: one manifest for Chromium and Firefox, its ids the ones the host
lets in, every message it shows translated, and Firefox's linter content with it."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
import subprocess

import pytest

from pipeline.browser.identity import CHROMIUM_EXTENSION_ID, EXTENSION_DIR, FIREFOX_EXTENSION_ID

REPO = EXTENSION_DIR.parents[1]
# the one warning the shared manifest carries on purpose: Firefox ignores the service worker
# Chromium needs and runs background.scripts instead (Chromium ignores those)
EXPECTED_WARNINGS = {"BACKGROUND_SERVICE_WORKER_IGNORED"}


def manifest() -> dict[str, object]:
    return json.loads((EXTENSION_DIR / "manifest.json").read_text(encoding="utf-8"))


def locale(name: str) -> dict[str, dict[str, str]]:
    path = EXTENSION_DIR / "_locales" / name / "messages.json"
    return json.loads(path.read_text(encoding="utf-8"))


def test_the_ids_are_the_ones_the_host_lets_in() -> None:
    key = base64.b64decode(str(manifest()["key"]))
    digest = hashlib.sha256(key).hexdigest()[:32]
    assert "".join(chr(ord("a") + int(c, 16)) for c in digest) == CHROMIUM_EXTENSION_ID
    gecko = manifest()["browser_specific_settings"]["gecko"]  # type: ignore[index]
    assert gecko["id"] == FIREFOX_EXTENSION_ID


def test_every_message_shown_is_in_english_and_chinese() -> None:
    english, chinese = locale("en"), locale("zh_CN")
    assert english.keys() == chinese.keys()
    used = set(re.findall(r"__MSG_(\w+)__", (EXTENSION_DIR / "manifest.json").read_text()))
    for script in ("background.js", "popup.js"):
        text = (EXTENSION_DIR / script).read_text(encoding="utf-8")
        used |= set(re.findall(r"""(?:\bt|getMessage)\(\s*"(\w+)\"""", text))
    assert used and used <= english.keys(), used - english.keys()
    assert chinese["saveToKuaibu"]["message"] == "保存到快捕"
    for name, entry in english.items():  # the same substitutions in both languages
        assert (sorted(re.findall(r"\$\d", entry["message"]))
                == sorted(re.findall(r"\$\d", chinese[name]["message"]))), name


def test_firefox_lint_passes() -> None:
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed: web-ext (browser/lint.sh) comes from npm")
    done = subprocess.run(["sh", str(REPO / "browser" / "lint.sh"), "--output", "json"],
                          capture_output=True, text=True, timeout=600)
    report = json.loads(done.stdout)
    assert report["errors"] == [], report["errors"]
    assert {w["code"] for w in report["warnings"]} <= EXPECTED_WARNINGS, report["warnings"]
    assert report["notices"] == []
