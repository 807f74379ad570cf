"""Build the one-folder bundle for people without Python, then check it: ``python3
packaging/build_bundle.py [--work DIR]``.

Kuaibu and PyInstaller go into a venv of their own under the work folder (default
``build/bundle``: the project's venv is left alone), ``packaging/kuaibu.spec`` makes
``dist/kuaibu/`` (the programs ``kuaibu`` and ``kuaibu-gui`` and their libraries), its size is
printed, and its ``kuaibu demo`` runs under ``env -i`` with a temporary HOME: no Python
packages, no PATH beyond the system's. It takes minutes; it is a check of its own, outside the
unit tests. The exit status is the demo's.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYINSTALLER = "pyinstaller==6.22.3"


def run(*command: str | Path, **kwargs: object) -> None:
    print("+", " ".join(map(str, command)), flush=True)
    subprocess.run([str(c) for c in command], check=True, **kwargs)  # type: ignore[arg-type]


def size_of(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "bundle",
                        help="the build venv, PyInstaller's work and the bundle (dist/kuaibu)")
    work = parser.parse_args().work.resolve()
    venv = work / "venv"
    bin_dir = venv / ("Scripts" if sys.platform == "win32" else "bin")
    if not venv.exists():
        run(sys.executable, "-m", "venv", venv)
    run(bin_dir / "python", "-m", "pip", "install", "--quiet", ROOT, PYINSTALLER)
    run(bin_dir / "pyinstaller", "--noconfirm", "--clean", "--distpath", work / "dist",
        "--workpath", work / "pyinstaller", ROOT / "packaging" / "kuaibu.spec")
    bundle = work / "dist" / "kuaibu"
    print(f"bundle: {bundle} ({size_of(bundle) / 1e6:.0f} MB)", flush=True)
    with tempfile.TemporaryDirectory(prefix="kuaibu-bundle-home-") as home:
        program = bundle / ("kuaibu.exe" if sys.platform == "win32" else "kuaibu")
        env = ["env", "-i", f"HOME={home}", "PATH=/usr/bin:/bin", "LANG=C.UTF-8"]
        command = [str(program), "demo"]
        print("+", " ".join(env + command), flush=True)
        if sys.platform == "win32":  # no env -i: an environment of the bare minimum
            keep = {k: os.environ[k] for k in ("SYSTEMROOT", "TEMP", "TMP") if k in os.environ}
            done = subprocess.run(command, env={**keep, "USERPROFILE": home,
                                                "LOCALAPPDATA": home}, cwd=home)
        else:
            done = subprocess.run(env + command, cwd=home)
    print("bundle demo: " + ("ok" if done.returncode == 0 else f"exit {done.returncode}"))
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
