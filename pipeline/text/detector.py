"""py3langid's detector, loaded in milliseconds rather than in a second (issue 27 §10).

py3langid ships its model LZMA-compressed: 4.5 MB that unpack into 68 MB of arrays, half a
CPU second (a second or more of wall time on a loaded machine) in every process that detects
a language — a sixth of ``main.py extract``'s whole time on a hundred pages. So the arrays are
unpacked once into the user's cache folder, one ``.npy`` file each, and every later process
memory-maps them: loading costs milliseconds, and the system reads only the parts of the model
a text touches. The copy is named by the digest of the compressed model (another py3langid
unpacks its own) and appears whole or not at all (written aside, then renamed). Where no copy
can be written or read, the model is unpacked in memory as py3langid does. Either way the
detector holds the same numbers, so it gives the same answers.
"""

from __future__ import annotations

import hashlib
import lzma
import os
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from py3langid.langid import LanguageIdentifier

# The arrays of py3langid 0.4's model (``py3langid.modelio``), each unpacked to NAME.npy.
_ARRAYS = ("ptc", "pc", "classes", "nextmove", "nextmove_row", "out_feat")


def load_detector(cache: Path | None) -> LanguageIdentifier:
    """The detector with normalised probabilities, its model read from the unpacked copy under
    ``cache`` (made there on first use), or unpacked in memory when ``cache`` is None or
    cannot hold the copy."""
    # numpy, imported here first, starts OpenBLAS with a thread per core, a tenth of a CPU
    # second that the detector's one small product per text never wins back (unless the
    # user says otherwise).
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier

    model = MODEL_DIR / MODEL_FILE
    if cache is not None:
        try:
            return _mapped(_unpacked(model, cache))
        except (OSError, ValueError):  # unwritable folder, a damaged copy: read as shipped
            pass
    return LanguageIdentifier.from_model_file(model, norm_probs=True)


def user_cache() -> Path | None:
    """Kuaibu's folder in the user's cache (``$XDG_CACHE_HOME``, else ``~/.cache``), or None
    when there is no home to put it in."""
    if base := os.environ.get("XDG_CACHE_HOME"):
        return Path(base) / "kuaibu"
    try:
        return Path.home() / ".cache" / "kuaibu"
    except RuntimeError:
        return None


def _unpacked(model: Path, cache: Path) -> Path:
    """The folder holding ``model``'s arrays, unpacking them first if no process has."""
    digest = hashlib.sha256(model.read_bytes()).hexdigest()[:16]
    folder = cache / f"langid-{digest}"
    if folder.is_dir():
        return folder
    import numpy as np

    cache.mkdir(parents=True, exist_ok=True)
    aside = Path(tempfile.mkdtemp(prefix=f"{folder.name}.", dir=cache))
    try:
        with tempfile.TemporaryFile(dir=aside) as npz:
            with lzma.open(model) as packed:
                shutil.copyfileobj(packed, npz, length=1 << 20)
            npz.seek(0)
            with np.load(npz, allow_pickle=False) as arrays:
                for name in _ARRAYS:
                    np.save(aside / f"{name}.npy", arrays[name], allow_pickle=False)
        aside.rename(folder)
    except OSError:
        if not folder.is_dir():  # another process renaming its copy first is no failure
            raise
    finally:
        shutil.rmtree(aside, ignore_errors=True)
    return folder


def _mapped(folder: Path) -> LanguageIdentifier:
    """The detector over the arrays in ``folder``, memory-mapped: the weights as a plain
    array over the mapping (a ``memmap`` pays Python overhead on every lookup), the tables it
    walks in Python (the byte automaton's transitions, its rows and what each state outputs)
    as memoryviews, whose items are plain ints as py3langid's own arrays' are. (Lists of the
    rows and outputs, 100,000 items each, cost 8 ms to make in every process; a text's few
    thousand lookups cost about the same through either.)"""
    import numpy as np
    from py3langid.langid import LanguageIdentifier

    a = {name: np.load(folder / f"{name}.npy", mmap_mode="r", allow_pickle=False)
         for name in _ARRAYS}
    return LanguageIdentifier(
        np.asarray(a["ptc"]), np.array(a["pc"]), a["classes"].tolist(), memoryview(a["nextmove"]),
        memoryview(a["out_feat"]), norm_probs=True, tk_row=memoryview(a["nextmove_row"]))
