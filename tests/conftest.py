"""Test-wide set-up: Qt runs offscreen (no display on CI), before anything imports it."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
