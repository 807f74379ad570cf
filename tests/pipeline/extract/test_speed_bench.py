"""bench/extract_speed.py from a fresh clone (issue 30): the dev sets live beside the repository,
not in it, so a clone without them gets one line saying where pages were looked for, not a
ZeroDivisionError after timing two processes over nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def test_a_missing_dev_set_is_named_with_the_option_that_finds_it(tmp_path: Path) -> None:
    (tmp_path / "zh-news-dev" / "pages").mkdir(parents=True)
    (tmp_path / "zh-news-dev" / "pages" / "a.html").write_text("<p>一页</p>", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "bench/extract_speed.py", "zh-news-dev", "scrapinghub-dev",
         "--data", str(tmp_path), "--whole-process", "--rounds", "1"],
        cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert str(tmp_path / "scrapinghub-dev" / "pages") in last and "--data" in last
    assert "zh-news-dev" not in last
