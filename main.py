"""Kuaibu 快捕 — no arguments opens the window; a command runs the same pipeline headless."""

import sys

from pipeline.cli import main

if __name__ == "__main__":
    sys.exit(main())
