"""Who may call the native host: Kuaibu's extension, by the id each browser knows it by.

Chromium derives an extension's id from the public key in its manifest (``key``), so the
unpacked extension has the same id wherever it is loaded from; Firefox takes the id the
manifest declares (``browser_specific_settings.gecko.id``).
``tests/pipeline/browser/test_manifest.py`` checks both against the manifest.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

# the native messaging host's name (lowercase letters, digits, dots and underscores only)
HOST_NAME = "app.kuaibu.capture"
CHROMIUM_EXTENSION_ID = "aaifcooalobjihckioiopbjdhcihnifh"
CHROMIUM_ORIGIN = f"chrome-extension://{CHROMIUM_EXTENSION_ID}/"
FIREFOX_EXTENSION_ID = "capture@kuaibu.app"
# the extension's source, one for Chromium-based browsers and Firefox
EXTENSION_DIR = Path(__file__).resolve().parents[2] / "browser" / "extension"


def caller_problem(argv: Sequence[str]) -> str | None:
    """Why the process that started the host is not Kuaibu's extension, None when it is.

    Chromium passes the caller's origin as the first argument (``chrome-extension://<id>/``;
    on Windows a ``--parent-window`` follows); Firefox the host manifest's path and then the
    extension's id. The manifests allow only Kuaibu's extension already; this is the host's
    own check, for a manifest someone edited or a host started by hand."""
    args = [a for a in argv if not a.startswith("--parent-window")]
    if not args:
        return "no caller named (the browser names the extension that starts the host)"
    if args[0].startswith("chrome-extension://"):
        if args[0] == CHROMIUM_ORIGIN:
            return None
        return f"called by {args[0][:120]}, not Kuaibu's extension"
    if len(args) >= 2:
        if args[1] == FIREFOX_EXTENSION_ID:
            return None
        return f"called by the extension {args[1][:120]}, not Kuaibu's"
    return f"called by {args[0][:120]}, not Kuaibu's extension"
