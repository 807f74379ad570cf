"""``kuaibu install-browser``: the host manifests that tell Chromium, Google Chrome and
Firefox where Kuaibu's native messaging host is and which extension may start it, each in
the user's own folder, with a small launcher beside it (the browser runs a program, not a
command line: the launcher runs ``kuaibu capture-host`` — installed, bundled, or a
checkout's main.py — on the archive chosen).
``--uninstall`` removes what it wrote.
"""

from __future__ import annotations

import json
import os
import shlex
from dataclasses import dataclass
from pathlib import Path

from pipeline.browser.identity import CHROMIUM_ORIGIN, FIREFOX_EXTENSION_ID, HOST_NAME
from pipeline.records.errors import KuaibuError
from pipeline.records.places import program_command

LAUNCHER = "kuaibu-capture-host"


@dataclass(frozen=True)
class Browser:
    """A browser and where it reads the user's native messaging hosts on Linux."""

    name: str
    folder: Path
    firefox: bool = False


def browsers(home: Path, config: Path | None = None) -> list[Browser]:
    """The browsers registered, their folders under ``home`` (``config``: the XDG config
    folder, ``$XDG_CONFIG_HOME`` or ``~/.config``, where Chromium and Chrome keep theirs)."""
    config = config or Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config")
    return [Browser("Chromium", config / "chromium" / "NativeMessagingHosts"),
            Browser("Google Chrome", config / "google-chrome" / "NativeMessagingHosts"),
            Browser("Firefox", home / ".mozilla" / "native-messaging-hosts", firefox=True)]


def host_manifest(launcher: Path, firefox: bool) -> dict[str, object]:
    """The manifest a browser reads: the host's name and program, and the one extension it
    lets start it (Chromium names an origin, Firefox an extension id)."""
    manifest: dict[str, object] = {
        "name": HOST_NAME,
        "description": "Kuaibu 快捕: save the page you are reading to your archive",
        "path": str(launcher),
        "type": "stdio",
    }
    if firefox:
        manifest["allowed_extensions"] = [FIREFOX_EXTENSION_ID]
    else:
        manifest["allowed_origins"] = [CHROMIUM_ORIGIN]
    return manifest


def write_host(folder: Path, archive: Path, firefox: bool = False) -> Path:
    """The launcher and the manifest in ``folder`` (made when missing); the manifest's path.
    The launcher runs ``kuaibu`` (``places.program_command``) on ``archive``."""
    kuaibu = program_command("kuaibu")
    if kuaibu is None:
        raise KuaibuError("kuaibu is not installed: install Kuaibu first (pipx install …)")
    folder.mkdir(parents=True, exist_ok=True)
    launcher = folder / LAUNCHER
    command = " ".join(shlex.quote(str(part)) for part in (
        *kuaibu, "--archive", archive.resolve(), "capture-host"))
    launcher.write_text("#!/bin/sh\n# Kuaibu's native messaging host (written by"
                        f" install-browser)\nexec {command} \"$@\"\n", encoding="utf-8")
    launcher.chmod(0o755)
    manifest = folder / f"{HOST_NAME}.json"
    manifest.write_text(json.dumps(host_manifest(launcher, firefox), ensure_ascii=False,
                                   indent=2) + "\n", encoding="utf-8")
    return manifest


def install(home: Path, archive: Path) -> list[Path]:
    """Register the host with every browser for the user whose home is ``home``."""
    return [write_host(b.folder, archive, b.firefox) for b in browsers(home)]


def uninstall(home: Path) -> list[Path]:
    """Remove the manifests and launchers ``install`` wrote; the files removed."""
    removed = []
    for browser in browsers(home):
        for path in (browser.folder / f"{HOST_NAME}.json", browser.folder / LAUNCHER):
            if path.is_file():
                path.unlink()
                removed.append(path)
    return removed
