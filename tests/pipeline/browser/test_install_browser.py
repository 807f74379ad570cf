"""``install-browser`` registers the capture host for Chromium, Google Chrome and Firefox in
the user's own folders, with a launcher that works from this checkout; ``--uninstall``
removes what it wrote."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from pathlib import Path

from pipeline.browser.identity import CHROMIUM_ORIGIN, FIREFOX_EXTENSION_ID, HOST_NAME

REPO = Path(__file__).resolve().parents[3]
FOLDERS = {".config/chromium/NativeMessagingHosts": False,
           ".config/google-chrome/NativeMessagingHosts": False,
           ".mozilla/native-messaging-hosts": True}


def kuaibu(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "XDG_CONFIG_HOME"} | {"HOME": str(home)}
    return subprocess.run([sys.executable, str(REPO / "main.py"), *args], env=env, text=True,
                          capture_output=True, timeout=120, cwd=REPO)


def test_install_registers_every_browser_and_uninstall_removes_it(tmp_path: Path) -> None:
    home, archive = tmp_path / "home", tmp_path / "my archive"
    done = kuaibu(home, "install-browser", "--archive", str(archive))
    assert done.returncode == 0, done.stderr
    assert archive.is_dir()  # made now: the host never makes an archive
    extension = REPO / "browser" / "extension"  # the checkout's, to load unpacked
    assert done.stdout.splitlines()[-1] == f"load the extension unpacked from {extension}" \
                                           " (see README)"
    for folder, firefox in FOLDERS.items():
        manifest_path = home / folder / f"{HOST_NAME}.json"
        assert f"wrote {manifest_path}" in done.stdout
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        launcher = Path(manifest["path"])
        assert launcher.parent == manifest_path.parent and os.access(launcher, os.X_OK)
        assert (manifest["name"], manifest["type"]) == (HOST_NAME, "stdio")
        if firefox:
            assert manifest["allowed_extensions"] == [FIREFOX_EXTENSION_ID]
            assert "allowed_origins" not in manifest
        else:
            assert manifest["allowed_origins"] == [CHROMIUM_ORIGIN]
            assert "allowed_extensions" not in manifest
        caller = ([str(manifest_path), FIREFOX_EXTENSION_ID] if firefox
                  else [CHROMIUM_ORIGIN])
        body = b'{"kind": "categories"}'
        answer = subprocess.run([str(launcher), *caller], capture_output=True, timeout=120,
                                input=struct.pack("=I", len(body)) + body, cwd=launcher.parent)
        assert json.loads(answer.stdout[4:]) == {"ok": True, "categories": []}, answer.stderr

    done = kuaibu(home, "install-browser", "--uninstall")
    assert done.returncode == 0, done.stderr
    for folder in FOLDERS:
        assert list((home / folder).iterdir()) == []
    assert kuaibu(home, "install-browser", "--uninstall").stdout.startswith("nothing to remove")
