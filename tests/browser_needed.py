"""Tests that drive the system's Chromium: they fail, naming what is missing, where it is not
installed, unless ``KUAIBU_NO_BROWSER=1`` says to skip them (a machine without Chromium on
purpose). One rule for every such test."""

from __future__ import annotations

import os

import pytest

from pipeline.net.render import browser_problem
from pipeline.records.settings import Settings


def needs_browser(settings: Settings | None = None) -> None:
    """Return when the browser can be driven; else skip (``KUAIBU_NO_BROWSER=1``) or fail."""
    problem = browser_problem(settings or Settings())
    if problem is None:
        return
    if os.environ.get("KUAIBU_NO_BROWSER") == "1":
        pytest.skip(f"KUAIBU_NO_BROWSER=1: {problem}")
    pytest.fail(f"{problem} (or set KUAIBU_NO_BROWSER=1 to skip the tests that drive Chromium)")
