"""The launcher: a command runs headless, no command is the window (or says why it cannot be)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from main import main


def test_no_command_without_a_display_says_so(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert main([]) == 1
    captured = capsys.readouterr()
    assert "usage: main.py" in captured.out
    assert "no display" in captured.err and "main.py demo" in captured.err


def test_a_command_runs_headless(tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["status", "--archive", str(tmp_path)]) == 0
    assert "0 tasks in" in capsys.readouterr().out
